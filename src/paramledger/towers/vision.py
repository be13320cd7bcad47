"""A vision tower: a ViT encoder (SigLIP, CLIP, Pixtral, Idefics3's) as another stack of the decoder's parts.

The patches are embedded by a conv (patch_size × patch_size, num_channels in), positions learned per patch
(CLIP adds a class token and its position), then num_hidden_layers layers of the same parts a decoder layer is
made of (parts/attention.py, ffn.py, norms.py: pre-norm attention and FFN, biased or not, gated or not), named
by a Naming of the tower's own, and a final norm; SigLIP can end in an attention-pooling head.  Every tensor
is the "vision" component.  What differs between towers is data: ``VisionLayout``."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..design.layers import Layer
from ..inventory import Buffer, Tensor, _position_in
from ..naming import Naming
from ..parts.attention import Attention
from ..parts.ffn import DenseFFN
from ..parts.norms import BlockNorms
from ._kind import TowerKind, stamped

_new = tuple.__new__


class VisionLayout(NamedTuple):
    """How one tower family names and builds what its config does not say (transformers' modeling file)."""
    naming: Naming  # the layers' names, relative to the tower: ``layer`` is "encoder.layers.{i}"
    patch: str = "embeddings.patch_embedding"
    patch_bias: bool = True
    positions: str | None = "embeddings.position_embedding"  # a learned row per patch; None: none (RoPE)
    class_embedding: str | None = None  # CLIP's class token (one more position row)
    pre_norm: str | None = None  # a norm before the layers (CLIP's pre_layrnorm, Pixtral's ln_pre)
    post_norm: str | None = "post_layernorm"
    norm_type: str = "layernorm"
    gated: bool = False  # a gated FFN (Pixtral)
    bias: bool = True  # biases on the attention and FFN projections
    head: str | None = None  # SigLIP's attention-pooling head, where vision_use_head is set


class VisionTower(NamedTuple):
    """One tower as a config gives it (the vision_config keys, HF names) under its module path."""
    prefix: str  # e.g. "model.vision_tower."
    layout: VisionLayout
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_channels: int
    image_size: int
    patch_size: int
    head_dim: int | None = None  # None: hidden_size // num_attention_heads
    use_head: bool = False  # SigLIP's vision_use_head

    @property
    def patches(self) -> int:
        """Patches of one image: (image_size / patch_size)², the positions of the learned table."""
        return (self.image_size // self.patch_size) ** 2

    def tensors(self) -> list[Tensor]:
        """Every tensor of the tower, full names, in transformers' registration order."""
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        """The tensors, made anew (tensors() reads them from the cache of _listed)."""
        lay, d, p = self.layout, self.hidden_size, self.prefix
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "vision", None, False, 0)))

        if lay.class_embedding is not None:
            add(lay.class_embedding, (d,))
        add(lay.patch + ".weight", (d, self.num_channels, self.patch_size, self.patch_size))
        if lay.patch_bias:
            add(lay.patch + ".bias", (d,))
        if lay.positions is not None:
            add(lay.positions + ".weight", (self.patches + (lay.class_embedding is not None), d))
        norm_bias = lay.norm_type == "layernorm"
        if lay.pre_norm is not None:
            _norm(add, lay.pre_norm, d, norm_bias)
        block = self._layer().tensors(lay.naming, lay.norm_type)
        if lay.naming.layer_order:  # transformers' registration order (SigLIP's k, v, q)
            block = tuple(sorted(block, key=_position_in(lay.naming.layer_order)))
        out += stamped([p + lay.naming.layer.format(i=i) + "." for i in range(self.num_hidden_layers)],
                       [(t.name, t.shape) for t in block])
        if lay.post_norm is not None:
            _norm(add, lay.post_norm, d, norm_bias)
        if self.use_head and lay.head is not None:  # SiglipMultiheadAttentionPoolingHead
            head = lay.head + "."
            add(head + "probe", (1, 1, d))
            add(head + "attention.in_proj_weight", (3 * d, d))
            add(head + "attention.in_proj_bias", (3 * d,))
            add(head + "attention.out_proj.weight", (d, d))
            add(head + "attention.out_proj.bias", (d,))
            _norm(add, head + "layernorm", d, True)
            add(head + "mlp.fc1.weight", (self.intermediate_size, d))
            add(head + "mlp.fc1.bias", (self.intermediate_size,))
            add(head + "mlp.fc2.weight", (d, self.intermediate_size))
            add(head + "mlp.fc2.bias", (d,))
        return tuple(out)

    def embedding_tables(self) -> list[str]:
        """Its nn.Embedding tables: the learned positions."""
        return [] if self.layout.positions is None else [self.prefix + self.layout.positions + ".weight"]

    def buffers(self) -> list[Buffer]:
        """The position ids of the learned table (int64, non-persistent: SiglipVisionEmbeddings, CLIP's)."""
        lay = self.layout
        if lay.positions is None:
            return []
        rows = self.patches + (lay.class_embedding is not None)
        return [Buffer(self.prefix + lay.positions.rpartition(".")[0] + ".position_ids", (1, rows), "int64", False)]

    def _layer(self) -> Layer:
        lay, d, heads = self.layout, self.hidden_size, self.num_attention_heads
        head_dim = self.head_dim or d // heads
        attention = _new(Attention, (d, heads, heads, head_dim, head_dim, lay.bias, lay.bias, "none", True, "none",
                                     False, False, False, False, 0, False, False))
        ffn = _new(DenseFFN, (d, self.intermediate_size, lay.gated, lay.bias, False, False, False))
        return _new(Layer, ((attention, ffn, _new(BlockNorms, (d, "pre", True, True, True))),))


