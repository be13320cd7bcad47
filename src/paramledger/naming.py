"""How a family names its tensors: a sparse table of module paths.

The defaults are Llama's names (transformers' LlamaForCausalLM).  A family lists only the
paths that differ.  Paths under a layer are relative to ``layer`` ("model.layers.{i}");
the builder appends ".weight" and ".bias" to module paths.  Raw parameters that are not
inside a Linear (fused 3-D experts, attention sinks) are named as they are.
"""

from __future__ import annotations

from ._record import record
from .parts.sublayers import DECLARED


@record(extra=tuple(kind.names for kind in DECLARED))
class Naming:
    embed: str = "model.embed_tokens"
    positions: str = "model.embed_positions"
    token_types: str = "model.embed_token_types"  # type_vocab_size: the token-type table
    task_types: str = "model.embed_task_types"  # task_type_vocab_size: a task-type table (ERNIE)
    position_offset: int = 0  # extra rows some families allocate in the learned table (OPT: 2)
    # the position table is hidden / heads wide, whatever the tables' width (RoFormerEncoder.embed_positions: the
    # sinusoidal table its rotary attention reads, an nn.Embedding's weight)
    positions_head_wide: bool = False
    positions_hidden_wide: bool = False  # hidden_size wide, whatever the tables' width (OPT's embed_positions)
    axial_positions: str = "model.embeddings.position_embeddings"  # Reformer's AxialPositionEmbeddings (weights.{a})
    layer: str = "model.layers.{i}"
    # The layers are no modules of their own: one ModuleList per kind of module under ``layer``'s parent
    # (XLMModel's attentions.{i}, layer_norm1.{i}, ffns.{i}, layer_norm2.{i}), each list whole in named_parameters()
    # (layer_lists.py renames and reorders the built layers; layer_order orders the lists)
    layer_lists: bool = False
    # Stacks of equal depth holding the design's layers in order, each numbered from 0 (HRM-Text's L_module and
    # H_module): families.naming_of makes ``layer`` a StackedLayers at the design's depth; (): one stack at ``layer``
    layer_stacks: tuple[str, ...] = ()
    # The first layers numbered within blocks, "{b}" the block and "{j}" the layer in it, the blocks' sizes the flat
    # key block_sizes (FunnelEncoder's blocks.{b}.{j}); the layers after them under ``layer``, numbered from 0
    # (FunnelDecoder's layers.{i}): layer_blocks.py renames the built list.  None: every layer under ``layer``
    layer_blocks: str | None = None
    # The layers numbered within groups of inner_group_num (a flat key), "{g}" the group and "{j}" the layer in it
    # (ALBERT's albert_layer_groups.{g}.albert_layers.{j}): families.naming_of makes ``layer`` a GroupedLayers where
    # inner_group_num is set; None, or it unset: every layer under ``layer``
    layer_groups: str | None = None
    # The fields (name, value) that differ where the design's flat key legacy is false (DeBERTa's lm_predictions head
    # in cls.predictions' place): families.naming_of replaces them then; (): legacy changes no name
    not_legacy: tuple[tuple[str, object], ...] = ()
    embed_project: str = "model.embeddings_project"  # embedding_size: the Linear from the tables' width to hidden_size
    embed_project_always: bool = False  # that Linear even at equal widths (RemBertEncoder.embedding_hidden_mapping_in)
    embed_project_bias: bool = True  # (OPTDecoder.project_in has none)
    # a Linear from hidden_size back to the tables' width before the head, where they differ (OPTDecoder.project_out,
    # registered before project_in); None: none
    embed_unproject: str | None = None
    embed_norm: str | None = None  # a norm on the token embeddings, before the blocks (BLOOM)
    # a hidden-wide norm after embed_project (MobileBertEmbeddings.LayerNorm; NoNorm with no_norm); None: none
    embed_project_norm: str | None = None
    token_types_hidden_wide: bool = False  # hidden_size wide, whatever the tables' width (MobileBERT's)
    # entity_vocab_size: LUKE's entity tables after the token embeddings and entity head after the LM head
    # (entity_tables.py)
    entity_embeddings: str = "model.entity_embeddings"
    entity_predictions: str = "entity_predictions"
    # RoC-BERT's tables beside the token table and the Linear over their concatenation (map_inputs_width)
    pronunciation_embed: str = "model.embeddings.pronunciation_embed"
    shape_embed: str = "model.embeddings.shape_embed"
    map_inputs: str = "model.embeddings.map_inputs_layer"
    # a learned (1, 1, hidden) embedding of the masked positions, built after the token table (XLNet's
    # transformer.mask_emb, the query stream's start; its model_order puts it first); None: none
    mask_embedding: str | None = None
    # hidden-size vectors the model holds itself (ZAYA's input_hidden_states_scale and _bias), after the token table
    # in the builder (named_parameters() lists them first: model_order)
    model_vectors: tuple[str, ...] = ()
    # parameters of the model's own of other shapes, after those: (name, shape), each size an int or an Architecture
    # field's name (Inkling 2 Loop's message_input.query, (looped layers, 4, hidden))
    model_arrays: tuple[tuple[str, tuple], ...] = ()
    # attention (separate projections, or one fused qkv when ``qkv`` is set)
    q: str = "self_attn.q_proj"
    k: str = "self_attn.k_proj"
    v: str = "self_attn.v_proj"
    o: str = "self_attn.o_proj"
    qkv: str | None = None
    key_bias: bool = True  # k carries attention_bias's bias as q and v do (False: WhisperAttention's k_proj, unbiased)
    kv: str | None = None  # one fused key and value projection (JetMoE's kv_proj), with attention_experts
    # mixture of attention heads (attention_experts): a router, routed q and o experts, an output bias
    attn_router: str = "self_attention.experts.router.layer"
    attn_experts_q: str = "self_attention.experts.input_linear.weight"
    attn_experts_o: str = "self_attention.experts.output_linear.weight"
    attn_experts_bias: str = "self_attention.experts.bias"
    o_bias: str | None = None  # an output bias stored apart from o (GPT-NeoX-Japanese's attention.dense_bias)
    # q/k norms; with qk_norm "per_head" a path holding "{h}" names one norm per head
    # (StableLM's q_layernorm.norms.{h}), else one (heads, head_dim) weight (Cohere)
    q_norm: str = "self_attn.q_norm"
    k_norm: str = "self_attn.k_norm"
    sinks: str = "self_attn.sinks"
    attn_lambda: str = "self_attn.lambda_"  # + q1, k1, q2, k2 (DiffLlama)
    attn_dynamic_mask: str = "self_attn.A"  # Doge
    attn_dt_proj: str = "self_attn.dt_proj"
    attn_residual_scale: str = "input_residual"  # Doge
    ffn_residual_scale: str = "post_attention_residual"
    expert_router: str = "mlp.router_gate"  # Doge's CDMoE
    expert_down_embed: str = "mlp.down_embed.weight"
    expert_up_embed: str = "mlp.up_embed.weight"
    attn_gate: str = "self_attn.gate_proj"  # attention_output_gate
    # The gate's rows stored in q_proj after the queries' (Qwen3-Next's and Qwen3.5's q_proj: 2 × heads × head_dim)
    attn_gate_in_q: bool = False
    attn_sub_norm: str = "self_attn.attn_sub_norm"  # BitNet: on the attention output, before o_proj
    # DeepSeek-V3.2's lightning indexer (index_n_heads)
    indexer_q: str = "self_attn.indexer.wq_b"
    indexer_k: str = "self_attn.indexer.wk"
    indexer_k_norm: str = "self_attn.indexer.k_norm"
    indexer_weights: str = "self_attn.indexer.weights_proj"
    # GLM-5-Next's k-pool indexer (index_kpool): its own two Parameters, registered before wq_b
    indexer_kpool_ape: str = "self_attn.indexer.index_kpool_compress_ape"
    indexer_kpool_gate: str = "self_attn.indexer.index_kpool_compress_gate"
    # The token mixers other than self-attention (parts.MIXERS: a Gated DeltaNet, a Mamba, a short conv) add their
    # own paths, declared by their part modules, and so do the sublayers (parts/sublayers.py, cross-attention):
    # those fields follow these.
    # A transformer block shared between layers (parts/shared_block.py, Zamba's shared_transf): its path in a
    # layer (the names inside it are the attention's, the FFN's and the norms' above), each use's own output
    # projection, its per-use LoRA adapter lists ("{p}": q, k or v) and the layer's own parts beside it
    shared_block: str = "shared_transformer"
    shared_block_output: str = "linear"
    attn_adapters: str = "self_attn.linear_{p}_adapter_list"
    ffn_adapters: str = "feed_forward.gate_up_proj_adapter_list"
    inner_layer: str = "mamba_decoder"
    # multi-head latent attention (DeepSeek V2/V3)
    q_a: str = "self_attn.q_a_proj"
    q_a_norm: str = "self_attn.q_a_layernorm"
    q_b: str = "self_attn.q_b_proj"
    kv_a: str = "self_attn.kv_a_proj_with_mqa"
    kv_a_norm: str = "self_attn.kv_a_layernorm"
    kv_b: str = "self_attn.kv_b_proj"
    # dense FFN: up and down (plain); gate, up and down (gated); or a fused gate_up
    gate: str = "mlp.gate_proj"
    up: str = "mlp.up_proj"
    up_ungated: str | None = None  # up's path when not gated, where it differs (T5's DenseReluDense.wi; gated: wi_1)
    down: str = "mlp.down_proj"
    gate_up: str | None = None
    ffn_sub_norm: str = "mlp.ffn_sub_norm"  # BitNet: on the inner activations, before down_proj
    act: str = "mlp.act_fn"  # a learned activation's parameters (xIELU's alpha_p, alpha_n)
    # mixture of experts: fused 3-D expert tensors, as transformers 5 builds them
    router: str = "mlp.gate"
    router_correction_bias: str = "mlp.gate.moe_statics.e_score_correction_bias"  # (1, experts), ERNIE 4.5
    router_correction_bias_row: bool = True  # stored (1, experts); False: (experts,) (AFMoE, Laguna)
    moe_output_norm: str = "mlp.post_mlp_layernorm"  # A.X-K1
    # The experts run in a narrower latent (moe_latent_size): projections into it and out (Nemotron-H)
    moe_latent_in: str = "mixer.fc1_latent_proj"
    moe_latent_out: str = "mixer.fc2_latent_proj"
    experts_output_bias: str = "mlp.bias"  # JetMoE
    experts_gate_up: str = "mlp.experts.gate_up_proj"
    experts_down: str = "mlp.experts.down_proj"
    experts_in_out: bool = False  # (experts, in, out) as gpt-oss; default (experts, out, in)
    # One module per expert (an nn.ModuleDict of Linear pairs: SwitchTransformersExperts, NllbMoeExperts): the
    # up and down paths with {e} for the expert's index; None: the fused tensors above
    experts_each: tuple[str, str] | None = None
    # The up projection apart from the gate: experts_gate_up then holds only the gate (DBRX's w1, v1).
    experts_up: str | None = None
    # 2-D expert tensors, the experts flattened on the first axis: (experts × width, hidden) for the
    # gate and up projections and for the down projection too (DBRX's w1, v1, w2, which DbrxExperts
    # views as (experts, width, hidden)); still marked experts=num_experts.
    experts_flat: bool = False
    # The fused expert tensors carry biases (gpt-oss's gate_up_proj_bias, down_proj_bias).
    # Separate from mlp_bias: DeepSeek-V2's mlp_bias biases its dense and shared MLPs but
    # never its fused experts.
    expert_biases: bool = False
    # A shared expert stored as one fused gate+up tensor and a down tensor (GraniteMoeShared's
    # shared_mlp.input_linear / output_linear) instead of shared_expert's three projections.
    shared_expert_gate_up: str | None = None
    shared_expert_down: str | None = None
    shared_expert: str = "mlp.shared_experts"  # holds gate_proj, up_proj, down_proj
    shared_expert_gate: str = "mlp.shared_expert_gate"
    # Gemma 4 (router_scales; moe_beside_dense_mlp: the dense FFN's and the experts' own norms)
    router_scale: str = "router.scale"
    router_per_expert_scale: str = "router.per_expert_scale"
    ffn_post_norm_1: str = "post_feedforward_layernorm_1"
    ffn_pre_norm_2: str = "pre_feedforward_layernorm_2"
    ffn_post_norm_2: str = "post_feedforward_layernorm_2"
    # norms by role: before/after attention, before/after the FFN
    attn_pre_norm: str = "input_layernorm"
    attn_post_norm: str = "post_attention_layernorm"
    ffn_pre_norm: str = "post_attention_layernorm"  # Llama's name for the pre-FFN norm
    ffn_post_norm: str = "post_feedforward_layernorm"
    attn_branch_norm: str = "ln_attn"  # norm_placement "parallel_split": one norm per parallel branch
    ffn_branch_norm: str = "ln_mlp"
    # Gemma 3n (modeling_gemma3n.py): per-layer inputs (hidden_size_per_layer_input), AltUp's streams
    # (altup_num_inputs; "{j}" numbers the extra streams) and LAuReL (laurel_rank)
    embed_per_layer: str = "model.embed_tokens_per_layer"
    per_layer_model_projection: str = "model.per_layer_model_projection"
    per_layer_projection_norm: str = "model.per_layer_projection_norm"
    per_layer_input_gate: str = "per_layer_input_gate"
    per_layer_projection: str = "per_layer_projection"
    post_per_layer_input_norm: str = "post_per_layer_input_norm"
    altup_projections: str = "model.altup_projections.{j}"
    altup_unembed_projections: str = "model.altup_unembed_projections.{j}"
    altup_output_scale: str = "altup.correct_output_scale"
    altup_correction_coefs: str = "altup.correction_coefs"
    altup_prediction_coefs: str = "altup.prediction_coefs"
    altup_router: str = "altup.modality_router"
    altup_router_norm: str = "altup.router_norm"
    laurel_left: str = "laurel.linear_left"
    laurel_right: str = "laurel.linear_right"
    laurel_norm: str = "laurel.post_laurel_norm"
    pooler: str | None = None  # a hidden × hidden Linear with its bias after the layers (BigBirdModel.pooler)
    relative_attention_bias: str = "model.relative_attention_bias"  # relative_attention_num_buckets (MPNet)
    # The table is a bare Parameter at that path, no ".weight" (CPM-Ant's position_bias.relative_attention_bias)
    relative_attention_bias_raw: bool = False
    relative_embeddings: str = "model.rel_embeddings"  # relative_embeddings_size (DeBERTa-v2's encoder.rel_embeddings)
    encoder_conv: str = "model.encoder.conv"  # encoder_conv_kernel_size (DeBERTa-v2's ConvLayer: .conv, .LayerNorm)
    # max_2d_position_embeddings: LayoutLM's box tables, "{p}" standing for x, y, h and w, after the position table
    box_positions: str = "model.embeddings.{p}_position_embeddings"
    final_norm: str = "model.norm"
    patch_stem: str = "model.patch_embeddings"  # patch_stem_size: NeoMMEPatchEmbeddings (norm, up_proj, down_proj)
    # NeoMME's value embeddings: one (vocab, kv_heads × head_dim) nn.Embedding after the layers, added to the values
    # of its first and last full layers; None: none
    value_embeddings: str | None = None
    # a Linear(width -> hidden) before the head, tied to embed_project where the head is tied to the table (NeoMME's
    # unembedding_projection: the factorized table read backwards); None: none
    unembed_project: str | None = None
    # a learned float32 vector scaling the rotary's inverse frequencies, one per inv_freq entry, registered after the
    # final norm (MistralLarge4TextRotaryEmbedding.alpha, LeRoPE); None: none
    rotary_alpha: str | None = None
    # the hyper-connection head collapsing hc_mult residual streams into one before the LM head (HY-V4's and
    # DeepSeek-V4's hc_head: hc_fn (hc_mult, hc_mult × hidden), hc_base, hc_scale); None: none
    hyper_head: str | None = None
    lm_head: str = "lm_head"
    # What the model's get_output_embeddings() returns where it is not the head: PEFT's "all-linear" leaves that module
    # out (_maybe_include_all_linear_layers), so the head is adapted where it returns another (FSMT's decoder table)
    output_embeddings: str | None = None
    lm_head_bias: str | None = None  # the head's bias held apart from its Linear (BertGenerationOnlyLMHead's lm_head.bias)
    # The head registered before the model (XLMRobertaForCausalLM sets lm_head first): a tied table is then named by
    # the head's Linear, where named_parameters() first meets it, and the token embedding is its alias
    tied_table_in_head: bool = False
    # The head's weight is its own whatever tie_word_embeddings, which ties only its bias to the one held apart
    # (LukeForMaskedLM's _tied_weights_keys name no token table)
    lm_head_weight_untied: bool = False
    # The head's Linear has no bias of its own: only the one held apart (EsmLMHead's decoder, bias=False)
    lm_head_linear_bias: bool = True
    # A Linear (layers × heads -> 1, with bias) over every attention map, after the layers (EsmContactPredictionHead)
    contact_head: str | None = None
    lm_head_dense: str = "lm_head.dense"  # lm_head_transform: a dense layer and a norm before the head
    lm_head_norm: str = "lm_head.norm"
    lm_head_in: str = "lm_head.linear1"  # prediction_head_size: the bottleneck's two Linears before the head
    lm_head_out: str = "lm_head.linear2"
    lm_head_extra: str = "lm_head.dense"  # lm_head_rest: the head's columns past the table's (MobileBERT)
    conv1d: bool = False  # GPT-2's Conv1D stores weights as (in, out), not Linear's (out, in)
    # The order transformers registers the modules in, where it differs from the builder's (which
    # is Llama's: attention, FFN, norms), so that a listing follows named_parameters().  Module paths
    # (or parameter names), relative to ``layer``: a layer's tensors are sorted, stably, by the first
    # entry they sit under (the path itself or below it); tensors under none keep the builder's
    # order after every listed one.  Applied only where the list is expanded, never on a count.
    layer_order: tuple[str, ...] = ()
    # The same for the tensors outside the layers, full paths, the layers' own path (``layer``
    # without ".{i}") standing for where the layers go (OPT registers its final norm before them).
    model_order: tuple[str, ...] = ()
    # Buffers (buffers.py; not learned, never counted, held in memory): the rotary module (None: none),
    # with one inv_freq pair per attention layer type (Gemma 3's full_attention_inv_freq); the model's
    # other buffers as (name, shape, dtype, persistent), "{layer}" standing for every layer's prefix;
    # the router's score correction in its MoE layers (a mixer's own buffers are switched by its names).
    rotary: str | None = "model.rotary_emb"
    rotary_per_layer_type: bool = False
    rotary_layer_types: tuple[str, str] = ("full_attention", "sliding_attention")  # their names there (ZAYA: hybrid)
    model_buffers: tuple[tuple, ...] = ()  # (name, shape, dtype, persistent[, the field that must be set])
    router_score_bias: str | None = None  # e.g. "mlp.gate.e_score_correction_bias", (num_experts,)
    router_score_bias_dtype: str | None = "float32"  # None: the model's dtype (MiniMax-M2)


