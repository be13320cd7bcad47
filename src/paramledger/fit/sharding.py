"""How vLLM places each tensor on tp × pp devices, read from vLLM 0.33.0's source (commit 4ba787ec9).

- Tensor parallelism (vllm/model_executor/layers/linear.py): a column-parallel linear (ColumnParallelLinear,
  MergedColumnParallelLinear: q, gate, up, MLA's q_b and kv_b, a recurrent mixer's input projections) splits its
  output rows, and its bias, by tp; a row-parallel linear (RowParallelLinear: o, down, out_proj) splits its input
  columns and keeps its whole bias on every device; each split is ``divide()`` (vllm/distributed/utils.py), which
  refuses a remainder.  QKVParallelLinear.__init__ splits the query heads by tp and, when tp >= the KV heads,
  holds one KV head per device (``num_kv_head_replicas = divide(tp, num_kv_heads)``), else
  ``divide(num_kv_heads, tp)``.  ModelConfig.verify_with_parallel_config (vllm/config/model.py) refuses query
  heads that tp does not divide.
- Replicated (ReplicatedLinear, norms): the router (GateLinear), MLA's q_a/kv_a projections
  (DeepSeekV2FusedQkvAProjLinear is disable_tp; kv_a_proj_with_mqa a ReplicatedLinear, models/deepseek_v2.py),
  DeepSeek-V3.2's indexer, every norm, GPT-2's learned position table (nn.Embedding in models/gpt2.py), and any
  tensor we have no rule for (listed apart: ``Placement.unclassified``).
- The token table and the head (vllm/model_executor/layers/vocab_parallel_embedding.py): VocabParallelEmbedding
  and ParallelLMHead pad the rows with pad_vocab_size to a multiple of DEFAULT_VOCAB_PADDING_SIZE (64), then
  ``divide(num_embeddings_padded, tp)`` rows per device.
- Experts (vllm/model_executor/layers/fused_moe/): without expert parallelism every device holds every expert
  with its intermediate width split by tp (FusedMoEParallelConfig.intermediate_size_per_partition); with it
  (``--enable-expert-parallel``, FusedMoEParallelConfig.make: ep_size = tp_size, and each expert's weights whole),
  expert_map_manager.determine_expert_map gives each device ``num_experts // ep`` experts, the first
  ``num_experts % ep`` devices one more.  Attention and dense layers stay tensor parallel.
- Recurrent mixers: mamba_mixer2.py and qwen3_next.py split in_proj, conv1d, A, D, dt_bias and the gated norm by
  tp (heads), out_proj row-parallel.  Mamba-2's B and C groups are replicated when tp does not divide
  n_groups (extra_groups_for_head_shards): not modelled, the per-device in_proj is then slightly low.
- A whole multimodal model's towers and projectors (towers.py, tower_tables.py): split as each vLLM tower class
  splits them under mm_encoder_tp_mode "weights" (a tower's fused qkv by its own heads), whole where vLLM builds
  plain torch modules, left out where it loads nothing (Qwen2.5-Omni's talker), listed where no table says.
- Pipeline stages: get_pp_indices (vllm/distributed/utils.py) as vLLM splits layers (PipelineStages below); the
  first stage holds the token table, the last the final norm and the head, and with tied embeddings the last
  stage holds its own copy of the table for the head (models/llama.py: ``embed_tokens`` on the first rank "or
  (config.tie_word_embeddings and get_pp_group().is_last_rank)").
"""

from __future__ import annotations

import re

from dataclasses import dataclass

from .._exceptions import OptionError
from ..architecture import Architecture
from ..inventory import Inventory, Tensor
from ..naming import Naming
from .towers import TOWER_QKV, TOWER_ROWS, tower_rules

VOCAB_PADDING = 64  # vllm/model_executor/layers/vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE


