"""Values from TOML, JSON or a ``--set KEY=VALUE`` string turned into an Architecture field's type,
and the whole-number checks every size goes through."""

from __future__ import annotations

from fractions import Fraction
from itertools import chain, repeat
from typing import Any

from .._exceptions import ArchitectureError

NORM_TYPES = ("rmsnorm", "layernorm", "layernorm_nobias", "nonparametric")
"""rmsnorm: a learned scale (d); layernorm: scale and offset (2d); layernorm_nobias: scale
only (d); nonparametric: normalizes with no learned entries (OLMo's LayerNorm)."""

NORM_PLACEMENTS = ("pre", "post", "sandwich", "parallel", "parallel_split", "none")
"""pre: a norm before attention and before the FFN (2 per block); post: after each
sublayer (2); sandwich: before and after each (4, Gemma 2/3); parallel: one norm shared by
parallel attention and FFN branches (1, GPT-J, Phi-2); parallel_split: one norm for each of
the parallel branches (2, Falcon-40B's ln_attn and ln_mlp); none: no norms inside blocks."""

QK_NORMS = ("none", "head", "full", "per_head", "per_head_layernorm")
"""head: one scale vector of head_dim shared by all heads (Qwen3, Gemma 3); full: one over
all query (and key) channels (OLMo 2); per_head: one of head_dim for each head, (heads,
head_dim) on q and (kv_heads, head_dim) on k (Cohere's use_qk_norm, StableLM's qk_layernorm);
per_head_layernorm: per_head's shapes as LayerNorms with their bias whatever the block's norms are
(Chameleon's nn.LayerNorm((heads, head_dim)) beside RMSNorm blocks)."""

ATTENTION_OUTPUT_GATES = ("none", "per_channel", "per_head")
"""A gate on the attention output, projected from the block's input: per_channel, one value for
each of heads × head_dim channels (AFMoE's gate_proj); per_head, one for each head (Laguna's g_proj)."""

POSITION_TYPES = ("rope", "learned", "alibi", "sinusoidal", "none")
"""Only a learned table (max_position_embeddings × hidden_size) holds parameters."""

_BOOL_WORDS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def whole(value: Any, key: str, where: str | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise ArchitectureError(key, f"must be a whole number, got {value!r}", where)
    return value


def positive(value: Any, key: str, where: str | None, *, allow_zero: bool = False) -> int:
    if type(value) is int and value > 0:  # the common case, without a call
        return value
    value = whole(value, key, where)
    if value < 0 or (value == 0 and not allow_zero):
        bound = "zero or more" if allow_zero else "positive"
        raise ArchitectureError(key, f"must be {bound}, got {value}", where)
    return value


def coerce(key: str, value: Any, where: str | None, ready: type | None, kind: str) -> Any:
    """Turn a value from TOML, JSON or a ``--set KEY=VALUE`` string into the field's type."""
    if type(value) is ready:  # exact type: a bool is no int here
        return value
    if value is None:
        if "None" in kind:
            return None
        raise ArchitectureError(key, "may not be null", where)
    if kind.startswith("bool"):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _BOOL_WORDS:
            return _BOOL_WORDS[value.lower()]
        raise ArchitectureError(key, f"must be true or false, got {value!r}", where)
    if kind.startswith("int"):
        if isinstance(value, str):
            if value.lower() in ("none", "null") and "None" in kind:
                return None
            try:
                if not value.isascii():  # int() would read "٣" as 3
                    raise ValueError
                value = int(value.replace("_", ""))
            except ValueError:
                raise ArchitectureError(key, f"must be a whole number, got {value!r}", where) from None
        return whole(value, key, where)
    if kind.startswith("Fraction"):
        try:
            return Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            raise ArchitectureError(key, f"must be a number or a fraction like 8/3, got {value!r}", where) from None
    if kind.startswith("float"):  # a share transformers multiplies in floating point (partial_rotary_factor)
        try:
            number = float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else None
        except ValueError:
            number = None
        if number is None or not 0 < number <= 1:
            raise ArchitectureError(key, f"must be a number above 0 and at most 1, got {value!r}", where)
        return number
    if kind.startswith("tuple[int"):
        if type(value) in (tuple, list) and {*map(type, value)} <= {int} and min(value, default=0) >= 0:
            return tuple(value)  # whole numbers already (a rule's per-layer list): no call per entry
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)):
            raise ArchitectureError(key, f"must be a list of layer indices, got {value!r}", where)
        return tuple(coerce_int_item(key, item, where) for item in items if str(item).strip() != "")
    if kind.startswith("tuple[str"):
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(map(isinstance, items, repeat(str))):
            raise ArchitectureError(key, f"must be a list of strings, got {value!r}", where)
        return tuple(filter(None, map(str.strip, items)))  # blanks dropped
    if not isinstance(value, str):
        raise ArchitectureError(key, f"must be a string, got {value!r}", where)
    return value


def coerce_int_item(key: str, item: Any, where: str | None) -> int:
    if isinstance(item, str):
        try:
            item = int(item)
        except ValueError:
            raise ArchitectureError(key, f"must be a list of whole numbers, got {item!r}", where) from None
    return positive(item, key, where, allow_zero=True)