LLAMA = Naming()


class StackedLayers(str):
    """A layer path over stacks of equal depth (Naming.layer_stacks): layer i is layer i % depth of stack
    i // depth, so that ``.format(i=i)``, as every view names a layer, gives transformers' path.  As a string it is
    the first stack's path (its static part places the layers in Naming.model_order); ``+`` keeps the stacks."""

    stacks: tuple[str, ...]
    depth: int

    def __new__(cls, stacks: tuple[str, ...], depth: int) -> StackedLayers:
        path = super().__new__(cls, stacks[0])
        path.stacks, path.depth = stacks, max(depth, 1)
        return path

    def format(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        i: int = kwargs["i"]  # type: ignore[assignment]
        stack = min(i // self.depth, len(self.stacks) - 1)  # (a layer past the last stack: numbered on in it)
        return self.stacks[stack].format(i=i - stack * self.depth)

    def __add__(self, suffix: str) -> StackedLayers:
        return StackedLayers(tuple(stack + suffix for stack in self.stacks), self.depth)

    def __reduce__(self) -> tuple:
        return StackedLayers, (self.stacks, self.depth)


class GroupedLayers(str):
    """A layer path over groups of equal size (Naming.layer_groups): layer i is layer i % size of group i // size, so
    that ``.format(i=i)``, as every view names a layer, gives transformers' path (ALBERT's
    albert_layer_groups.{g}.albert_layers.{j}).  As a string it is the path of each group's first layer, "{i}" the
    group (its static part places the layers in Naming.model_order); ``+`` keeps the groups."""

    template: str
    size: int

    def __new__(cls, template: str, size: int) -> GroupedLayers:
        path = super().__new__(cls, template.replace("{g}", "{i}").replace("{j}", "0"))
        path.template, path.size = template, max(size, 1)
        return path

    def format(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        i: int = kwargs["i"]  # type: ignore[assignment]
        return self.template.format(g=i // self.size, j=i % self.size)

    def __add__(self, suffix: str) -> GroupedLayers:
        return GroupedLayers(self.template + suffix, self.size)

    def __reduce__(self) -> tuple:
        return GroupedLayers, (self.template, self.size)
