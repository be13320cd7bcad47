"""The refusals between the flat keys of an Architecture: what the parts a design becomes need of
each other (per-layer lists as long as the depth, sizes that divide, an option only with the part it
belongs to).  Sizes, enumerations and the keys every design has are checked in architecture.py first;
these run after, in Architecture.validate, each refusal one line naming the key."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from .._exceptions import ArchitectureError
from ..parts import MIXERS
from ..parts.sublayers import engaged_kinds

if TYPE_CHECKING:
    from ..architecture import Architecture


def check_structure(arch: Architecture, where: str | None) -> None:
    """Per-layer heads, the indexer, a pruned head, sub-norms and a learned activation."""
    check_per_layer_ffn_and_inputs(arch, where)
    if arch.position_offset is not None and arch.max_position_embeddings + arch.position_offset < 1:
        raise ArchitectureError("position_offset", f"{arch.position_offset:,} leaves a learned position table of "
                                f"{arch.max_position_embeddings + arch.position_offset:,} rows (max_position_embeddings"
                                f"={arch.max_position_embeddings:,} plus it)", where)
    if arch.rope_type != "default":
        from ..families.even_rotary import ROPE_REQUIRES  # (transformers' ROPE_INIT_FUNCTIONS and "default")

        if arch.rope_type not in ROPE_REQUIRES:
            raise ArchitectureError("rope_type", f"{arch.rope_type!r} is not a rope_type transformers 5.24.0 makes "
                                    f"({', '.join(ROPE_REQUIRES)})"[:300], where)
    engaged, sublayers = engaged_kinds(arch)
    for sublayer in sublayers:
        sublayer.check(arch, where)
    if engaged or arch.layers_without_mixer or arch.layers_without_ffn or arch.layers_without_attn_pre_norm:
        check_layer_lists(arch, where)
        for kind in engaged:
            kind.check(arch, where)
    if (arch.shared_block_layers or arch.num_mem_blocks != 1 or arch.adapter_rank is not None
            or arch.use_shared_attention_adapter or arch.attention_hidden_size is not None):
        check_shared_blocks(arch, where)
    if arch.attention_shapes_differ or arch.moe_beside_dense_mlp or arch.router_scales:
        check_per_layer_attention(arch, where)
    if arch.num_attention_heads_per_layer:
        per_layer = arch.num_attention_heads_per_layer
        if len(per_layer) != arch.num_hidden_layers:
            raise ArchitectureError("num_attention_heads_per_layer", f"has {len(per_layer)} entries for "
                                    f"num_hidden_layers={arch.num_hidden_layers}", where)
        if arch.is_mla:
            raise ArchitectureError("num_attention_heads_per_layer", "is built for multi-head attention, not "
                                    "with kv_lora_rank (multi-head latent attention)", where)
        for layer, heads in enumerate(per_layer):
            if heads < 1 or heads % arch.kv_heads:
                raise ArchitectureError("num_attention_heads_per_layer", f"layer {layer}: {heads} heads is not a "
                                        f"positive multiple of the {arch.kv_heads} key/value heads", where)
    if arch.attention_experts and arch.is_moe:
        if arch.is_mla:
            raise ArchitectureError("attention_experts", "is built for multi-head attention, not with "
                                                         "kv_lora_rank (multi-head latent attention)", where)
        if arch.num_attention_heads != arch.num_experts_per_tok * arch.kv_heads:
            raise ArchitectureError("attention_experts", f"num_attention_heads={arch.num_attention_heads} is not "
                                    f"num_experts_per_tok × num_key_value_heads = {arch.num_experts_per_tok} × "
                                    f"{arch.kv_heads} (each routed expert holds one set of the KV heads' queries)",
                                    where)
    if arch.attention_output_bias_layers:
        if arch.attention_output_bias:
            raise ArchitectureError("attention_output_bias_layers", "set with attention_output_bias (every "
                                    "layer's output projection already has a bias)", where)
        for layer in arch.attention_output_bias_layers:
            if not 0 <= layer < arch.num_hidden_layers:
                raise ArchitectureError("attention_output_bias_layers", f"layer {layer} is outside "
                                        f"0..{arch.num_hidden_layers - 1}", where)
    if arch.index_n_heads is not None:
        if arch.q_lora_rank is None or not arch.is_mla:
            raise ArchitectureError("index_n_heads", "needs kv_lora_rank and q_lora_rank (the indexer's "
                                    "queries read the q LoRA latent of multi-head latent attention)", where)
        if arch.index_head_dim is None:
            raise ArchitectureError("index_head_dim", "required with index_n_heads (the lightning indexer)", where)
        if arch.index_head_dim < arch.qk_rope_head_dim:
            raise ArchitectureError("index_head_dim", f"{arch.index_head_dim} is narrower than qk_rope_head_dim="
                                    f"{arch.qk_rope_head_dim} (the indexer ropes that many channels)", where)
        if arch.indexer_types:
            if len(arch.indexer_types) != arch.num_hidden_layers:
                raise ArchitectureError("indexer_types", f"has {len(arch.indexer_types)} entries for "
                                        f"num_hidden_layers={arch.num_hidden_layers}", where)
            wrong = next((t for t in arch.indexer_types if t not in ("full", "shared")), None)
            if wrong is not None:
                raise ArchitectureError("indexer_types", f"{wrong!r} is not one of full, shared", where)
            if arch.indexer_types[0] != "full":
                raise ArchitectureError("indexer_types", "layer 0 is shared: a shared layer reuses an earlier "
                                        "full layer's selection", where)
    else:
        for key in ("index_head_dim", "index_topk", "indexer_types", "index_kpool"):
            if getattr(arch, key):
                raise ArchitectureError(key, "set without index_n_heads (the lightning indexer)", where)
    if arch.output_vocab_size is not None:
        if arch.output_vocab_size > arch.vocab_size:
            raise ArchitectureError("output_vocab_size", f"{arch.output_vocab_size} is more than vocab_size="
                                    f"{arch.vocab_size} (a pruned head keeps ids 0..output_vocab_size - 1)", where)
        if arch.tie_word_embeddings and arch.output_vocab_size != arch.vocab_size:
            raise ArchitectureError("output_vocab_size", "a pruned head cannot be tied to the token table "
                                    "(set tie_word_embeddings false)", where)
    if (arch.tie_word_embeddings and arch.output_embedding_size is not None
            and arch.output_embedding_size != (arch.embedding_size or arch.hidden_size)):
        raise ArchitectureError("output_embedding_size", f"{arch.output_embedding_size} is not the token table's "
                                "width: a head that wide cannot be tied to it (set tie_word_embeddings false)", where)
    if arch.lm_head_rest and (arch.embedding_size or arch.hidden_size) > arch.hidden_size:
        raise ArchitectureError("embedding_size", f"{arch.embedding_size} is wider than hidden_size="
                                f"{arch.hidden_size}: the head's columns past the table's would be fewer than none",
                                where)
    _latents(arch, where)
    if (arch.entity_vocab_size is None) != (arch.entity_emb_size is None):  # LUKE's entity table: rows and width
        key, other = (("entity_emb_size", "entity_vocab_size") if arch.entity_vocab_size is not None else
                      ("entity_vocab_size", "entity_emb_size"))
        raise ArchitectureError(key, f"must be given with {other} (LUKE's entity table is entity_vocab_size × "
                                "entity_emb_size)", where)
    if arch.inner_group_num is not None and arch.num_hidden_layers % arch.inner_group_num:  # (ALBERT's, --set)
        raise ArchitectureError("num_hidden_layers", f"{arch.num_hidden_layers} is not a whole number of groups of "
                                f"inner_group_num={arch.inner_group_num} (each AlbertLayerGroup holds that many)", where)
    if arch.encoder_conv_groups is not None and arch.hidden_size % arch.encoder_conv_groups:  # (DeBERTa-v2's, --set)
        raise ArchitectureError("encoder_conv_groups", f"{arch.encoder_conv_groups} does not divide hidden_size="
                                f"{arch.hidden_size} (nn.Conv1d's in_channels must be divisible by groups)", where)
    for key, on in (("attn_sub_norm", arch.attn_sub_norm),
                    ("attention_output_gate", arch.attention_output_gate not in ("none", "per_head")),
                    ("attention_lambdas", arch.attention_lambdas)):
        if on and arch.is_mla:
            raise ArchitectureError(key, "is built for multi-head attention's output, not with kv_lora_rank "
                                         "(multi-head latent attention)", where)
    if arch.is_moe:
        for key, on in (("ffn_sub_norm", arch.ffn_sub_norm), ("hidden_act", arch.learned_activation)):
            if on and len(arch.mlp_only_layers) < arch.num_hidden_layers:
                what = "an FFN sub-norm" if key == "ffn_sub_norm" else "xielu's learned alpha_p and alpha_n"
                raise ArchitectureError(key, f"{what} is built for dense FFNs only, not for routed experts", where)


def check_per_layer_attention(arch: Architecture, where: str | None) -> None:
    """Per-layer head widths and KV heads, values from keys, a dense FFN beside the experts."""
    layers = arch.num_hidden_layers
    for key in ("head_dim_per_layer", "num_key_value_heads_per_layer"):
        per_layer = getattr(arch, key)
        if not per_layer:
            continue
        if len(per_layer) != layers:
            raise ArchitectureError(key, f"has {len(per_layer)} entries for num_hidden_layers={layers}", where)
        if min(per_layer) < 1:
            raise ArchitectureError(key, "every entry must be positive", where)
        if arch.is_mla or arch.attention_experts or arch.sliding_layers_differ or arch.v_head_dim:
            raise ArchitectureError(key, "is built for plain multi-head attention (not with MLA, attention "
                                    "experts, sliding KV heads or v_head_dim)", where)
    per_layer_kv = arch.num_key_value_heads_per_layer
    if per_layer_kv:
        if arch.num_attention_heads_per_layer:
            wrong = [(layer, kv) for layer, kv in enumerate(per_layer_kv) if arch.layer_heads(layer) % kv]
        else:  # one query-head count: each distinct KV head count is checked once
            odd = {kv for kv in set(per_layer_kv) if arch.num_attention_heads % kv}
            wrong = [(layer, kv) for layer, kv in enumerate(per_layer_kv) if kv in odd] if odd else []
        if wrong:
            layer, kv_heads = wrong[0]
            raise ArchitectureError("num_key_value_heads_per_layer", f"layer {layer}: {kv_heads} does not "
                                    f"divide its {arch.layer_heads(layer)} query heads", where)
    if arch.attention_k_eq_v and (arch.is_mla or arch.attention_experts or arch.v_head_dim):
        raise ArchitectureError("attention_k_eq_v", "is built for plain multi-head attention (not with MLA, "
                                "attention experts or v_head_dim)", where)
    if (arch.num_kv_shared_layers and (arch.head_dim_per_layer or arch.num_key_value_heads_per_layer)
            and len(arch.layer_types) in (0, layers)):  # a pattern of another length is refused in validate
        first = layers - arch.num_kv_shared_layers
        for layer in range(first, layers):
            kind = arch.is_sliding_layer(layer)
            source = max((i for i in range(first) if arch.is_sliding_layer(i) == kind), default=layer)
            if (arch.layer_head_dim(layer), arch.layer_kv_heads(layer)) != (
                    arch.layer_head_dim(source), arch.layer_kv_heads(source)):
                raise ArchitectureError("num_kv_shared_layers", f"layer {layer} reuses layer {source}'s keys "
                                        "and values but its head_dim or KV heads differ", where)
    for key in ("moe_beside_dense_mlp", "router_scales"):
        if getattr(arch, key) and not arch.is_moe:
            raise ArchitectureError(key, "set without num_experts", where)
    if arch.moe_beside_dense_mlp and arch.mlp_only_layers:
        raise ArchitectureError("moe_beside_dense_mlp", "set with mlp_only_layers (every layer runs both "
                                "the dense FFN and the experts)", where)


def check_per_layer_ffn_and_inputs(arch: Architecture, where: str | None) -> None:
    """Per-layer FFN widths, shared keys and values, per-layer inputs, AltUp and LAuReL."""
    if arch.intermediate_size_per_layer:
        widths = arch.intermediate_size_per_layer
        if len(widths) != arch.num_hidden_layers:
            raise ArchitectureError("intermediate_size_per_layer", f"has {len(widths)} entries for "
                                    f"num_hidden_layers={arch.num_hidden_layers}", where)
        if any(width < 1 for width in widths):
            raise ArchitectureError("intermediate_size_per_layer", "every width must be positive", where)
        if arch.is_moe and not arch.moe_beside_dense_mlp:
            raise ArchitectureError("intermediate_size_per_layer", "is built for dense FFNs, not with "
                                    "num_experts (unless moe_beside_dense_mlp)", where)
    if arch.layer_passes:  # each layer's runs a token, 0 or more (parts/repeated.py; 0: a layer that never runs)
        passes = arch.layer_passes
        if len(passes) != arch.num_hidden_layers:  # (a copy at another depth keeps the list: give it too)
            raise ArchitectureError("layer_passes", f"has {len(passes)} entries for num_hidden_layers="
                                    f"{arch.num_hidden_layers} (each layer's runs a token)", where)
        if arch.is_moe:  # a repeated run's matmul weights are a dense layer's: no top-k of experts read again
            raise ArchitectureError("layer_passes", "is built for dense FFNs, not with num_experts", where)
    shared = arch.num_kv_shared_layers
    if shared:
        if shared > arch.num_hidden_layers:  # all of them: every layer reads another model's (Gemma 4's assistants)
            raise ArchitectureError("num_kv_shared_layers", f"{shared} is more than the {arch.num_hidden_layers} "
                                    "layers", where)
        if arch.is_mla or arch.attention_experts or arch.sliding_layers_differ or arch.index_n_heads:
            raise ArchitectureError("num_kv_shared_layers", "is built for plain multi-head attention (not with "
                                    "MLA, attention experts, sliding KV heads or an indexer)", where)
        first = arch.num_hidden_layers - shared
        if first and arch.layer_types and set(arch.layer_types[:first]) != set(arch.layer_types):
            raise ArchitectureError("num_kv_shared_layers", "a shared layer's attention type has no earlier "
                                    "layer of that type to share keys and values from", where)
    if arch.vocab_size_per_layer_input is not None:
        if not arch.hidden_size_per_layer_input:
            raise ArchitectureError("vocab_size_per_layer_input", "set without hidden_size_per_layer_input "
                                    "(the per-layer inputs)", where)


_MIXER_KEYS = (*(kind.layers_key for kind in MIXERS), "layers_without_mixer")
_LIST_KEYS = (*_MIXER_KEYS, "layers_without_ffn", "layers_without_attn_pre_norm")
_read_lists = attrgetter(*_LIST_KEYS)  # every list at C speed (two dozen getattr calls on every count before)


def check_layer_lists(arch: Architecture, where: str | None) -> None:
    """The per-layer lists that say which mixer or FFN a layer holds: in range, and no layer named by two
    mixers' lists (each kind's own refusals are its module's: parts.MIXERS)."""
    values = _read_lists(arch)
    if not any(values):  # no list given (most designs): nothing to check
        return
    last, mixers = arch.num_hidden_layers - 1, _MIXER_KEYS
    lists = list(zip(_LIST_KEYS, values))
    # At C speed first (a Mamba lists every layer twice, on every count); the loop below names the layer.
    in_range = all(not listed or (min(listed) >= 0 and max(listed) <= last) for _, listed in lists)
    held = sum(values[:len(mixers)], ())
    if not in_range or len(set(held)) != len(held):
        seen: dict[int, str] = {}
        for key, listed in lists:
            for layer in listed:
                if not 0 <= layer <= last:
                    raise ArchitectureError(key, f"layer {layer} is outside 0..{last}", where)
                if key in mixers:
                    other = seen.setdefault(layer, key)
                    if other != key:
                        raise ArchitectureError(key, f"layer {layer} is in {other} too (a layer holds one token "
                                                "mixer)", where)


