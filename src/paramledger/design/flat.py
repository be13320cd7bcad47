"""The flat, HF-named keys of an Architecture, translated into layers of parts: the one place that
reads which layer holds which mixer, FFN and norms.

A layer's parts are decided by a few columns, each one value per layer: only the columns the design
varies are looked at layer by layer, and one Layer is made for each distinct combination (layers
alike share one object, so the builder lists its tensors once and every view sums it once)."""

from __future__ import annotations

from collections import Counter
from itertools import islice, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..parts.attention import Attention
from ..parts.experts import Experts
from ..parts.ffn import DenseFFN
from ..parts import MIXERS
from ..parts.norms import BlockNorms
from ..parts.sublayers import engaged_kinds
from .layers import Layer, LayerPlan

# The other kinds are imported where a design first asks for one (the start of a count of a plain design
# reads none of them): a function's import of a loaded module is one dictionary look-up.
if TYPE_CHECKING:
    from ..architecture import Architecture
    from ..parts.shared_block import SharedBlock

_new = tuple.__new__  # a part from every one of its fields, without NamedTuple's Python-level __new__

ATTENTION = "attention"  # a layer's mixer: this, a MixerKind (parts.MIXERS) or None
DENSE, MOE = "dense", "moe"
FIRST_MOE = "first_moe"  # routed experts whose router reads no earlier layer's router state (ZAYA's layer 0)
_read_mixer_lists = attrgetter(*(kind.layers_key for kind in MIXERS), "layers_without_mixer")  # at C speed
_BESIDE = tuple((kind.beside_attention, kind) for kind in MIXERS if kind.beside_attention)


def layer_plan(arch: Architecture) -> LayerPlan:
    """Every layer's Layer.  Made once per design and kept (a design is frozen); a stand-in with
    symbolic sizes (formula.py) gets a plan of its own each time."""
    cache = arch.__dict__
    plan = cache.get("_layer_plan")
    if plan is None:
        plan = _plan(arch)
        if type(arch).__name__ == "Architecture":
            cache["_layer_plan"] = plan
    return plan


def _plan(arch: Any) -> LayerPlan:
    keys, arguments = _columns(arch)
    count = arch.num_hidden_layers
    if keys is None:  # no column varies: one Layer for every depth, no look-up per layer
        layer = layer_for(arch, *arguments(()))
        return _new(LayerPlan, ((layer,) * count, ((layer, count),)))
    counts = Counter(keys)  # each distinct key with its layers, in order of first appearance, counted in C
    built = {key: layer_for(arch, *arguments(key)) for key in counts}  # each distinct key once
    layers = tuple(map(built.__getitem__, keys))  # one look-up per layer, at C speed
    return _new(LayerPlan, (layers, tuple((layer, counts[key]) for key, layer in built.items())))


