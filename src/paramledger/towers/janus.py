"""Janus's vision tower and projector (transformers 5.24.0 models/janus/modeling_janus.py); its VQ-VAE is janus_vq.py.

The tower, JanusVisionModel under model.vision_model, is SigLIP-like but its own: a biased patch conv, one learned
position row per patch (no class token), then per layer layer_norm1, the attention (q/k/v_proj biased by
attention_bias, an always-biased projection_layer in out_proj's place, and with use_qk_norm a LayerNorm over the
whole width on the queries and the keys, q_norm and k_norm), layer_norm2, the MLP (fc1 and fc2, biased, its width
int(hidden_size × mlp_ratio)); a post_layernorm and no pooling head.  VisionLayout has no switch for a qkv bias
apart from the output's, nor a width-wide q/k norm: the tower is listed here.

The projector is what JanusModel registers beside them: the aligner (JanusVisionAlignerMLP: fc1 from the tower's
width to vision_config's projection_dim, then depth - 1 hidden_layers at it, all biased), and the image-generation
parts read from vq_config: generation_embeddings (an nn.Embedding, num_embeddings × embed_dim), generation_aligner
(JanusVQVAEAlignerMLP: fc1 from embed_dim to projection_dim, num_hidden_layers - 1 hidden_layers) and generation_head
(JanusVQVAEHead: proj_out from image_token_embed_dim to projection_dim, vision_head to num_embeddings)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER, MAX_REPEAT
from ._kind import TowerKind, flag, section, stamped, whole_number
from .images import fixed
from .janus_vq import KEY, VQ_DEFAULTS

_new = tuple.__new__

VISION_DEFAULTS = {"model_type": "janus_vision_model", "hidden_size": 1024, "num_hidden_layers": 24,
                   "num_attention_heads": 16, "num_channels": 3, "image_size": 384, "patch_size": 16,
                   "mlp_ratio": 4.0, "attention_bias": True, "projection_dim": 2048, "use_qk_norm": False, "depth": 2}
"""transformers 5.24.0 models/janus/configuration_janus.py (JanusVisionConfig)."""


class JanusVisionTower(NamedTuple):
    """JanusVisionModel's sizes (vision_config, HF names) under its module path."""
    prefix: str  # "model.vision_model."
    hidden_size: int
    intermediate_size: int  # int(hidden_size × mlp_ratio)
    num_hidden_layers: int
    num_channels: int
    image_size: int
    patch_size: int
    attention_bias: bool
    use_qk_norm: bool
    projection_dim: int  # the aligner's, read by the projector
    depth: int

    @property
    def patches(self) -> int:
        """The position rows, and the tokens an image costs: (image_size // patch_size)²."""
        return (self.image_size // self.patch_size) ** 2

    def tensors(self) -> list[Tensor]:
        d, p = self.hidden_size, self.prefix

        def made(named: list[tuple[str, tuple[int, ...]]]) -> list[Tensor]:
            return [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in named]

        first = [("embeddings.patch_embedding.weight", (d, self.num_channels, self.patch_size, self.patch_size)),
                 ("embeddings.patch_embedding.bias", (d,)), ("embeddings.position_embedding.weight", (self.patches, d))]
        block = [("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,))]
        for projection in ("q_proj", "k_proj", "v_proj"):
            block.append((f"self_attn.{projection}.weight", (d, d)))
            if self.attention_bias:
                block.append((f"self_attn.{projection}.bias", (d,)))
        block += [("self_attn.projection_layer.weight", (d, d)), ("self_attn.projection_layer.bias", (d,))]
        if self.use_qk_norm:
            block += [("self_attn.q_norm.weight", (d,)), ("self_attn.q_norm.bias", (d,)),
                      ("self_attn.k_norm.weight", (d,)), ("self_attn.k_norm.bias", (d,))]
        inner = self.intermediate_size
        block += [("layer_norm2.weight", (d,)), ("layer_norm2.bias", (d,)),
                  ("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)),
                  ("mlp.fc2.weight", (d, inner)), ("mlp.fc2.bias", (d,))]
        layers = stamped([f"{p}encoder.layers.{i}." for i in range(self.num_hidden_layers)], block)
        return made(first) + layers + made([("post_layernorm.weight", (d,)), ("post_layernorm.bias", (d,))])

    def buffers(self) -> list[Buffer]:
        """JanusVisionEmbeddings' position_ids (int64, not in the checkpoint)."""
        return [Buffer(self.prefix + "embeddings.position_ids", (1, self.patches), "int64", False)]

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "embeddings.position_embedding.weight"]


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> JanusVisionTower:
    """The tower of ``vision`` (vision_config over JanusVisionConfig's defaults), each refusal one line."""
    try:
        return _made(prefix, vision)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None


def _made(prefix: str, vision: Mapping[str, Any]) -> JanusVisionTower:
    sizes = {key: whole_number(vision, key, "vision_config") for key in (
        "hidden_size", "num_hidden_layers", "num_attention_heads", "num_channels", "image_size", "patch_size",
        "projection_dim")}
    depth = whole_number(vision, "depth", "vision_config", 0)
    if max(sizes["num_hidden_layers"], depth) > MAX_REPEAT:  # enumerated one by one (docs/limits.md)
        key = "num_hidden_layers" if sizes["num_hidden_layers"] > MAX_REPEAT else "depth"
        raise ArchitectureError(f"vision_config.{key}", f"is beyond the bound of {MAX_REPEAT:,} (docs/limits.md)")
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    if width % heads:  # JanusVisionAttention: "embed_dim must be divisible by num_heads"
        raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads do not divide hidden_size="
                                f"{width}")
    if sizes["image_size"] < sizes["patch_size"]:
        raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than image_size="
                                f"{sizes['image_size']}")
    ratio = vision.get("mlp_ratio")
    if not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or not math.isfinite(ratio) or ratio <= 0:
        raise ArchitectureError("vision_config.mlp_ratio", f"must be a number above 0, got {ratio!r}")
    inner = int(width * ratio)  # JanusVisionMLP
    if not 1 <= inner <= MAX_INTEGER:
        raise ArchitectureError("vision_config.mlp_ratio", f"gives an MLP {inner} wide (int(hidden_size × mlp_ratio)):"
                                f" it must be a whole number from 1 within the bound")
    return JanusVisionTower(prefix, width, inner, sizes["num_hidden_layers"], sizes["num_channels"],
                            sizes["image_size"], sizes["patch_size"], flag(vision, "attention_bias", "vision_config"),
                            flag(vision, "use_qk_norm", "vision_config"), sizes["projection_dim"], depth)


def _mlp(name: str, width: int, inner: int, layers: int) -> list[tuple[str, tuple[int, ...]]]:
    """fc1 (width -> inner) and layers - 1 hidden_layers at inner, all biased (the two aligners)."""
    out = [(f"{name}.fc1.weight", (inner, width)), (f"{name}.fc1.bias", (inner,))]
    for i in range(layers - 1):
        out += [(f"{name}.hidden_layers.{i}.weight", (inner, inner)), (f"{name}.hidden_layers.{i}.bias", (inner,))]
    return out


def janus(config: Mapping[str, Any], vision: JanusVisionTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """The aligner, then the generation embeddings, aligner and head (under the projector prefix "model.")."""
    vq = section(config, KEY, VQ_DEFAULTS)
    codes, embed, width, image_embed = (whole_number(vq, key, KEY) for key in (
        "num_embeddings", "embed_dim", "projection_dim", "image_token_embed_dim"))
    layers = whole_number(vq, "num_hidden_layers", KEY, 0)
    if layers > MAX_REPEAT:
        raise ArchitectureError(f"{KEY}.num_hidden_layers", f"is beyond the bound of {MAX_REPEAT:,} (docs/limits.md)")
    return [*_mlp("aligner", vision.hidden_size, vision.projection_dim, vision.depth),
            ("generation_embeddings.weight", (codes, embed)), *_mlp("generation_aligner", embed, width, layers),
            ("generation_head.proj_out.weight", (width, image_embed)), ("generation_head.proj_out.bias", (width,)),
            ("generation_head.vision_head.weight", (codes, width)), ("generation_head.vision_head.bias", (codes,))]


def _grid(config: Mapping[str, Any], tower: Any) -> int:
    """The vision tower's patch grid, read from vision_config (the rule is handed the first tower registered, the
    VQ-VAE, a sub-tower; the tower made from these values has refused any it cannot take)."""
    vision = section(config, "vision_config", VISION_DEFAULTS)
    return (vision["image_size"] // vision["patch_size"]) ** 2


# JanusProcessor expands each image to num_image_tokens placeholders, which the aligner's features (one per patch)
# replace one for one (JanusModel.get_placeholder_mask refuses any other count)
IMAGE_TOKENS = fixed(_grid)

TOWERS = {"janus_vision_model": TowerKind(VISION_DEFAULTS, make)}
