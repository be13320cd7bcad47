"""IDEFICS (1)'s parts beside its Llama-like decoder (transformers 5.24.0 models/idefics: vision.py, perceiver.py,
modeling_idefics.py; docs/notes/multimodal-idefics.md): the vision tower (IdeficsVisionTransformer, CLIP's
layout under model.vision_model, read from vision_config whose width is embed_dim), the perceiver resampler when
use_resampler (IdeficsPerceiverResampler, the projector's place under model.perceiver_resampler), and what
IdeficsModel and IdeficsForVisionText2Text hold beside the decoder layers: the gated cross-attention layers (their
own nn.ModuleList, registered after model.layers) and the decoupled extra rows of the token table and the head
(additional_vocab_size).  towers/idefics.py is Idefics2's and Idefics3's, another lineage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import big
from ._kind import TOWER_LAYERS, TowerKind, flag, positive, section
from .vision import CLIP, VisionTower, vit

_new = tuple.__new__

VISION_DEFAULTS = {"embed_dim": 768, "image_size": 224, "intermediate_size": 5120, "patch_size": 14,
                   "num_hidden_layers": 32, "num_attention_heads": 16, "num_channels": 3}
"""transformers 5.24.0 models/idefics/configuration_idefics.py (IdeficsVisionConfig; hidden_size is embed_dim
through its attribute_map)."""
PERCEIVER_DEFAULTS = {"resampler_n_latents": 64, "resampler_depth": 6, "resampler_n_heads": 16,
                      "resampler_head_dim": 96, "qk_layer_norms_perceiver": False}
"""transformers 5.24.0 models/idefics/configuration_idefics.py (IdeficsPerceiverConfig; its own use_resampler is
never read: IdeficsModel reads the whole config's)."""
ALPHA_SHAPES = {"float": (1,), "vector": None}  # IdeficsGatedCrossAttentionLayer: torch.zeros(1) or (1, 1, hidden)
ALPHA_INITIALIZERS = ("zeros", "ones", "normal", "gaussian", "random")  # any other: NotImplementedError

_clip = vit(CLIP)


def make_vision(prefix: str, vision: Mapping[str, Any], where: str | None) -> VisionTower:
    """IdeficsVisionTransformer: CLIPVisionTransformer's tensors and names (class token, unbiased patch conv,
    learned positions and their position_ids buffer, pre_layrnorm, k/v/q/out_proj, layer_norm1, mlp, layer_norm2,
    post_layernorm), its width embed_dim (or hidden_size, the attribute_map's other name, where given)."""
    key = "hidden_size" if "hidden_size" in vision else "embed_dim"
    width = positive(vision, key, "vision_config", where)
    return _clip(prefix, {**vision, "hidden_size": width}, where)


TOWERS = {"idefics_vision": TowerKind(VISION_DEFAULTS, make_vision)}


def _switch(config: Mapping[str, Any], key: str) -> bool:
    """The whole config's bool ``key`` (IdeficsConfig: False), refused in one line unless true or false."""
    value = config.get(key, False)
    if not isinstance(value, bool):
        raise ArchitectureError(key, f"must be true or false, got {value!r}"[:200])
    return value


def perceiver(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """IdeficsPerceiverResampler (perceiver.py lines 46-91), built where the whole config's use_resampler: latents
    (n_latents, embed_dim), resampler_depth blocks of an attention (context_layer_norm, latents_layer_norm, q/k
    LayerNorms over head_dim where qk_layer_norms_perceiver, unbiased q/k/v to heads × head_dim and output_proj
    back) and a ReLU MLP 4 × embed_dim wide (ln, fc, c_proj unbiased), then layer_norm; embed_dim is the tower's."""
    if not _switch(config, "use_resampler"):
        return []
    given = section(config, "perceiver_config", PERCEIVER_DEFAULTS)
    latents, depth, heads, head_dim = (positive(given, key, "perceiver_config") for key in
                                       ("resampler_n_latents", "resampler_depth", "resampler_n_heads",
                                        "resampler_head_dim"))
    if depth > TOWER_LAYERS:
        raise ArchitectureError("perceiver_config.resampler_depth", f"{big(depth)} is beyond the bound of "
                                f"{TOWER_LAYERS:,} a tower's layers are named to (docs/limits.md)")
    qk_norms = flag(given, "qk_layer_norms_perceiver", "perceiver_config")
    width, inner = tower.hidden_size, heads * head_dim
    out: list[tuple[str, tuple[int, ...]]] = [("latents", (latents, width))]
    for i in range(depth):
        attn, mlp = f"blocks.{i}.0.", f"blocks.{i}.1."
        out += [(attn + norm + part, (width,)) for norm in ("context_layer_norm", "latents_layer_norm")
                for part in (".weight", ".bias")]
        if qk_norms:
            out += [(attn + norm + part, (head_dim,)) for norm in ("q_layer_norm", "k_layer_norm")
                    for part in (".weight", ".bias")]
        out += [(attn + "q_proj.weight", (inner, width)), (attn + "k_proj.weight", (inner, width)),
                (attn + "v_proj.weight", (inner, width)), (attn + "output_proj.weight", (width, inner)),
                (mlp + "ln.weight", (width,)), (mlp + "ln.bias", (width,)),
                (mlp + "fc.weight", (4 * width, width)), (mlp + "c_proj.weight", (width, 4 * width))]
    return out + [("layer_norm.weight", (width,)), ("layer_norm.bias", (width,))]


class Beside(NamedTuple):
    """Tensors IdeficsModel and IdeficsForVisionText2Text hold beside the decoder's layers, under their full names
    (the family's model_order places them); ``aliases_``: the head's extra rows tied to the table's."""
    tensors_: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...] = ()
    aliases_: tuple[tuple[str, str], ...] = ()
    rotary_width: int = 0  # each IdeficsRotaryEmbedding's inv_freq length, the decoder layers' too (ROTARY reads it)
    # formula_towers.stand_in_towers: why the closed form is refused
    untraced = ("its gated cross-attention layers and decoupled rows (towers/idefics1.py) are made beside the "
                "decoder by a rule of their own, which the builder cannot trace symbolically")

    def tensors(self) -> list[Tensor]:
        return list(self.tensors_)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def aliases(self) -> dict[str, str]:
        return dict(self.aliases_)

    def looked_up(self) -> dict[str, str]:
        """None of its aliases is a table looked up (towers.tower_aliases): the tied additional_fc is a Linear."""
        return {}


def _tensor(name: str, shape: tuple[int, ...], component: str) -> Tensor:
    return _new(Tensor, (name, shape, component, None, False, 0))


def _decoupled(config: Mapping[str, Any], hidden: int) -> Beside:
    """IdeficsDecoupledEmbedding's additional_embedding (additional_vocab_size rows) and IdeficsDecoupledLinear's
    additional_fc (as many outputs, unbiased), tied to it where the head is tied (IdeficsForVisionText2Text's
    _tied_weights_keys, modeling_idefics.py lines 1071-1075); none at 0."""
    extra = config.get("additional_vocab_size", 0)
    if type(extra) is not int or extra < 0:
        raise ArchitectureError("additional_vocab_size", f"must be a whole number from 0, got {extra!r}"[:200])
    if extra == 0:
        return Beside(())
    extra = positive(config, "additional_vocab_size", "")  # (bounded)
    table, head = "model.embed_tokens.additional_embedding.weight", "lm_head.additional_fc.weight"
    if config.get("tie_word_embeddings") is True:
        return Beside((_tensor(table, (extra, hidden), "embedding"),), aliases_=((head, table),))
    return Beside((_tensor(table, (extra, hidden), "embedding"), _tensor(head, (extra, hidden), "lm_head")))


def _cross_layers(config: Mapping[str, Any], decoder: Any, vision_width: int) -> Beside:
    """IdeficsGatedCrossAttentionLayer (modeling_idefics.py lines 660-725), num_hidden_layers //
    cross_layer_interval of them under model.gated_cross_attn_layers: the two tanh gates (alpha_type "float": one
    value each, "vector": (1, 1, hidden)), cross_attn (IdeficsAttention: q and o hidden × hidden, k and v from the
    vision width, unbiased; RMSNorm q_layer_norm and k_layer_norm over head_dim where qk_layer_norms), the gated MLP,
    input_layernorm and post_attention_layernorm; each attention holds its own rotary_emb buffers."""
    interval = positive({"cross_layer_interval": config.get("cross_layer_interval", 1)}, "cross_layer_interval", "")
    alpha_type = config.get("alpha_type", "float")
    if alpha_type not in ALPHA_SHAPES:
        raise ArchitectureError("alpha_type", f"must be \"float\" or \"vector\", got {alpha_type!r}"[:200])
    initializer = config.get("alpha_initializer", "zeros")
    if initializer not in ALPHA_INITIALIZERS:
        raise ArchitectureError("alpha_initializer", f"must be one of {', '.join(ALPHA_INITIALIZERS)} "
                                f"(IdeficsGatedCrossAttentionLayer builds no other), got {initializer!r}"[:200])
    if alpha_type == "float" and initializer not in ("zeros", "ones"):
        # modeling_idefics.py lines 714-717: torch.normal(..., size=(1)), an int where torch takes a tuple
        raise ArchitectureError("alpha_initializer", f"transformers 5.24.0 cannot build {initializer!r} with "
                                "alpha_type \"float\" (IdeficsGatedCrossAttentionLayer calls torch.normal with "
                                "size=(1), not a tuple): use \"zeros\" or \"ones\", or alpha_type \"vector\"")
    qk_norms = _switch(config, "qk_layer_norms")
    hidden, heads, inner = decoder.hidden_size, decoder.num_attention_heads, decoder.intermediate_size
    if hidden % heads:
        raise ArchitectureError("num_attention_heads", f"{heads} heads do not divide hidden_size={hidden} "
                                "(IdeficsAttention)")
    head_dim, layers = hidden // heads, decoder.num_hidden_layers // interval
    if layers > TOWER_LAYERS:
        raise ArchitectureError("num_hidden_layers", f"{big(layers)} gated cross-attention layers are beyond the "
                                f"bound of {TOWER_LAYERS:,} they are named to (docs/limits.md)")
    alpha = ALPHA_SHAPES[alpha_type] or (1, 1, hidden)
    block = [("alpha_cross_attn", alpha, "attention"), ("alpha_dense", alpha, "ffn"),
             ("cross_attn.q_proj.weight", (hidden, hidden), "attention"),
             ("cross_attn.k_proj.weight", (hidden, vision_width), "attention"),
             ("cross_attn.v_proj.weight", (hidden, vision_width), "attention"),
             ("cross_attn.o_proj.weight", (hidden, hidden), "attention")]
    if qk_norms:
        block += [("cross_attn.q_layer_norm.weight", (head_dim,), "norm"),
                  ("cross_attn.k_layer_norm.weight", (head_dim,), "norm")]
    block += [("mlp.gate_proj.weight", (inner, hidden), "ffn"), ("mlp.down_proj.weight", (hidden, inner), "ffn"),
              ("mlp.up_proj.weight", (inner, hidden), "ffn"), ("input_layernorm.weight", (hidden,), "norm"),
              ("post_attention_layernorm.weight", (hidden,), "norm")]
    # IdeficsRotaryEmbedding (line 359): torch.arange(0, dim, 2), float32, not persistent, dim the config's head_dim
    # attribute where it has one (a key IdeficsConfig does not declare; it sizes nothing else), else hidden // heads
    rotary_dim = config.get("head_dim")
    if rotary_dim is not None and (type(rotary_dim) is not int or rotary_dim <= 0):
        raise ArchitectureError("head_dim", f"must be a positive whole number or null, got {rotary_dim!r}"[:200])
    rotary = (((rotary_dim or head_dim) + 1) // 2,)
    prefixes = [f"model.gated_cross_attn_layers.{j}." for j in range(layers)]
    return Beside(tuple(_new(Tensor, (prefix + name, shape, component, None, False, 0)) for prefix in prefixes
                        for name, shape, component in block),
                  tuple(Buffer(f"{prefix}cross_attn.rotary_emb.{which}", rotary, "float32", False)
                        for prefix in prefixes for which in ("inv_freq", "original_inv_freq")), (), rotary[0])


def beside_decoder(config: Mapping[str, Any], where: str | None, decoder: Any) -> list[Beside]:
    """Whole.made: the decoupled rows and the gated cross-attention layers, sized by the decoder's design (a --set
    width reaches them) and the vision tower's width."""
    vision = {**VISION_DEFAULTS, **(config.get("vision_config") or {})}
    key = "hidden_size" if "hidden_size" in vision else "embed_dim"
    try:
        width = positive(vision, key, "vision_config")
        return [_decoupled(config, decoder.hidden_size), _cross_layers(config, decoder, width)]
    except ArchitectureError as error:  # said about this config
        raise ArchitectureError(error.key, error.message, where) from None