def _columns(arch: Any) -> tuple[Any, Any]:
    """Each layer's key: the values of the columns that vary (its FFN kind, sliding with tensors of
    its own?, its own indexer?, its query heads, an output bias?, its FFN width, keys and values
    shared from an earlier layer?, its head width and KV heads, values from the keys?, its mixer
    kind, its use of a shared block, a norm before its attention?, its runs a token, its PLE, its mixer
    kind's variant), and the function giving a key's full arguments of layer_for; None for the keys where
    no column varies."""
    count = arch.num_hidden_layers
    if not (arch.mlp_only_layers or arch.layers_without_ffn or arch.sliding_layers_differ or arch.indexer_types
            or arch.num_attention_heads_per_layer or arch.attention_output_bias_layers
            or arch.intermediate_size_per_layer or arch.num_kv_shared_layers or arch.attention_k_eq_v
            or arch.attention_shapes_differ or arch.layers_without_mixer or arch.shared_block_layers
            or arch.layers_without_attn_pre_norm or arch.router_hidden_size or arch.layer_passes
            or engaged_kinds(arch)[0] or arch.ple_layers):  # every layer alike: no column to build
        plain = [MOE if arch.is_moe else DENSE, False, arch.index_n_heads is not None, None,
                 arch.attention_output_bias, None, False, None, None, False, ATTENTION, None, True, 1, None, None]
        return None, lambda key: plain
    layers = range(count)
    shapes_differ = arch.attention_shapes_differ
    sliding = arch.sliding_layers() if arch.sliding_layers_differ or arch.attention_k_eq_v else None
    columns = (
        _ffn_column(arch, layers),
        sliding if arch.sliding_layers_differ else repeat(False),
        [arch.has_indexer(i) for i in layers] if arch.indexer_types else repeat(arch.index_n_heads is not None),
        arch.num_attention_heads_per_layer or repeat(None),
        [arch.has_output_bias(i) for i in layers] if arch.attention_output_bias_layers
        else repeat(arch.attention_output_bias),
        arch.intermediate_size_per_layer or repeat(None),
        [arch.is_kv_shared_layer(i) for i in layers] if arch.num_kv_shared_layers else repeat(False),
        (arch.head_dim_per_layer or repeat(arch.attention_head_dim)) if shapes_differ else repeat(None),
        (arch.num_key_value_heads_per_layer or [arch.layer_kv_heads(i) for i in layers]) if shapes_differ
        else repeat(None),
        [not s for s in sliding] if arch.attention_k_eq_v else repeat(False),  # values from keys: full layers
        _mixer_column(arch, layers),
        _shared_block_column(arch) if arch.shared_block_layers else repeat(None),
        [i not in arch.layers_without_attn_pre_norm for i in layers] if arch.layers_without_attn_pre_norm
        else repeat(True),
        list(arch.layer_passes) or repeat(1),
        _ple_column(arch) if arch.ple_layers else repeat(None),
        _variant_column(arch),
    )
    # A list whose layers are all alike (a Mamba's mixers, each layer without an FFN) varies nowhere.
    columns = tuple(repeat(column[0]) if type(column) is list and column.count(column[0]) == count else column
                    for column in columns)
    varying = [i for i, column in enumerate(columns) if type(column) is not repeat]
    if not varying:
        plain = [next(column) for column in columns]
        return None, lambda key: plain
    template = [None if i in varying else next(column) for i, column in enumerate(columns)]

    if len(varying) == 1:  # one column varies: its values are the keys (no tuple made per layer)
        only = varying[0]

        def argument(key: Any) -> list:
            full = template.copy()
            full[only] = key
            return full

        return list(islice(columns[only], count)), argument

    def arguments(key: tuple) -> list:
        full = template.copy()
        for i, value in zip(varying, key):
            full[i] = value
        return full

    return list(islice(zip(*[columns[i] for i in varying]), count)), arguments


def _ffn_column(arch: Any, layers: range) -> Any:
    """Each layer's FFN: routed experts, dense (mlp_only_layers in an MoE design) or none."""
    if not arch.mlp_only_layers and not arch.layers_without_ffn and not arch.router_hidden_size:
        return repeat(MOE if arch.is_moe else DENSE)
    column = [MOE if arch.is_moe else DENSE] * len(layers)  # then each listed layer set: no test per layer
    if arch.router_hidden_size and column:  # ZayaRouter.use_eda: every layer but the first
        column[0] = FIRST_MOE
    for i in arch.mlp_only_layers if arch.is_moe else ():  # (without experts they mean nothing, and go unchecked)
        column[i] = DENSE
    for i in arch.layers_without_ffn:
        column[i] = None
    return column


def _mixer_column(arch: Any, layers: range) -> Any:
    """Each layer's token mixer: self-attention unless a list names another kind, or none."""
    lists = _read_mixer_lists(arch)
    if not any(lists):
        return repeat(ATTENTION)
    kinds = zip((*MIXERS, None), lists)
    column: list[Any] = [ATTENTION] * len(layers)
    for kind, listed in kinds:
        for i in listed:
            column[i] = kind
    return column


def _variant_column(arch: Any) -> Any:
    """Each layer's variant of its mixer kind, where an engaged kind declares them (MixerKind.variants)."""
    kinds = [kind for kind in engaged_kinds(arch)[0] if kind.variants is not None]
    if not kinds:
        return repeat(None)
    column: list[Any] = [None] * arch.num_hidden_layers
    for kind in kinds:
        for i, variant in enumerate(kind.variants(arch)):
            if variant is not None:
                column[i] = variant
    return column


def _ple_column(arch: Any) -> list[int | None]:
    """Each layer's place among the PLE layers (Qwen4-Exp's n-gram embeddings: its table takes the primes after
    every earlier PLE layer's, so each is a kind of its own), None where it holds none."""
    column: list[int | None] = [None] * arch.num_hidden_layers
    for k, layer in enumerate(sorted(set(arch.ple_layers))):
        column[layer] = k
    return column