@lru_cache(maxsize=64)
def _listed(tower: VisionTower) -> tuple[Tensor, ...]:
    """A tower's tensors, listed once per tower (frozen: a count of the same model lists them again from here)."""
    return tower.listed()


def _norm(add: Any, name: str, size: int, bias: bool) -> None:
    add(name + ".weight", (size,))
    if bias:
        add(name + ".bias", (size,))


# The towers by their vision_config's model_type: each layout, and its config class's defaults (what a
# vision_config that omits a key gets).
SIGLIP = VisionLayout(
    naming=Naming(layer="encoder.layers.{i}", o="self_attn.out_proj", up="mlp.fc1", down="mlp.fc2",
                  attn_pre_norm="layer_norm1", ffn_pre_norm="layer_norm2",
                  layer_order=("layer_norm1", "self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj",
                               "self_attn.out_proj", "layer_norm2", "mlp")),
    head="head")
"""transformers 5.24.0 models/siglip/modeling_siglip.py (SiglipVisionTransformer, SiglipEncoderLayer)."""
CLIP = VisionLayout(
    naming=dataclasses.replace(SIGLIP.naming, layer_order=(
        "self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj", "layer_norm1", "mlp",
        "layer_norm2")),
    patch_bias=False, class_embedding="embeddings.class_embedding", pre_norm="pre_layrnorm")
"""transformers 5.24.0 models/clip/modeling_clip.py (CLIPVisionTransformer, CLIPEncoderLayer)."""

SIGLIP_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12,
                   "num_channels": 3, "image_size": 224, "patch_size": 16, "vision_use_head": True}
"""transformers 5.24.0 models/siglip/configuration_siglip.py (SiglipVisionConfig)."""
CLIP_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12,
                 "num_channels": 3, "image_size": 224, "patch_size": 32}
"""transformers 5.24.0 models/clip/configuration_clip.py (CLIPVisionConfig)."""

VISION_SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_channels",
                "image_size", "patch_size")
"""The vision_config keys a ViT tower's count reads (HF names), each a positive whole number."""


def vit(layout: VisionLayout) -> Any:
    """The maker of a ViT tower of ``layout`` (towers.TowerKind.make): its sizes checked, one line each."""
    def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> VisionTower:
        sizes = {}
        for key in VISION_SIZES:
            value = vision.get(key)
            if type(value) is not int or value <= 0:
                raise ArchitectureError(f"vision_config.{key}", f"must be a positive whole number, got {value!r}",
                                        where)
            sizes[key] = value
        if sizes["image_size"] < sizes["patch_size"]:
            raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than image_size="
                                    f"{sizes['image_size']}", where)
        head_dim = vision.get("head_dim")
        if head_dim is None and sizes["hidden_size"] % sizes["num_attention_heads"]:
            raise ArchitectureError("vision_config.num_attention_heads", f"{sizes['num_attention_heads']} heads do "
                                    f"not divide hidden_size={sizes['hidden_size']}", where)
        return VisionTower(prefix, layout, **sizes, head_dim=head_dim,
                           use_head=bool(vision.get("vision_use_head", False)))
    return make


TOWERS = {"siglip_vision_model": TowerKind(SIGLIP_DEFAULTS, vit(SIGLIP)),
          "clip_vision_model": TowerKind(CLIP_DEFAULTS, vit(CLIP))}