def pad_vocab_size(vocab_size: int, pad_to: int = VOCAB_PADDING) -> int:
    """vLLM's pad_vocab_size: rows rounded up to a multiple of ``pad_to``."""
    return -(-vocab_size // pad_to) * pad_to


@dataclass(frozen=True)
class Parallel:
    tp: int = 1
    pp: int = 1
    expert_parallel: bool = False  # vLLM's --enable-expert-parallel: ep = tp
    layer_partition: tuple[int, ...] | None = None  # VLLM_PP_LAYER_PARTITION, layers per stage

    @property
    def ep(self) -> int:
        return self.tp if self.expert_parallel else 1

    @property
    def devices(self) -> int:
        return self.tp * self.pp


def pipeline_stages(layers: int, pp: int, partition: tuple[int, ...] | None = None) -> list[tuple[int, int]]:
    """(start, end) layers of each stage, as vllm/distributed/utils.py get_pp_indices: ``layers // pp`` each, the
    remainder one more each on the stages before the last, counted back from the one before the last (the first
    and last stages hold the embedding and the head); or VLLM_PP_LAYER_PARTITION's counts."""
    if partition is not None:
        if len(partition) != pp:
            raise OptionError("--pp-layer-partition", f"{len(partition)} stages given for --pp {pp} "
                                                      "(vLLM: len(partitions) does not match pp_size)")
        if sum(partition) != layers:
            raise OptionError("--pp-layer-partition", f"the stages hold {sum(partition)} layers, the model "
                                                      f"{layers} (vLLM: sum(partitions) does not match)")
        counts = list(partition)
    else:
        counts = [layers // pp] * pp
        for i in range(2, layers % pp + 2):
            counts[-i] += 1
    stages, start = [], 0
    for count in counts:
        stages.append((start, start + count))
        start += count
    return stages


def _layer_heads(arch: Architecture) -> list[tuple[int, int]]:
    """Each distinct (query heads, KV heads) over the layers."""
    heads = arch.num_attention_heads_per_layer or [arch.num_attention_heads]
    kv = arch.num_key_value_heads_per_layer or [arch.kv_heads]
    pairs = {(h, k or h) for h in heads for k in kv}
    if arch.sliding_num_key_value_heads:
        pairs |= {(h, arch.sliding_num_key_value_heads) for h in heads}
    return sorted(pairs)


def check_parallel(arch: Architecture, parallel: Parallel) -> None:
    """Refuse what vLLM refuses, each with where vLLM refuses it."""
    for option, value in (("--tp", parallel.tp), ("--pp", parallel.pp)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(option, f"must be a whole number of at least 1, got {value!r}")
    tp = parallel.tp
    from ..kvcache import kv_values_per_token

    attention = arch.is_mla or kv_values_per_token(arch) > 0  # a Mamba has no heads for vLLM to check
    for heads, kv_heads in _layer_heads(arch) if attention else ():
        if heads % tp:
            raise OptionError("--tp", f"{tp} does not divide num_attention_heads {heads}; vLLM refuses it "
                                      "(vllm/config/model.py ModelConfig.verify_with_parallel_config)")
        if not arch.is_mla and (tp % kv_heads if tp >= kv_heads else kv_heads % tp):
            raise OptionError("--tp", f"{tp} and num_key_value_heads {kv_heads}: one must divide the other; vLLM "
                                      "refuses it (linear.py QKVParallelLinear: divide())")
    if parallel.pp > arch.num_hidden_layers:
        raise OptionError("--pp", f"{parallel.pp} stages for {arch.num_hidden_layers} layers leaves a stage empty")
    if parallel.expert_parallel and not arch.is_moe:
        raise OptionError("--ep", "the model has no experts to split")
    if (towers := tower_rules(arch, [])) is not None:
        towers.check(tp, parallel.pp)
    padded = pad_vocab_size(arch.vocab_size)
    if padded % tp:
        raise OptionError("--tp", f"{tp} does not divide the padded vocabulary {padded:,} (vocab_size "
                                  f"{arch.vocab_size:,} padded to a multiple of {VOCAB_PADDING}); vLLM refuses it "
                                  "(vocab_parallel_embedding.py VocabParallelEmbedding: divide())")


# --------------------------------------------------------------------------- tensor rules
# A rule: (kind, dim).  kind: "column" / "row" (split dim by tp), "q" (split by tp), "kv" (rows × KV heads per
# device / KV heads), "qkv" (a fused q, k, v), "vocab" (padded, split dim 0), "experts", "replicated".
REPLICATED = ("replicated", None)

_FIELD_RULES = {
    "q": "q", "k": "kv", "v": "kv", "kv": "kv", "qkv": "qkv", "o": "row", "q_b": "column", "kv_b": "column",
    "q_a": "replicated", "kv_a": "replicated", "gate": "column", "up": "column", "gate_up": "column", "down": "row",
    "router": "replicated", "attn_gate": "column", "sinks": "heads", "o_bias": "replicated",
    "linear_qkv": "column", "linear_z": "column", "linear_b": "column", "linear_a": "column",
    "linear_qkvz": "column", "linear_ba": "column", "linear_conv": "column", "linear_dt_bias": "heads",
    "linear_a_log": "heads", "linear_out": "row", "shared_expert_gate_up": "column", "shared_expert_down": "row",
    "shared_expert_gate": "replicated",
    # Gemma 3n / Gemma 4 per-layer inputs: ReplicatedLinear (models/gemma4.py:682, 691; gemma3n.py:493, 501)
    "per_layer_input_gate": "replicated", "per_layer_projection": "replicated",
    "laurel_left": "column", "laurel_right": "row",  # Gemma 3n's laurel block (gemma3n.py:201, 209)
}
# the same models' per-layer table and its projection outside the layers: a VocabParallelEmbedding (gemma4.py:1023,
# gemma3n.py:619; padded and split as the token table) and a ColumnParallelLinear (gemma4.py:1039, gemma3n.py:633;
# gather_output=True: its weight still split)
_TOP_RULES = {"embed_per_layer": ("vocab", 0), "per_layer_model_projection": ("column", 0)}
_INNER_RULES = {  # names inside a shared expert, a Mamba mixer or a short conv
    "gate_proj": "column", "up_proj": "column", "down_proj": "row", "in_proj": "column", "conv1d": "column",
    "conv": "column", "x_proj": "row", "dt_proj": "column", "A_log": "heads", "D": "heads", "dt_bias": "heads",
    "norm": "heads", "out_proj": "row",
}


class Rules:
    """The rule of each tensor of an inventory, from its family's naming."""

    def __init__(self, inv: Inventory, naming: Naming) -> None:
        self.arch = inv.architecture
        self.naming = naming
        self.paths = {getattr(naming, field): rule for field, rule in _FIELD_RULES.items()
                      if isinstance(getattr(naming, field), str)}
        self.inner = [prefix + "." for prefix in (naming.shared_expert, naming.mamba, naming.short_conv)]
        self.top = {getattr(naming, field) + ".weight": rule for field, rule in _TOP_RULES.items()
                    if isinstance(getattr(naming, field), str)}
        self.unclassified: list[str] = []
        self.towers = tower_rules(self.arch, self.unclassified)  # a whole multimodal model's (towers.py)

    def module(self, t: Tensor) -> str:
        name = t.name
        if t.layer is not None:
            name = name.removeprefix(self.naming.layer.format(i=t.layer) + ".")
        for suffix in (".weight", ".bias"):
            if name.endswith(suffix):
                return name[: -len(suffix)]
        return name

    def rule(self, t: Tensor) -> tuple[str, int | None]:
        if self.towers is not None and (own := self.towers.decoder_rule(t)) is not None:
            return own  # the decoder's own, where the whole model's vLLM class builds it otherwise (Whisper's)
        if t.layer is None and (t.component == "lm_head" or t.name in (self.naming.embed + ".weight",
                                                                       self.naming.lm_head + ".weight")):
            return ("vocab", 0)
        if t.layer is None and t.name in self.top:
            return self.top[t.name]
        if t.layer is None and self.towers is not None and (outside := self.towers.rule(t)) is not None:
            return outside
        if t.component == "norm" and self.module(t) == self.naming.mamba + ".norm":
            return ("column", 0)  # Mamba-2's gated norm over the heads: split (mamba_mixer2.py Mixer2RMSNormGated)
        if t.component in ("norm", "positions", "router"):
            return REPLICATED
        if t.experts:
            return self._expert(t)
        module = self.module(t)
        kind = self.paths.get(module)
        if kind is None:
            for prefix in self.inner:
                if module.startswith(prefix):
                    kind = _INNER_RULES.get(module[len(prefix):])
                    break
        if kind is None or t.layer is None:
            if t.layer is not None:
                self.unclassified.append(t.name)
            return REPLICATED
        bias = t.name.endswith(".bias")
        conv1d = self.naming.conv1d and len(t.shape) == 2  # GPT-2's Conv1D: (in, out)
        if kind == "row":
            return REPLICATED if bias else ("row", 0 if conv1d else len(t.shape) - 1)
        if kind == "heads":
            return ("column", 0)
        if kind == "replicated":
            return REPLICATED
        return (kind, 1 if conv1d else 0)

    def _expert(self, t: Tensor) -> tuple[str, int | None]:
        """Without EP the intermediate width is split: the one of the last two dims that is not hidden_size."""
        if self.naming.experts_flat:
            return ("experts", 0)
        if self.naming.experts_each is not None:  # one expert's own Linear: split as a dense one's width is
            up = self.module(t).rpartition(".")[2] == self.naming.experts_each[0].rpartition(".")[2]
            return (EXPERT_OWN, 0 if up else None if t.name.endswith(".bias") else 1)
        hidden = self.arch.hidden_size
        dims = [d for d in range(1, len(t.shape)) if t.shape[d] != hidden]
        if len(t.shape) == 2:  # a per-expert bias: (experts, 2 × intermediate) split, (experts, hidden) whole
            return ("experts", dims[0] if dims else None)
        if len(dims) == 1:
            return ("experts", dims[0])
        down = self.module(t) == self.naming.experts_down
        layout_in_out = self.naming.experts_in_out
        return ("experts", (1 if layout_in_out else 2) if down else (2 if layout_in_out else 1))


EXPERT_OWN = "expert_own"  # a tensor of one expert's own module (parts/experts.py experts_each)
# its expert's index: the nn.ModuleDict key SwitchTransformersExperts and NllbMoeExperts give it, f"expert_{idx}"
_EXPERT_KEY = re.compile(r"\.expert_(\d+)\.")


def _divide(size: int, parts: int, what: str) -> int:
    if size % parts:
        raise OptionError("--tp", f"{parts} does not divide {what} ({size:,}); vLLM refuses it "
                                  "(vllm/distributed/utils.py divide())")
    return size // parts


def shard_shape(t: Tensor, rule: tuple[str, int | None], arch: Architecture, parallel: Parallel,
                rank: int) -> tuple[int, ...]:
    """The shape of ``t`` on tensor-parallel rank ``rank``."""
    kind, dim = rule
    tp, shape = parallel.tp, list(t.shape)
    if kind == "replicated" or (kind != "experts" and tp == 1 and kind != "vocab"):
        return t.shape
    if kind == "vocab":
        shape[0] = _divide(pad_vocab_size(shape[0]), tp, f"the padded rows of {t.name}")
    elif kind == TOWER_ROWS:  # a grouped tower qkv: towers.py worked out its rows at this tp
        shape[0] = dim
    elif kind in ("column", "row", "q", TOWER_QKV):
        shape[dim] = _divide(shape[dim], tp, f"dim {dim} of {t.name} {t.shape}")
    elif kind == "kv":
        kv_heads = _kv_heads_of(arch, t)
        shape[dim] = shape[dim] * max(1, kv_heads // tp) // kv_heads
    elif kind == "qkv":
        heads, kv_heads = arch.num_attention_heads, _kv_heads_of(arch, t)
        per_head = shape[dim] // (heads + 2 * kv_heads)  # (q + k + v) heads × head_dim rows
        shape[dim] = per_head * (heads // tp + 2 * max(1, kv_heads // tp))
    elif kind == EXPERT_OWN and parallel.expert_parallel:  # held whole by the rank its expert is on, else not
        experts, ep = t.experts, parallel.ep
        base, extra = divmod(experts, ep)
        first = rank * base + min(rank, extra)  # (each rank's experts a contiguous run, as the stacked case counts)
        index = int(_EXPERT_KEY.search(t.name).group(1))
        if not first <= index < first + base + (rank < extra):
            shape[0] = 0
    elif kind == EXPERT_OWN and dim is not None:
        shape[dim] = _divide(shape[dim], tp, f"the expert width of {t.name} {t.shape}")
    elif kind == "experts":
        if parallel.expert_parallel:
            experts = t.experts
            local = experts // parallel.ep + (rank < experts % parallel.ep)
            shape[0] = shape[0] * local // experts
        elif dim is not None:
            shape[dim] = _divide(shape[dim], tp, f"the expert width of {t.name} {t.shape}")
    return tuple(shape)


def _kv_heads_of(arch: Architecture, t: Tensor) -> int:
    if arch.num_key_value_heads_per_layer and t.layer is not None:
        return arch.num_key_value_heads_per_layer[t.layer] or arch.kv_heads
    return arch.kv_heads


def stage_of(t: Tensor, naming: Naming, stages: list[tuple[int, int]]) -> tuple[int, ...]:
    """The pipeline stages holding ``t``: its layer's; the head and final norm on the last; the rest first."""
    last = len(stages) - 1
    if t.layer is not None:
        return tuple(i for i, (start, end) in enumerate(stages) if start <= t.layer < end)
    if t.component == "lm_head" or t.name.startswith(naming.final_norm + "."):
        return (last,)
    return (0,)