def _shared_block_column(arch: Any) -> list[tuple[int, int | None] | None]:
    """Each layer's use of a shared block: None, or (its block, the layer holding the block's tensors if
    another does).  Use k runs block k % num_mem_blocks; tied, the first use of each block holds it and
    the later ones alias it (Zamba2Model.get_layers); untied, every use holds a copy of its own."""
    column: list[tuple[int, int | None] | None] = [None] * arch.num_hidden_layers
    uses, blocks = sorted(set(arch.shared_block_layers)), arch.num_mem_blocks
    tied = arch.tie_shared_blocks
    for k, layer in enumerate(uses):
        column[layer] = (k % blocks, uses[k % blocks] if tied and k >= blocks else None)
    return column


def layer_for(arch: Any, ffn: str | None, sliding: bool = False, indexer: bool = False, heads: int | None = None,
              output_bias: bool = False, ffn_size: int | None = None, kv_shared: bool = False,
              head_dim: int | None = None, kv_heads: int | None = None, values_from_keys: bool = False,
              mixer: Any = ATTENTION, shared: tuple[int, int | None] | None = None,
              attn_pre_norm: bool = True, passes: int = 1, ple: int | None = None, variant: Any = None) -> Layer:
    """One layer's parts (``heads``, ``ffn_size``, ``head_dim``, ``kv_heads`` None: the design's); ``shared``:
    the layer runs a shared block (its block, the layer holding it), its own parts then one module down."""
    d = arch.hidden_size
    parts: list[Any] = []
    if mixer == ATTENTION:
        parts.append(_attention(arch, sliding, indexer, heads, output_bias, kv_shared, head_dim, kv_heads,
                                values_from_keys))
        for key, kind in _BESIDE:  # both mixers read the same normed input (FalconH1DecoderLayer)
            if getattr(arch, key):
                parts.append(kind.build(arch))
    elif mixer is not None:
        parts.append(mixer.build(arch) if variant is None else mixer.build(arch, variant))
    if mixer is not None:  # each sublayer kind the design engages, after the mixer (a decoder's cross-attention)
        parts.extend([kind.build(arch) for kind in engaged_kinds(arch)[1]])
    if ple is not None:  # Qwen4-Exp's n-gram embedding into the streams (Qwen4ExpTextDecoderLayer.ple)
        from ..parts.hyper_connection import ngram_embedding

        parts.append(ngram_embedding(arch, ple))
    dense = _new(DenseFFN, (d, ffn_size or arch.ffn_size, arch.mlp_gated, arch.mlp_bias, arch.ffn_sub_norm,
                            arch.learned_activation, arch.mlp_down_bias))
    if arch.global_scale_ffn and ffn is not None:  # Inkling's FFNs: global scales, 3-D shared experts
        from ..parts.inkling_ffn import InklingFFN

        parts.append(_new(InklingFFN, (d, ffn_size or arch.ffn_size, arch.num_experts if ffn == MOE else 0,
                                       arch.expert_size, arch.n_shared_experts)))
    elif arch.router_hidden_size and ffn in (MOE, FIRST_MOE):  # ZAYA's MLP router over the experts and a skip expert
        from ..parts.mlp_router import MlpRoutedExperts

        parts.append(_new(MlpRoutedExperts, (d, arch.num_experts, arch.expert_size, arch.router_hidden_size,
                                             ffn == MOE, "mlp")))
    elif ffn == MOE and arch.vision_moe_intermediate_size:  # ERNIE 4.5 VL's text and vision experts
        from ..parts.modality_experts import ModalityExperts

        parts.append(_new(ModalityExperts, (d, arch.num_experts, arch.expert_size, arch.vision_moe_intermediate_size,
                                            arch.shared_expert_size, arch.mlp_bias)))
    elif ffn == MOE and arch.moe_hidden_size:  # Muse Spark's experts in their own latent
        from ..parts.muse_spark_moe import LatentExperts

        parts.append(_new(LatentExperts, (d, arch.num_experts, arch.expert_size, arch.moe_hidden_size)))
    elif ffn == MOE and arch.expert_embeddings:
        from ..parts.expert_embeddings import ExpertEmbeddings

        parts.append(_new(ExpertEmbeddings, (d, ffn_size or arch.ffn_size, arch.num_experts, arch.mlp_gated,
                                             arch.mlp_bias)))
    elif ffn == MOE:
        beside = arch.moe_beside_dense_mlp  # the dense FFN and the experts side by side (Gemma4TextDecoderLayer)
        if beside:
            parts.append(dense)
        parts.append(_new(Experts, (d, arch.num_experts, arch.expert_size, arch.mlp_gated, arch.router_bias,
                                    arch.router_scales, arch.router_correction_bias, arch.shared_expert_size,
                                    arch.mlp_bias, arch.shared_expert_gate, arch.experts_output_bias,
                                    arch.moe_output_norm, beside, arch.moe_latent_size, arch.use_expert_bias)))
    elif ffn == DENSE:
        parts.append(dense)
    placement = arch.norm_placement  # a mixer's own placement where it keeps one (OLMo-Hybrid's DeltaNet layers)
    if mixer is not None and mixer != ATTENTION and mixer.norm_placement:
        placement = getattr(arch, mixer.norm_placement) or placement
    parts.append(_new(BlockNorms, (d, placement, mixer is not None, ffn is not None, attn_pre_norm)))
    if arch.altup_num_inputs or arch.laurel_rank or arch.hidden_size_per_layer_input:
        from ..parts.extras import Gemma3nExtras

        parts.append(_new(Gemma3nExtras, (d, arch.altup_num_inputs, arch.laurel_rank,
                                          arch.hidden_size_per_layer_input)))
    if arch.residual_scales:
        from ..parts.residual_scales import ResidualScales

        parts.append(_new(ResidualScales, (d,)))
    if arch.residual_gates:
        from ..parts.muse_spark_moe import ResidualGates

        parts.append(_new(ResidualGates, (d,)))
    if arch.residual_affine:
        from ..parts.residual_affine import ResidualAffine

        parts.append(_new(ResidualAffine, (d, "post_attention_residual_scale", "post_mlp_residual_scale")))
    if shared is not None:  # ZambaHybridLayer: the shared block, then the layer's own under Naming.inner_layer
        from ..parts.inner import InnerLayer

        parts = [_shared_block(arch, *shared), _new(InnerLayer, (_new(Layer, (tuple(parts),)),))]
    if passes != 1:  # the layer run again a token (layer_passes: HRM-Text's cycles), its tensors held once
        from ..parts.repeated import Repeated

        parts = [_new(Repeated, (_new(Layer, (tuple(parts),)), passes))]
    return _new(Layer, (tuple(parts),))


