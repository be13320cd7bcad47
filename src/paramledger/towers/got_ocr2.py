"""GOT-OCR 2.0's vision tower (SAM's ViT, GotOcr2VisionEncoder) and projector.  The tower: a learned
(1, image_size / patch_size, image_size / patch_size, hidden_size) position grid (a raw Parameter, where use_abs_pos
is set) registered first, a biased Conv2d patch embedding; layers of LayerNorms, attention with its relative
position tables (2 × side - 1 rows of head_dim each, along each axis, where use_rel_pos is set; the side is
window_size, or the patch grid's for the layers in global_attn_indexes and every layer when window_size is 0), a
fused qkv biased by qkv_bias, a biased proj and an MLP (lin1, lin2, biased); then the neck: a 1×1 conv to
output_channels, a LayerNorm, a 3×3 conv, a LayerNorm (convs without bias).  The projector: two 3×3 convs without bias
(output_channels to twice that, then to the decoder's width) and a biased Linear at that width.  transformers 5.24.0
models/got_ocr2/modeling_got_ocr2.py (GotOcr2VisionEncoder, GotOcr2VisionAttention, GotOcr2VisionNeck,
GotOcr2MultiModalProjector)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number

_new = tuple.__new__


class SamTower(NamedTuple):
    prefix: str
    hidden_size: int
    mlp_dim: int
    num_hidden_layers: int
    num_attention_heads: int
    num_channels: int
    image_size: int
    patch_size: int
    output_channels: int
    qkv_bias: bool
    use_abs_pos: bool
    use_rel_pos: bool
    sides: tuple[int, ...]  # each layer's relative-position side (window_size, or the grid's for a global layer)

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, grid, out_c = self.hidden_size, self.prefix, self.image_size // self.patch_size, self.output_channels
        head = d // self.num_attention_heads
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "vision", None, False, 0)))

        if self.use_abs_pos:
            add("pos_embed", (1, grid, grid, d))
        add("patch_embed.projection.weight", (d, self.num_channels, self.patch_size, self.patch_size))
        add("patch_embed.projection.bias", (d,))
        for i, side in enumerate(self.sides):
            layer = f"layers.{i}."
            add(layer + "layer_norm1.weight", (d,))
            add(layer + "layer_norm1.bias", (d,))
            if self.use_rel_pos:
                add(layer + "attn.rel_pos_h", (2 * side - 1, head))
                add(layer + "attn.rel_pos_w", (2 * side - 1, head))
            add(layer + "attn.qkv.weight", (3 * d, d))
            if self.qkv_bias:
                add(layer + "attn.qkv.bias", (3 * d,))
            add(layer + "attn.proj.weight", (d, d))
            add(layer + "attn.proj.bias", (d,))
            add(layer + "layer_norm2.weight", (d,))
            add(layer + "layer_norm2.bias", (d,))
            add(layer + "mlp.lin1.weight", (self.mlp_dim, d))
            add(layer + "mlp.lin1.bias", (self.mlp_dim,))
            add(layer + "mlp.lin2.weight", (d, self.mlp_dim))
            add(layer + "mlp.lin2.bias", (d,))
        add("neck.conv1.weight", (out_c, d, 1, 1))
        add("neck.layer_norm1.weight", (out_c,))
        add("neck.layer_norm1.bias", (out_c,))
        add("neck.conv2.weight", (out_c, out_c, 3, 3))
        add("neck.layer_norm2.weight", (out_c,))
        add("neck.layer_norm2.bias", (out_c,))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        return []


@lru_cache(maxsize=64)
def _listed(tower: SamTower) -> tuple[Tensor, ...]:
    return tower.listed()


SIZES = ("hidden_size", "mlp_dim", "num_hidden_layers", "num_attention_heads", "num_channels", "image_size",
         "patch_size", "output_channels")


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> SamTower:
    sizes = [positive(vision, key, where) for key in SIZES]
    width, layers, heads, image, patch = sizes[0], sizes[2], sizes[3], sizes[5], sizes[6]
    if width % heads:
        raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads do not divide hidden_size={width}",
                                where)
    if image < patch:
        raise ArchitectureError("vision_config.patch_size", f"{patch} is larger than image_size={image}", where)
    window = vision.get("window_size")
    if type(window) is not int or window < 0:
        raise ArchitectureError("vision_config.window_size", f"must be a whole number from 0, got {window!r}", where)
    listed = vision.get("global_attn_indexes")
    if not isinstance(listed, (list, tuple)) or any(type(i) is not int for i in listed):
        raise ArchitectureError("vision_config.global_attn_indexes", f"must be a list of layer indexes, got "
                                f"{listed!r}", where)
    sides = tuple(image // patch if window == 0 or i in listed else window for i in range(layers))
    return SamTower(prefix, *sizes, qkv_bias=bool(vision.get("qkv_bias")), use_abs_pos=bool(vision.get("use_abs_pos")),
                    use_rel_pos=bool(vision.get("use_rel_pos")), sides=sides)


GOT_OCR2_DEFAULTS = {"hidden_size": 768, "output_channels": 256, "num_hidden_layers": 12, "num_attention_heads": 12,
                     "num_channels": 3, "image_size": 1024, "patch_size": 16, "qkv_bias": True, "use_abs_pos": True,
                     "use_rel_pos": True, "window_size": 14, "global_attn_indexes": [2, 5, 8, 11], "mlp_dim": 3072}
"""transformers 5.24.0 models/got_ocr2/configuration_got_ocr2.py (GotOcr2VisionConfig)."""

TOWERS = {"got_ocr2_vision": TowerKind(GOT_OCR2_DEFAULTS, make)}


def got_ocr2(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    out_c = vision.output_channels
    return [("conv_upsampler1.weight", (2 * out_c, out_c, 3, 3)), ("conv_upsampler2.weight", (hidden, 2 * out_c, 3, 3)),
            ("multimodal_projector.weight", (hidden, hidden)), ("multimodal_projector.bias", (hidden,))]