SHARED_BLOCK_KEYS = {"num_mem_blocks": 1, "adapter_rank": None, "use_shared_attention_adapter": False,
                     "attention_hidden_size": None}
"""What a shared block (parts/shared_block.py) reads beside shared_block_layers, with the value that means
nothing without them: any other is refused without them."""


def check_shared_blocks(arch: Architecture, where: str | None) -> None:
    """The layers that run a shared block: in range, each once, and the block's options only with such
    layers (q, k and v adapters only with an adapter rank)."""
    layers = arch.shared_block_layers
    if not layers:
        key = next(key for key, unset in SHARED_BLOCK_KEYS.items() if getattr(arch, key) != unset)
        raise ArchitectureError(key, "set without shared_block_layers (the layers that run a shared block)", where)
    last = arch.num_hidden_layers - 1
    for layer in layers:
        if not 0 <= layer <= last:
            raise ArchitectureError("shared_block_layers", f"layer {layer} is outside 0..{last}", where)
    if len(set(layers)) != len(layers):
        raise ArchitectureError("shared_block_layers", "lists a layer twice (a layer runs the shared block once)",
                                where)
    if arch.use_shared_attention_adapter and arch.adapter_rank is None:
        raise ArchitectureError("use_shared_attention_adapter", "set without adapter_rank (the adapters' rank)",
                                where)
    if arch.is_mla or arch.attention_experts:
        raise ArchitectureError("shared_block_layers", "a shared block holds plain multi-head attention (not with "
                                "kv_lora_rank or attention_experts)", where)


LATENT_CROSS = ("latent_cross_qk_channels", "latent_cross_v_channels", "latent_cross_widening_factor")


def _latents(arch: Architecture, where: str | None) -> None:
    """Perceiver's latent array (perceiver_tables.py): its cross-attention's sizes mean nothing without it, and its
    head is the token table itself (nothing to tie)."""
    if arch.num_latents is None:
        for key in LATENT_CROSS:
            if getattr(arch, key) is not None:
                raise ArchitectureError(key, "set without num_latents (a Perceiver's latent array)", where)
    elif arch.tie_word_embeddings:
        raise ArchitectureError("tie_word_embeddings", "a latent model's head reads the token table in forward: no "
                                "head of its own to tie (set it false)", where)
