"""The declared architecture: one frozen, validated description of a decoder-only transformer.

Field names are Hugging Face config keys wherever one exists (vocab_size, hidden_size, num_hidden_layers,
...), so a config.json and a spec file read the same.  Where Hugging Face has no single key for an axis
(norm placement, a gated FFN), the field is named for what it holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import field
from fractions import Fraction
from operator import itemgetter
from typing import Any

from ._exceptions import ArchitectureError, UnknownKeyError, did_you_mean
from ._record import record
from .parts import MIXERS
from .parts.sublayers import DECLARED, KIND_KEYS, NONE_ENGAGED
from .design.values import (  # noqa: F401 (the enumerations are re-exported)
    ATTENTION_OUTPUT_GATES, NORM_PLACEMENTS, NORM_TYPES, POSITION_TYPES, QK_NORMS,
)
from .design.sizes import check_sizes
from .design.values import coerce, repeat_patterns, whole as _whole
from .design.checks import check_structure
from .design.encoder_keys import EncoderKeys

DESIGN_MODEL_TYPE = "paramledger"
"""The model_type of a design of our own (a spec file, a mapping of fields): no Hugging Face family."""

@record(extra=(*(kind.keys for kind in DECLARED), EncoderKeys))
class Architecture:
    """A decoder-only transformer, as declared.  Build one with :meth:`from_mapping`
    (validating) or with :func:`paramledger.load`.

    :meth:`from_mapping` fills the instance dict in one step, the defaults first and the given values
    over them, as ``_record.record``'s __init__ does (every instance holds every field in one order,
    which keeps attribute reads on their fast path)."""

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int | None = None  # None: = num_attention_heads (MHA)
    num_attention_heads_per_layer: tuple[int, ...] = ()  # query heads of each layer (Laguna); (): num_attention_heads
    head_dim: int | None = None  # None: hidden_size // num_attention_heads, which must divide
    intermediate_size: int | None = None  # None: 4 × hidden_size, or from intermediate_ratio
    # A coupled FFN width: intermediate_size = ratio × hidden_size rounded up to a multiple
    # of intermediate_multiple_of, so changing the width moves the FFN (seed 000's m = 4d).
    intermediate_ratio: Fraction | None = None
    intermediate_multiple_of: int = 1
    intermediate_size_per_layer: tuple[int, ...] = ()  # FFN width of each layer (Gemma 3n); (): ffn_size
    mlp_gated: bool = False  # three matrices (gate, up, down: SwiGLU/GeGLU) instead of two
    # Informational, except "xielu": a learned activation holding alpha_p and alpha_n (one each)
    # in every FFN (Apertus; transformers' XIELUActivation wherever hidden_act names it).
    hidden_act: str = "gelu"
    attention_bias: bool = False  # biases on q, k and v
    attention_output_bias: bool = False  # bias on the attention output projection
    # Only these layers' output projection has a bias (GPT-NeoX-Japanese: the last one).
    attention_output_bias_layers: tuple[int, ...] = ()
    mlp_bias: bool = False  # biases on the FFN (and expert) matrices
    lm_head_bias: bool = False
    norm_type: str = "rmsnorm"
    norm_placement: str = "pre"
    qk_norm: str = "none"
    qk_norm_bias: bool = True  # False: q/k LayerNorms without the offset the block norms carry (StableLM)
    # Norms inside the sublayers (BitNet): on the attention output before o_proj (heads × head_dim)
    # and on the FFN's inner activations before down_proj (intermediate_size).
    attn_sub_norm: bool = False
    ffn_sub_norm: bool = False
    final_norm: bool = True
    position_embedding_type: str = "rope"
    max_position_embeddings: int = 2048  # rows of a learned position table; 0 parameters otherwise
    position_offset: int | None = None  # rows past those a config sets (FSMT's pad_token_id + 1); None: the naming's
    layernorm_embedding: bool = True  # False: no norm on the embeddings where the family names one (TrOCR's key)
    # The share of head_dim RoPE rotates (on sliding layers, where it differs: Laguna): sizes its buffers.
    partial_rotary_factor: float = 1.0
    sliding_partial_rotary_factor: float | None = None
    rope_type: str = "default"  # sizes a learned tensor as long as inv_freq (Mistral Large 4's rotary alpha) only
    tie_word_embeddings: bool = True
    output_vocab_size: int | None = None  # LM-head rows when the head is pruned below vocab_size (Apertus 1.5)
    # Mixture of experts (num_experts = 0: dense).
    num_experts: int = 0
    num_experts_per_tok: int = 0
    moe_intermediate_size: int | None = None  # None: = intermediate_size
    n_shared_experts: int = 0
    shared_expert_intermediate_size: int | None = None  # None: n_shared_experts × moe_intermediate_size
    shared_expert_gate: bool = False  # a (1, hidden) sigmoid gate on the shared expert (Qwen2-MoE)
    router_bias: bool = False
    experts_output_bias: bool = False  # one (hidden,) bias added to each MoE block's output (JetMoE's mlp.bias)
    # Mixture of attention heads (JetMoE): query and output projections are num_experts routed experts,
    # num_key_value_heads × head_dim wide, num_experts_per_tok of them per token (so num_attention_heads =
    # num_experts_per_tok × num_key_value_heads); keys and values are shared, and the block's output
    # carries a (hidden,) bias.
    attention_experts: bool = False
    # A learned per-expert offset on the routing scores (ERNIE 4.5's and Laguna's e_score_correction_bias,
    # AFMoE's expert_bias: Parameters; DeepSeek-V3's is a buffer and holds no parameters).
    router_correction_bias: bool = False
    use_expert_bias: bool = True  # the router's score correction buffer, where the family has one (LFM2-MoE)
    moe_latent_size: int | None = None  # the routed experts' width in and out (Nemotron-H); None: hidden_size
    moe_hidden_size: int | None = None  # Muse Spark: the experts' latent, with its own projections and norms
    # ERNIE 4.5 VL: a second set of routed experts this wide, for image and video tokens (parts/modality_experts.py)
    vision_moe_intermediate_size: int | None = None
    moe_output_norm: bool = False  # a norm on each MoE block's output, MoE layers only (A.X-K1's post_mlp_layernorm)
    mlp_only_layers: tuple[int, ...] = ()  # dense layers in an MoE model (DeepSeek's first_k_dense_replace)
    # Multi-head latent attention (DeepSeek V2/V3): kv_lora_rank set turns it on.
    q_lora_rank: int | None = None  # None: a full-rank query projection
    kv_lora_rank: int | None = None
    qk_nope_head_dim: int | None = None
    qk_rope_head_dim: int | None = None
    v_head_dim: int | None = None  # also without MLA: value heads narrower than head_dim (MiMo-V2-Flash)
    attention_sinks: bool = False  # one learned logit per head (gpt-oss)
    attention_lambdas: bool = False  # DiffLlama's λ_q1, λ_k1, λ_q2, λ_k2: four head_dim vectors per layer
    attention_dynamic_mask: bool = False  # Doge's A (one per KV head) and dt_proj from the values
    residual_scales: bool = False  # Doge's two learned hidden-size gains on each layer's residuals
    residual_gates: bool = False  # Muse Spark's learned (hidden,) gate on each residual, after the layer's norms
    residual_affine: bool = False  # ZAYA's scale and shift of each sublayer's output and residual
    # ZAYA's MLP router over num_experts + a skip expert (parts/mlp_router.py), this wide; None: a linear router
    router_hidden_size: int | None = None
    expert_embeddings: bool = False  # Doge's CDMoE: experts as rows of two (E, hidden) tables
    attention_output_gate: str = "none"  # ATTENTION_OUTPUT_GATES: a learned gate on the attention output
    # DeepSeek Sparse Attention's lightning indexer over MLA (DeepSeek-V3.2): index_n_heads turns it on.
    index_n_heads: int | None = None  # the indexer's query heads (wq_b from the q LoRA latent, weights_proj)
    index_head_dim: int | None = None  # width of each indexer query head and of its one cached key
    index_topk: int | None = None  # keys each query attends to (count-neutral: FLOPs); None: every key
    indexer_types: tuple[str, ...] = ()  # per layer "full" (its own indexer) or "shared" (GLM-5); (): all full
    # GLM-5-Next's k-pool indexer: keys scored by pools of index_kpool tokens (index_kpool_compress_ape, _gate)
    index_kpool: int | None = None
    # MiMo-V2-Flash's sliding layers (as the KV cache reads them): their own KV heads, and sinks on them only.
    sliding_num_key_value_heads: int | None = None  # None: num_key_value_heads on every layer
    sliding_attention_sinks: bool = False
    # The last num_kv_shared_layers layers reuse the keys and values of the last earlier layer of
    # their attention type (Gemma 3n): no k/v projections or k norms, nothing cached.
    num_kv_shared_layers: int = 0
    # Gemma 3n's residual-stream extras (modeling_gemma3n.py), each off at 0.  Per-layer inputs: a second token table
    # (hidden_size_per_layer_input per layer; rows: vocab_size_per_layer_input, None: vocab_size), in and out.
    hidden_size_per_layer_input: int = 0
    vocab_size_per_layer_input: int | None = None
    altup_num_inputs: int = 0  # AltUp: altup_num_inputs streams, each layer predicting and correcting them
    laurel_rank: int = 0  # LAuReL: a rank-laurel_rank residual (linear_left, linear_right) in each layer
    # Attention shapes of each layer (Gemma 4's per_layer_config: head_dim 512 on its full-attention
    # layers, and their own KV heads with attention_k_eq_v); (): head_dim, num_key_value_heads on every layer.
    head_dim_per_layer: tuple[int, ...] = ()
    num_key_value_heads_per_layer: tuple[int, ...] = ()
    # Full-attention layers' values are their keys' projection, normed apart (Gemma 4's attention_k_eq_v).
    attention_k_eq_v: bool = False
    # Each MoE layer runs its dense FFN too, beside the routed experts, and sums the two branches,
    # each with its own post-norm and the experts with their own pre-norm (Gemma 4's enable_moe_block).
    moe_beside_dense_mlp: bool = False
    router_scales: bool = False  # (hidden,) on the router's input, (num_experts,) on its weights (Gemma 4)
    # Token mixers other than self-attention (a Gated DeltaNet, a Mamba, a short conv) add their own keys, each
    # declared by its part module (parts.MIXERS), then the sublayers (parts/sublayers.py): theirs follow these.
    shared_block_layers: tuple[int, ...] = ()  # layers_block_type "hybrid" (Zamba): a shared block, then the layer
    num_mem_blocks: int = 1  # num_mem_blocks: distinct blocks, use k of them running block k % num_mem_blocks
    attention_hidden_size: int | None = None  # attention_hidden_size: the block's input width; None: 2 × hidden_size
    adapter_rank: int | None = None  # adapter_rank: each use's LoRA adapter on the FFN's gate_up (None: no adapters)
    use_shared_attention_adapter: bool = False  # use_shared_attention_adapter: adapters on q, k and v too
    tie_shared_blocks: bool = True  # tie_word_embeddings (Zamba): later uses alias the first's tensors, else copies
    # Layers of one sublayer (Nemotron-H's "M", "*", "-" and "E" layers, Mamba's blocks).
    layers_without_ffn: tuple[int, ...] = ()
    layers_without_attn_pre_norm: tuple[int, ...] = ()  # no norm before attention (ModernBERT's first layer)
    layers_without_mixer: tuple[int, ...] = ()
    # How many times each layer runs a token, each run caching its own keys and values (HRM-Text's cycles:
    # parts/repeated.py); (): once each.  No tensor changes: the KV cache and FLOPs read it.
    layer_passes: tuple[int, ...] = ()
    # Attention pattern: count-neutral, needed for the KV cache.
    sliding_window: int | None = None
    layer_types: tuple[str, ...] = ()  # per layer "full_attention" or "sliding_attention"
    # Which tensors a training stage holds fixed (glob patterns on tensor names).  Frozen
    # tensors still count: freezing changes trainability, not the inventory.
    frozen: tuple[str, ...] = ()
    model_type: str = DESIGN_MODEL_TYPE  # the family whose tensor names the inventory uses
    tokenizer: str | None = None  # the vocabulary the table's rows belong to (count-neutral)
    # Why transformers builds this design but cannot run it (a rule's finding, a note: rules.forward_fails_note)
    forward_fails: str | None = None
    # Where the design came from and what the loader noticed (a text_config was used, a config key
    # it did not understand).  Not part of the design: equal designs from two sources compare equal.
    source: str | None = field(default=None, compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)
    # How the checkpoint stores its weights, read from a config's dtype and quantization_config
    # (quantization/); None for a design of our own (memory then takes bf16 unless told).
    stored: Any = field(default=None, compare=False)
    # A multimodal model's towers and projector (towers/: each gives its tensors), read from its config's
    # vision_config; () for a decoder alone.  Not a flat key: it comes with the config, and a copy keeps it.
    towers: tuple = field(default=(), metadata={"flat": False})

    # ----------------------------------------------------------------- derived values
    @property
    def kv_heads(self) -> int:
        return self.num_key_value_heads or self.num_attention_heads

    @property
    def attention_head_dim(self) -> int:
        return self.head_dim or self.hidden_size // self.num_attention_heads

    @property
    def ffn_size(self) -> int:
        if self.intermediate_size is not None:
            return self.intermediate_size
        if self.intermediate_ratio is not None:
            step, ratio = self.intermediate_multiple_of, self.intermediate_ratio
            # ceil(ratio · d / step) · step, in integers
            return -(-ratio.numerator * self.hidden_size // (ratio.denominator * step)) * step
        return 4 * self.hidden_size

    @property
    def expert_size(self) -> int:
        return self.moe_intermediate_size or self.ffn_size

    @property
    def shared_expert_size(self) -> int:
        if self.shared_expert_intermediate_size is not None:
            return self.shared_expert_intermediate_size
        return self.n_shared_experts * self.expert_size

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank is not None

    def is_moe_layer(self, layer: int) -> bool:
        return self.is_moe and layer not in self.mlp_only_layers

    def is_sliding_layer(self, layer: int) -> bool:
        """Attends within sliding_window: every layer when layer_types is empty (Mistral)."""
        if not self.sliding_window:
            return False
        return not self.layer_types or self.layer_types[layer] == "sliding_attention"

    def sliding_layers(self) -> list[bool]:
        """is_sliding_layer of every layer, in one pass."""
        if self.sliding_window and self.layer_types:
            return [kind == "sliding_attention" for kind in self.layer_types]
        return [bool(self.sliding_window)] * self.num_hidden_layers

    @property
    def sliding_layers_differ(self) -> bool:
        """Sliding layers hold other attention tensors than full ones (MiMo-V2-Flash)."""
        return self.sliding_num_key_value_heads is not None or self.sliding_attention_sinks

    def is_kv_shared_layer(self, layer: int) -> bool:
        """The layer reuses an earlier layer's keys and values (num_kv_shared_layers)."""
        return self.num_kv_shared_layers > 0 and layer >= self.num_hidden_layers - self.num_kv_shared_layers

    @property
    def per_layer_input_rows(self) -> int:
        """Rows of the per-layer input table (vocab_size_per_layer_input, else vocab_size)."""
        return self.vocab_size_per_layer_input or self.vocab_size

    @property
    def per_layer_input_width(self) -> int:
        """Every layer's per-layer input side by side: one row of the per-layer input table."""
        return self.num_hidden_layers * self.hidden_size_per_layer_input

    def layer_kv_heads(self, layer: int) -> int:
        if self.num_key_value_heads_per_layer:
            return self.num_key_value_heads_per_layer[layer]
        if self.sliding_num_key_value_heads is not None and self.is_sliding_layer(layer):
            return self.sliding_num_key_value_heads
        return self.kv_heads

    def layer_head_dim(self, layer: int) -> int:
        """Width of one query and key head of one layer (head_dim_per_layer, else head_dim)."""
        return self.head_dim_per_layer[layer] if self.head_dim_per_layer else self.attention_head_dim

    @property
    def attention_shapes_differ(self) -> bool:
        """Layers hold attention tensors of other shapes (per-layer head_dim or KV heads, values from keys)."""
        return bool(self.head_dim_per_layer or self.num_key_value_heads_per_layer or self.attention_k_eq_v)

    def layer_heads(self, layer: int) -> int:
        """Query heads of one layer."""
        per_layer = self.num_attention_heads_per_layer
        return per_layer[layer] if per_layer else self.num_attention_heads

    def has_output_bias(self, layer: int) -> bool:
        return self.attention_output_bias or layer in self.attention_output_bias_layers

    def has_indexer(self, layer: int) -> bool:
        """The layer runs its own lightning indexer (a "shared" layer reuses an earlier one's selection)."""
        return self.index_n_heads is not None and (not self.indexer_types or self.indexer_types[layer] == "full")

    @property
    def lm_head_rows(self) -> int:
        return self.output_vocab_size or self.vocab_size

    @property
    def is_rope(self) -> bool:
        """RoPE rotates q and k: a buffer rule's condition (Naming.model_buffers' fifth entry) where a family's
        rotary holds other buffers than the usual pair (ESM's one persistent inv_freq)."""
        return self.position_embedding_type == "rope"

    @property
    def learned_activation(self) -> bool:
        """The FFN's activation holds parameters (xIELU's alpha_p and alpha_n)."""
        return self.hidden_act == "xielu"

    @property
    def attention_kind(self) -> str:
        """'MHA', 'GQA' or 'MQA' (or 'MLA'); a design without attention layers names its mixer ('Mamba-2')."""
        if self.is_mla:
            return "MLA"
        if self.layers_without_mixer or any([getattr(self, kind.layers_key) for kind in MIXERS]):  # maybe none
            from .design.flat import layer_plan
            labels = [layer.mixer_label() for layer, _ in layer_plan(self).kinds]
            if all(label is None or label[1] is not None for label in labels):
                return next((label[0] for label in labels if label), "no token mixer")
        if self.kv_heads == self.num_attention_heads:
            return "MHA"
        return "MQA" if self.kv_heads == 1 else "GQA"

    # ----------------------------------------------------------------- construction
    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The keys a spec file, a --set or a config may give."""
        return _FIELD_NAMES

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], where: str | None = None,
                     notes: tuple[str, ...] = (), source: str | None = None, stored: Any = None,
                     towers: tuple = (), changed: Mapping[str, Any] | None = None,
                     engaged: Any = None) -> Architecture:
        """Validate ``values`` (field name -> value) and build the architecture.

        Every key must be a field; ``where`` (a file, a model name, "--set") prefixes
        messages and is the source unless ``source`` is given.  ``changed``, ``engaged``: the values that
        differ from a validated design's and the kinds it engages where they stay (replace's)."""
        ready, nullable, lists = _READY, _NULLABLE, _TUPLE_FIELDS
        # A value of the field's exact type needs no conversion (most values from a config), nor
        # does null where the field allows it, nor an empty tuple where a list belongs (a rule's
        # "no per-layer list"); an unknown key has no type (None) and lands here too.  A copy's other values are
        # its validated design's, already converted: only what it changes is looked at.
        convert = [key for key, value in (values if changed is None else changed).items()
                   if type(value) is not ready.get(key) and (value is not None or key not in nullable)
                   and (value != () or key not in lists)]
        fields = _DEFAULT_VALUES.copy()  # every field in one order, the given values over the defaults
        fields.update(values)
        for key in convert:
            if key not in ready:
                from .families import key_synonyms

                raise UnknownKeyError(key, cls.field_names(), where, key_synonyms())
            fields[key] = _coerce(key, values[key], where)
        for required in ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads"):
            if fields.get(required) is None:
                raise ArchitectureError(required, "missing (required)", where)
        fields["source"], fields["notes"], fields["stored"] = source or where, tuple(notes), stored
        fields["towers"] = towers
        if engaged is not None or KIND_KEYS.isdisjoint(values):  # no kind asked (none given a key: none engaged)
            fields["_engaged"] = NONE_ENGAGED if engaged is None else engaged
        arch = object.__new__(cls)  # the fields are coerced above and validated below
        object.__setattr__(arch, "__dict__", fields)  # frozen: the instance dict is set whole
        arch.validate(where, values if changed is None else changed)
        return arch

    def replace(self, where: str | None = None, **changes: Any) -> Architecture:
        """A validated copy with ``changes`` applied.  Setting hidden_size keeps a coupled
        FFN coupled; setting intermediate_size explicitly uncouples it."""
        values = dict(zip(_FIELD_NAMES, _read_fields(self.__dict__)))  # at C speed, not 200 getattr calls
        changed = dict(changes)  # (only their sizes need checking, and kinds asked only if a kind's key is among them)
        if "intermediate_size" in changes and "intermediate_ratio" not in changes:
            changed["intermediate_ratio"] = None
        if "num_hidden_layers" in changes:
            try:
                layers = _whole(_coerce("num_hidden_layers", changes["num_hidden_layers"], where), "", where)
            except ArchitectureError:
                layers = 0  # validation below reports the bad value
            changed = {**repeat_patterns(self, layers, changes), **changed}
        values.update(changed)
        kept = self.__dict__.get("_engaged") if KIND_KEYS.isdisjoint(changed) else None
        copy = Architecture.from_mapping(values, where or self.source, self.notes, source=self.source,
                                         stored=self.stored, towers=self.towers, changed=changed, engaged=kept)
        plan = self.__dict__.get("_layer_plan")
        if plan is not None and changes.keys() <= _PLAN_NEUTRAL:  # the same layers: the plan is kept
            copy.__dict__["_layer_plan"] = plan
        if (config := self.__dict__.get("_config")) is not None and changes.keys() <= _CONFIG_KEPT:
            copy.__dict__["_config"] = config  # the config read (sources.keep_config), for another depth
        if self.towers and "_towers_from" in self.__dict__:  # a whole model's towers follow its decoder
            from .towers import followed

            copy = followed(self, copy)
        return copy

    def with_fields(self, **fields: Any) -> Architecture:
        """A copy with ``fields`` set as given, unvalidated: for what the reader adds to a validated design (its
        notes, a whole model's towers and tying), a dict copy rather than a rebuild of every field."""
        copy = object.__new__(Architecture)
        values = {**self.__dict__, **fields}
        for stale in ("_hash", "_config") if "model_type" in fields else ("_hash",):  # the hash of the fields
            values.pop(stale, None)  # before; the config read, no longer this design's (--text-only's decoder)
        if not KIND_KEYS.isdisjoint(fields):
            values.pop("_engaged", None)
        object.__setattr__(copy, "__dict__", values)
        return copy

    def to_mapping(self, *, include_defaults: bool = False) -> dict[str, Any]:
        """Field name → value; without ``include_defaults`` only what differs from the defaults."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.compare or not f.metadata.get("flat", True):
                continue
            value = getattr(self, f.name)
            if include_defaults or f.default is dataclasses.MISSING or value != f.default:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        if isinstance(out.get("intermediate_ratio"), Fraction):
            out["intermediate_ratio"] = str(out["intermediate_ratio"])
        return out

    def validate(self, where: str | None = None, given: Mapping[str, Any] | None = None) -> None:
        """Every refusal, one line naming the key; ``given``: the keys set over the defaults (from_mapping's), whose
        sizes alone need checking (design/sizes.py)."""
        check_sizes(vars(self), where, given)
        heads = self.num_attention_heads
        if self.num_key_value_heads is not None and heads % self.num_key_value_heads:
            raise ArchitectureError(
                "num_key_value_heads",
                f"{self.num_key_value_heads} does not divide num_attention_heads={heads}",
                where,
            )
        if self.sliding_num_key_value_heads is not None and heads % self.sliding_num_key_value_heads:
            raise ArchitectureError("sliding_num_key_value_heads", f"{self.sliding_num_key_value_heads} does "
                                    f"not divide num_attention_heads={heads}", where)
        if self.head_dim is None and not self.is_mla and self.hidden_size % heads:
            raise ArchitectureError(
                "num_attention_heads",
                f"{heads} heads do not divide hidden_size={self.hidden_size}; set head_dim",
                where,
            )
        if self.intermediate_ratio is not None and self.intermediate_ratio <= 0:
            raise ArchitectureError("intermediate_ratio", "must be positive", where)
        if (self.norm_type not in NORM_TYPES or self.norm_placement not in NORM_PLACEMENTS
                or self.qk_norm not in QK_NORMS or self.attention_output_gate not in ATTENTION_OUTPUT_GATES
                or self.position_embedding_type not in POSITION_TYPES):
            for key, allowed in (
                ("norm_type", NORM_TYPES),
                ("norm_placement", NORM_PLACEMENTS),
                ("qk_norm", QK_NORMS),
                ("attention_output_gate", ATTENTION_OUTPUT_GATES),
                ("position_embedding_type", POSITION_TYPES),
            ):
                value = getattr(self, key)
                if value not in allowed:
                    raise ArchitectureError(
                        key, f"{value!r} is not one of {', '.join(allowed)}{did_you_mean(str(value), allowed)}",
                        where)
        if self.is_moe:
            if not 1 <= self.num_experts_per_tok <= self.num_experts:
                raise ArchitectureError("num_experts_per_tok", f"must be between 1 and num_experts="
                                        f"{self.num_experts}, got {self.num_experts_per_tok}", where)
            for layer in self.mlp_only_layers:
                if not 0 <= layer < self.num_hidden_layers:
                    raise ArchitectureError(
                        "mlp_only_layers", f"layer {layer} is outside 0..{self.num_hidden_layers - 1}", where
                    )
        elif self.num_experts_per_tok:
            raise ArchitectureError("num_experts_per_tok", "set without num_experts", where)
        elif (self.router_correction_bias or self.moe_output_norm or self.experts_output_bias  # no call when none is
              or self.attention_experts or self.expert_embeddings or self.router_hidden_size):
            key = next(key for key in _EXPERT_OPTIONS if getattr(self, key))
            raise ArchitectureError(key, "set without num_experts", where)
        if self.is_mla:
            for key in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
                if getattr(self, key) is None:
                    raise ArchitectureError(key, "required with kv_lora_rank (multi-head latent attention)", where)
        check_structure(self, where)
        if self.layer_types and len(self.layer_types) != self.num_hidden_layers:
            raise ArchitectureError("layer_types", f"has {len(self.layer_types)} entries for num_hidden_layers="
                                                   f"{self.num_hidden_layers}", where)


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(Architecture) if f.compare and f.metadata.get("flat", True))
_FIELD_TYPES = {f.name: f.type for f in dataclasses.fields(Architecture)}
_read_fields = itemgetter(*_FIELD_NAMES)  # an instance dict -> its fields' values, in field order

# The Python type a field's value already has when no conversion is needed (most values
# from a config.json): checked first, so loading a config does not parse type strings.
_READY_TYPES = {"int": int, "int | None": int, "bool": bool, "bool | None": bool, "str": str, "str | None": str}
_READY = {name: _READY_TYPES.get(kind) for name, kind in _FIELD_TYPES.items() if name in _FIELD_NAMES}
_DEFAULT_VALUES = {f.name: f.default for f in dataclasses.fields(Architecture) if f.default is not dataclasses.MISSING}
"""Every field's default (all immutable), in field order: from_mapping's starting point."""
_BOOL_FIELDS = frozenset(name for name, kind in _FIELD_TYPES.items() if kind.startswith("bool"))
_INTEGER_FIELDS = frozenset(name for name, kind in _FIELD_TYPES.items() if kind.startswith("int"))
_NULLABLE = frozenset(name for name in _FIELD_NAMES if "None" in _FIELD_TYPES[name])
_TUPLE_FIELDS = frozenset(name for name in _FIELD_NAMES if _FIELD_TYPES[name].startswith("tuple"))

_PLAN_NEUTRAL = frozenset({"vocab_size"})
"""Fields no layer's parts read: a copy changing only these has the same layer plan (design/flat.py)."""
_CONFIG_KEPT = frozenset({"num_hidden_layers", "vocab_size"})  # its config at another depth is still its own
_EXPERT_OPTIONS = ("router_correction_bias", "moe_output_norm", "experts_output_bias", "attention_experts",
                   "expert_embeddings", "router_hidden_size")  # each means nothing without num_experts


def _coerce(key: str, value: Any, where: str | None) -> Any:
    return coerce(key, value, where, _READY[key], _FIELD_TYPES[key])