def _shared_block(arch: Any, block: int, source: int | None) -> SharedBlock:
    from ..parts.shared_block import SharedBlock

    d = arch.hidden_size
    uses = len(set(arch.shared_block_layers))
    return _new(SharedBlock, (d, arch.attention_hidden_size or 2 * d, arch.num_attention_heads, arch.kv_heads,
                              arch.attention_head_dim, arch.ffn_size, arch.mlp_bias, arch.adapter_rank,
                              arch.use_shared_attention_adapter, uses, block, arch.num_mem_blocks, source))


def _attention(arch: Any, sliding: bool, indexer: bool, layer_heads: int | None, output_bias: bool,
               kv_shared: bool, layer_head_dim: int | None, layer_kv_heads: int | None,
               values_from_keys: bool) -> Any:
    heads = layer_heads or arch.num_attention_heads
    sinks = arch.attention_sinks or (sliding and arch.sliding_attention_sinks)
    if arch.is_mla:
        from ..parts.latent import Indexer, LatentAttention, PooledIndexer

        own = None if not indexer else _new(Indexer, (arch.index_n_heads, arch.index_head_dim)) if (
            arch.index_kpool is None) else _new(PooledIndexer, (arch.index_n_heads, arch.index_head_dim,
                                                                arch.index_kpool))  # (GLM-5-Next's pools)
        return _new(LatentAttention, (arch.hidden_size, heads, arch.q_lora_rank, arch.kv_lora_rank,
                                      arch.qk_nope_head_dim, arch.qk_rope_head_dim, arch.v_head_dim,
                                      arch.attention_bias, output_bias, sinks, own, arch.index_topk,
                                      arch.attention_output_gate))
    head_dim = layer_head_dim or arch.attention_head_dim
    kv_heads = arch.sliding_num_key_value_heads if sliding and arch.sliding_num_key_value_heads else arch.kv_heads
    return _new(Attention, (arch.hidden_size, heads, layer_kv_heads or kv_heads, head_dim, arch.v_head_dim or head_dim,
                            arch.attention_bias, output_bias, arch.qk_norm, arch.qk_norm_bias,
                            arch.attention_output_gate, arch.attn_sub_norm, sinks, kv_shared, values_from_keys,
                            arch.num_experts if arch.attention_experts else 0, arch.attention_lambdas,
                            arch.attention_dynamic_mask))
