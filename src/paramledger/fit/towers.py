"""How vLLM 0.33.0 (commit 4ba787ec9) holds the tensors outside a whole multimodal model's decoder layers: its
towers and projectors, and the components it never loads (docs/notes/fit-towers.md has each rule's lines).

- vllm/config/multimodal.py MultiModalConfig.mm_encoder_tp_mode defaults to "weights": each tower layer's weights
  are split over the tensor-parallel ranks like the decoder's (ColumnParallelLinear, QKVParallelLinear,
  RowParallelLinear); "data" (--mm-encoder-tp-mode data: every rank holds the whole tower) is not modelled.
- Where vLLM builds a module with plain torch (nn.Linear, nn.Conv*, nn.Embedding, nn.Parameter, the norms) or a
  ReplicatedLinear, every rank holds it whole: "replicated".
- A whole model_type listed in tower_tables.WHOLE or tower_tables_more.MORE names, per role (its Whole's
  vision_prefix, projector_prefix, audio_prefix, or a module path: an encoder-decoder's encoder), the table of the
  vLLM class that builds it; a tower tensor under no listed role, or whose name the table does not hold, stays whole
  on every device and is listed (``FitPlan.unclassified``): never a guess.  Where vLLM's class builds one of the
  decoder's own tensors otherwise than sharding.py's rules say (Whisper's nn.Embedding table, its cross-attention),
  the WholeRules' ``decoder`` table says how (``decoder_rule``); a tensor vLLM has no module for and refuses to load
  is refused in one line (REFUSED); a class without SupportsPP refuses --pp (``no_pp``).
- Pipeline parallel: vLLM builds a tower (``_mark_tower_model``) on the first stage only under Model Runner V2,
  its default (vllm/model_executor/models/interfaces.py SupportsMultiModal._mark_tower_model;
  vllm/config/vllm.py VllmConfig.use_v2_model_runner): sharding.stage_of's stage 0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError, OptionError
from ..inventory import Tensor
from .tower_tables import ABSENT, ANY, COLUMN, GQA, KV, QKV, REFUSED, REPLICATED, ROW, WHOLE
from .tower_tables_more import MORE

RULES = {**WHOLE, **MORE}

TRUNCATED = "vision tower layers past {key} and its post_layernorm"  # (absent_label's label, its Truncated's key)
DROPPED = "vision tower last layer"  # (absent_label's label: a DropLast's)
_ROLES = ("vision", "projector", "audio")  # each read from the family's Whole: vision_prefix, ...
_HEADS = ("num_attention_heads", "num_heads", "encoder_attention_heads")  # a tower part's field for its heads
DECODER_OWN = frozenset({"embedding", "lm_head", "norm", "positions", "token_types"})  # the decoder's, not a tower's
_INDEX = re.compile(r"\.\d+(?=\.)")


class TowerRules:
    """The rule of each tensor outside a whole model's decoder layers (None: the decoder's own, sharding.py's)."""

    def __init__(self, arch: Any, unclassified: list[str]) -> None:
        self.arch = arch
        self.unclassified = unclassified
        self.spec = RULES.get(arch.model_type)
        made = vars(arch).get("_towers_from", (None,))[0]
        keywords = getattr(made, "keywords", {})
        self.config: Mapping[str, Any] = keywords.get("config") or {}
        whole = keywords.get("whole")
        self.tables: list[tuple[str, Mapping[str, str], str]] = []  # (prefix, table, vision_config model_type)
        self.keep: tuple[str, int] | None = None  # (the layers' path, how many vLLM builds)
        self.drop: tuple[str, int] | None = None  # (the layers' path, the index of its last layer, dropped)
        self.pp_unmodelled: list[str] = []  # prefixes listed, whole on stage 0, at pp > 1
        self.tp = self.pp = 1  # the plan's, set before its tensors are placed ("?" rules, pp_unmodelled)
        self.heads: dict[str, Any] = {}  # a tower's prefix -> its attention heads
        self.kv_heads: dict[str, Any] = {}  # -> its KV heads, where fewer (EXAONE 4.5's GroupedTower)
        self.depths: dict[str, Any] = {}  # -> its layers
        for part in arch.towers.parts:
            for tower in (part, *(getattr(part, key, None) for key in ("inner", "sizes", "tower", "vit"))):
                if isinstance(getattr(tower, "prefix", None), str):
                    self.heads[tower.prefix] = next((getattr(tower, key) for key in _HEADS if hasattr(tower, key)),
                                                    None)
                    self.kv_heads[tower.prefix] = getattr(part, "kv_heads", None) or getattr(
                        tower, "num_key_value_heads", None)
                    self.depths[tower.prefix] = getattr(tower, "num_hidden_layers", None)
        if self.spec is None:
            return
        family = keywords.get("family")  # an encoder-decoder's (its Seq2Seq's defaults)
        defaults = getattr(getattr(family, "seq2seq", None), "defaults", {})
        for prefix, keys, default in self.spec.heads:
            self.heads[prefix] = next((value for key in keys if (value := self._given(key)) is not None),
                                      defaults.get(keys[0], default))
        for role, table in self.spec.roles:
            if role in _ROLES and whole is None:
                continue
            prefix = getattr(whole, f"{role}_prefix") if role in _ROLES else role  # a role, or a module path
            kind = ""
            if role == "vision" and not isinstance(next(iter(table.values())), str):
                kind = self._vision_kind(whole)
                table = table.get(kind)
            if table is not None:
                self.tables.append((prefix, table, kind))
                if role in self.spec.pp_unmodelled:
                    self.pp_unmodelled.append(prefix)
        if self.spec.truncated is not None and whole is not None:
            self._truncate(whole)
        if self.spec.drop_last is not None and whole is not None:
            self._drop_last(whole)

    def _drop_last(self, whole: Any) -> None:
        drop = self.spec.drop_last
        value = self.config.get(drop.key, False)
        if not isinstance(value, bool):
            raise ArchitectureError(drop.key, f"must be true or false, got {value!r}"[:200])
        depth = self.depths.get(whole.vision_prefix)
        if value and isinstance(depth, int) and depth > 0:
            self.drop = (whole.vision_prefix + drop.layers, depth - 1)

    def _given(self, key: str) -> Any:
        """The whole config's ``key`` ("section.key" inside a sub-config), None where it gives none."""
        section, _, inner = key.rpartition(".")
        given = self.config.get(section) if section else self.config
        return given.get(inner) if isinstance(given, Mapping) else None

    def _vision_kind(self, whole: Any) -> str:
        given = self.config.get("vision_config") or {}
        return whole.vision_kind or given.get("model_type", whole.vision_config.get("model_type", ""))

    def _truncate(self, whole: Any) -> None:
        truncated = self.spec.truncated
        kind = self._vision_kind(whole)
        part = next((p for p in self.arch.towers.parts if getattr(p, "prefix", None) == whole.vision_prefix), None)
        depth = getattr(part, "num_hidden_layers", None)
        if kind not in truncated.layers or not isinstance(depth, int):
            return
        value = self.config.get(truncated.key, truncated.default)
        layers = value if isinstance(value, list) else [value]
        if not layers or not all(type(index) is int for index in layers):  # vLLM: TypeError, or max() of nothing
            raise ArchitectureError(truncated.key, f"must be a layer index or a list of them (vLLM's "
                                    f"_get_num_hidden_layers), got {value!r}"[:200])
        keep = max(index + depth + 1 if index < 0 else index + truncated.from_first  # vllm models/utils.py
                   for index in layers)
        if keep > depth:  # get_layer_index; more layers than the tower has: vLLM raises ValueError
            raise ArchitectureError(truncated.key, f"{value!r} needs {keep} layers of the {depth}-layer vision tower; "
                                    "vLLM refuses it ('The original encoder only has ... layers')"[:240])
        self.keep = (whole.vision_prefix + truncated.layers[kind], max(keep, 0))  # (a range of none: no layer)

    def decoder_rule(self, t: Tensor) -> tuple[str, int | None] | None:
        """The rule of a decoder's own tensor where the whole model's vLLM class builds it otherwise (a
        WholeRules' ``decoder`` table); None: sharding.py's usual rule."""
        if self.spec is None or not self.spec.decoder:
            return None
        name = t.name.removesuffix(".weight").removesuffix(".bias")
        word = self.spec.decoder.get(_INDEX.sub(".N", name))
        return None if word is None else self._word(t, word, "")

    def rule(self, t: Tensor) -> tuple[str, int | None] | None:
        if t.component in DECODER_OWN:
            return None
        if self.spec is not None:
            if t.name.startswith(self.spec.left_out):
                return (ABSENT, None)
            for prefix, table, kind in self.tables:
                if t.name.startswith(prefix):
                    return self._rule(t, prefix, table, kind)
        self.unclassified.append(t.name)
        return (REPLICATED, None)

    def _rule(self, t: Tensor, prefix: str, table: Mapping[str, str], kind: str) -> tuple[str, int | None]:
        if self.pp > 1 and prefix in self.pp_unmodelled:
            self.unclassified.append(t.name)
            return (REPLICATED, None)
        if self.keep is not None and kind:
            path, keep = self.keep
            if t.name.startswith(path):
                if int(t.name[len(path):].partition(".")[0]) >= keep:
                    return (ABSENT, None)
            elif t.name.startswith(prefix + "post_layernorm."):  # require_post_norm=False
                return (ABSENT, None)
        if self.drop is not None and t.name.startswith(self.drop[0]):
            if int(t.name[len(self.drop[0]):].partition(".")[0]) == self.drop[1]:
                return (ABSENT, None)
        name = t.name[len(prefix):]
        for suffix in (".weight", ".bias"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
                break
        key = _INDEX.sub(".N", name)
        word = table.get(key) or next((rule for pattern, rule in table.items()
                                       if pattern.endswith(".*") and key.startswith(pattern[:-1])), None)
        word = word or table.get(ANY)
        if word is None:
            self.unclassified.append(t.name)
            return (REPLICATED, None)
        return self._word(t, word, prefix)

    def _word(self, t: Tensor, word: str, prefix: str) -> tuple[str, int | None]:
        if word == REFUSED:
            raise ArchitectureError(*self.spec.refused)
        if word.endswith("?"):  # split only where tp divides the tower's heads (else vLLM's disable_tp)
            heads = self.heads.get(prefix)
            word = word[:-1] if isinstance(heads, int) and heads % self.tp == 0 else REPLICATED
        if word == ROW:
            return (REPLICATED, None) if t.name.endswith(".bias") else ("row", len(t.shape) - 1)
        if word == QKV:
            return (TOWER_QKV, 0)
        if word == GQA:  # QKVParallelLinear: heads // tp query heads, max(1, kv // tp) KV heads on each rank
            heads, kv_heads = self.heads.get(prefix), self.kv_heads.get(prefix)
            if not isinstance(heads, int) or not isinstance(kv_heads, int) or t.shape[0] % (heads + 2 * kv_heads):
                self.unclassified.append(t.name)
                return (REPLICATED, None)
            per_head = t.shape[0] // (heads + 2 * kv_heads)
            return (TOWER_ROWS, per_head * (heads // self.tp + 2 * max(1, kv_heads // self.tp)))
        if word == KV:  # a k or v of a QKVParallelLinear stored apart: max(1, kv // tp) KV heads on each rank
            kv_heads = self.kv_heads.get(prefix)
            if not isinstance(kv_heads, int) or t.shape[0] % kv_heads:
                self.unclassified.append(t.name)
                return (REPLICATED, None)
            return (TOWER_ROWS, t.shape[0] // kv_heads * max(1, kv_heads // self.tp))
        return (word, 0) if word == COLUMN else (word, None)

    def never_loaded(self, name: str) -> bool:
        """Whether ``name`` (a tensor's or a buffer's) is under a component vLLM never builds."""
        return self.spec is not None and bool(self.spec.left_out) and name.startswith(self.spec.left_out)

    def absent_label(self, name: str) -> str:
        """What a tensor vLLM does not load is part of, for the report."""
        if self.spec is not None and name.startswith(self.spec.left_out):
            return next(prefix for prefix in self.spec.left_out if name.startswith(prefix)).rstrip(".")
        if self.keep is not None and (name.startswith(self.keep[0]) or ".post_layernorm." in name):
            return TRUNCATED.format(key=self.spec.truncated.key)
        if self.drop is not None and name.startswith(self.drop[0]):
            return DROPPED
        return self.spec.absent[0] if self.spec is not None else ""  # a table's "absent" entry

    def left_out_source(self, label: str) -> str:
        if self.spec is not None and label in {p.rstrip(".") for p in self.spec.left_out}:
            return self.spec.left_out_source
        if self.spec is not None and self.spec.truncated is not None and label == TRUNCATED.format(
                key=self.spec.truncated.key):
            return f"vllm/model_executor/{self.spec.truncated.source}"
        if label == DROPPED and self.spec is not None and self.spec.drop_last is not None:
            return self.spec.drop_last.source
        return self.spec.absent[1] if self.spec is not None else ""

    def check(self, tp: int, pp: int = 1) -> None:
        """vLLM's QKVParallelLinear refuses tower heads that tp does not divide (linear.py: divide()); a class
        without SupportsPP refuses pipeline stages."""
        if pp > 1 and self.spec is not None and self.spec.no_pp:
            raise OptionError("--pp", f"{pp} stages: vLLM refuses them for {self.arch.model_type} ({self.spec.no_pp})")
        for prefix, table, _ in self.tables:
            heads = self.heads.get(prefix)
            kv_heads = self.kv_heads.get(prefix)
            if tp > 1 and isinstance(kv_heads, int) and {GQA, KV} & set(table.values()) and (
                    tp % kv_heads if tp >= kv_heads else kv_heads % tp):
                raise OptionError("--tp", f"{tp} and the {kv_heads} KV heads of the tower at {prefix.rstrip('.')}: "
                                          "one must divide the other; vLLM refuses it (linear.py QKVParallelLinear: "
                                          "divide())")
            # ("qkv?" falls back to the whole tower instead)
            if tp > 1 and ({QKV, GQA, KV} & set(table.values())) and isinstance(heads, int) and heads % tp:
                raise OptionError("--tp", f"{tp} does not divide the {heads} attention heads of the tower at "
                                          f"{prefix.rstrip('.')}; vLLM refuses it (linear.py QKVParallelLinear: "
                                          "divide(); --mm-encoder-tp-mode data is not modelled)")


TOWER_QKV = "tower_qkv"  # a tower's fused q, k, v: rows split by tp (its heads checked by TowerRules.check)
TOWER_ROWS = "tower_rows"  # (TOWER_ROWS, the rows each rank holds): a grouped tower qkv, worked out at the plan's tp


def tower_rules(arch: Any, unclassified: list[str]) -> TowerRules | None:
    """The tower rules of a whole multimodal ``arch``; None for a decoder alone (--text-only)."""
    if arch is None or not getattr(arch, "towers", None):
        return None
    return TowerRules(arch, unclassified)