def repeat_patterns(arch: Any, layers: int, changes: Any) -> dict[str, Any]:
    """The per-layer patterns of ``arch`` (those ``changes`` does not set) at a new depth of ``layers``.

    The per-layer pattern (count-neutral, for the KV cache) follows the new depth by repeating, as
    Gemma's and Mistral's configs generate it; per-layer attention shapes repeat alongside it, so each
    layer keeps its attention type's shape (Gemma 4), and so do the lists that place the mixers and
    sublayers of a family's config (Jamba's one attention layer in eight; Nemotron-H's layers without an
    FFN).  Its dense layers of an MoE design repeat too (Jamba's expert period), unless they are the first
    k layers, which stay the first k (DeepSeek's first_k_dense_replace).  Layer i holds what layer i mod the
    patterns' smallest period held (RecurrentGemma's three-layer block_types at 28 layers, from 26: as its
    config cycles them), after the few first layers that hold no period (LFM3's layer 0, a short conv where
    its period of four would put a sliding-attention layer), or i mod the old depth where they hold no period
    twice.  A design of our own keeps the lists it declares, its new layers plain ones."""
    if layers <= 0:
        return {}
    reread = config_at_depth(arch, layers)
    if reread is not None:  # the config it was read from, at the new depth: what transformers builds from it
        mine, names = arch.__dict__, frozenset(type(arch).field_names())
        return {key: value for key, value in reread.__dict__.items()
                if key in names and key not in changes and mine[key] != value}
    depth = arch.num_hidden_layers
    shapes = [key for key in ("layer_types", "head_dim_per_layer", "num_key_value_heads_per_layer")
              if getattr(arch, key) and key not in changes]
    lists = [key for key in (repeating_lists(arch) if arch.model_type != "paramledger" else ())  # a design's stay
             if getattr(arch, key) and key not in changes]
    lead, period = _period(arch, depth, shapes, lists)
    out = {}
    for key in shapes:
        held = getattr(arch, key)
        cycle = min(period, len(held) - lead) if len(held) > lead else len(held)
        start = lead if len(held) > lead else 0
        out[key] = tuple(held[i] if i < start else held[start + (i - start) % cycle] for i in range(layers))
    for key in lists:  # the lead's own, then each listed offset's layers of every period (in C: ranges, one sort)
        held = getattr(arch, key)
        out[key] = tuple(sorted(chain((i for i in held if i < min(lead, layers)),
                                      chain.from_iterable(range(i, layers, period) for i in held
                                                          if lead <= i < lead + period))))
    return out


_MAX_LEAD = 8
"""The most first layers a pattern may hold before it repeats (LFM3's one; DeepSeek's dense first k are apart)."""


def _period(arch: Any, depth: int, shapes: list[str], lists: list[str]) -> tuple[int, int]:
    """The fewest first layers (at most _MAX_LEAD) after which every layer's place in ``shapes`` and ``lists``
    repeats, and that repeat's smallest period (_layers.smallest_period); (0, the depth) where none holds twice."""
    from .._layers import smallest_period

    if not shapes and not lists:
        return 0, depth
    columns: list[Any] = []
    for key in lists:
        member = bytearray(depth)
        for i in getattr(arch, key):
            if i < depth:
                member[i] = 1
        columns.append(member)
    columns += [getattr(arch, key) for key in shapes if len(getattr(arch, key)) == depth]
    keys = list(zip(*columns))
    for lead in range(min(_MAX_LEAD, depth) + 1):
        period = smallest_period(keys[lead:])
        if period is not None:
            return lead, period
    return 0, depth


def config_at_depth(arch: Any, layers: int) -> Any:
    """``arch``'s own config.json read again with its depth key at ``layers`` (its family's rules then place the
    layers as its config class does: LFM3's, Zamba's, Gemma 4's patterns come from a rule, not a period), or None
    where ``arch`` came from no config, the config lists its layers itself (it is refused at another depth), or
    transformers would keep its depth (Nemotron-H's hybrid_override_pattern sets it): then the patterns repeat."""
    held = arch.__dict__.get("_config")
    if held is None:
        return None
    from .. import families
    from .._exceptions import ParamledgerError
    from ..hf_config import architecture_from_config

    config, where = held
    family = families.get(str(config.get("model_type")))
    text = config.get("text_config") if family is not None and family.text_config else None
    if text is None and family is not None and family.whole is not None and not family.whole.text_at_top:
        text = {}  # no text_config: the class's default decoder, at the new depth as one that gives its keys
    if isinstance(text, dict):
        family = families.get(str(text.get("model_type", ""))) or (
            families.get(family.whole.text_model_type) if family.whole is not None else None)
    if family is None or family.text_config and text is None:
        return None
    inner = text if text is not None else config
    keys = [key for key, name in family.keys.items() if name == "num_hidden_layers"]
    deeper = {**inner, **{key: layers for key in ([key for key in keys if key in inner] or keys[:1])}}
    if text is not None:
        deeper = {**config, "text_config": deeper}
    try:
        reread = architecture_from_config(deeper, where)
    except ParamledgerError:
        return None
    return reread if reread.num_hidden_layers == layers else None


def repeating_lists(arch: Any) -> list[str]:
    """The per-layer index lists of ``arch`` that repeat with a new depth: the lists placing each mixer kind
    and the sublayers, and the dense layers of an MoE design unless they are its first k layers."""
    from ..parts import MIXERS

    lists = [key for kind in MIXERS for key in (kind.layers_key, *kind.lists)] + ["layers_without_mixer",
                                                                                  "layers_without_ffn"]
    dense = arch.mlp_only_layers
    if dense and dense != tuple(range(len(dense))):  # not the first k layers: a period
        lists.append("mlp_only_layers")
    return lists

