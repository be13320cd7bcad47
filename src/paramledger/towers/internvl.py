"""InternVL's vision tower (InternViT, as InternVLVisionModel builds it) and its projector.  The tower: a class token
(1, 1, width), a mask token where use_mask_token is set, a learned position row per patch and the class token
(raw Parameters, where use_absolute_position_embeddings is set), a biased Conv2d patch embedding; then
num_hidden_layers layers, each with its two layer-scale vectors (lambda_1, lambda_2, registered first), q/k/v
biased by attention_bias, an output projection always biased, RMSNorm q/k norms over the whole width where
use_qk_norm is set, a biased GELU MLP, two norms (norm_type "layer_norm" or "rms_norm"); a final LayerNorm unless
use_mean_pooling.  image_size and patch_size are a number or a (height, width) pair.  The projector: the pixel
shuffle folds int(1 / downsample_ratio)² patches into one, a LayerNorm over them and two biased Linears.
transformers 5.24.0 models/internvl/modeling_internvl.py (InternVLVisionModel, InternVLVisionEmbeddings,
InternVLVisionLayer, InternVLVisionAttention, InternVLMultiModalProjector)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, stamped
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number

_new = tuple.__new__
NORMS = {"layer_norm": True, "rms_norm": False}  # norm_type -> whether the norm has a bias


class InternViT(NamedTuple):
    """One InternViT tower as its vision_config gives it, under its module path ("model.vision_tower.")."""
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_channels: int
    image_size: tuple[int, int]  # (height, width)
    patch_size: tuple[int, int]
    attention_bias: bool
    use_qk_norm: bool
    norm_bias: bool  # norm_type "layer_norm"
    use_mask_token: bool
    positions: bool  # use_absolute_position_embeddings
    final_norm: bool  # not use_mean_pooling
    layer: str = "encoder.layer.{i}"  # the layers' path (Qianfan-OCR's: "layers.{i}")
    norm_first: bool = False  # the final LayerNorm registered before the layers (Qianfan-OCR's)

    @property
    def patches(self) -> int:
        """Patches of one image: (height // patch height) × (width // patch width), as the patch embedding floors."""
        return (self.image_size[0] // self.patch_size[0]) * (self.image_size[1] // self.patch_size[1])

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, inner = self.hidden_size, self.prefix, self.intermediate_size
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "vision", None, False, 0)))

        def linear(name: str, rows: int, cols: int, bias: bool) -> None:
            add(name + ".weight", (rows, cols))
            if bias:
                add(name + ".bias", (rows,))

        add("embeddings.cls_token", (1, 1, d))
        if self.use_mask_token:
            add("embeddings.mask_token", (1, 1, d))
        if self.positions:
            add("embeddings.position_embeddings", (1, self.patches + 1, d))
        add("embeddings.patch_embeddings.projection.weight", (d, self.num_channels, *self.patch_size))
        add("embeddings.patch_embeddings.projection.bias", (d,))
        start = len(out)
        add("lambda_1", (d,))
        add("lambda_2", (d,))
        for name in ("q_proj", "k_proj", "v_proj"):
            linear("attention." + name, d, d, self.attention_bias)
        linear("attention.projection_layer", d, d, True)
        if self.use_qk_norm:
            add("attention.q_norm.weight", (d,))
            add("attention.k_norm.weight", (d,))
        linear("mlp.fc1", inner, d, True)
        linear("mlp.fc2", d, inner, True)
        for name in ("layernorm_before", "layernorm_after"):
            add(name + ".weight", (d,))
            if self.norm_bias:
                add(name + ".bias", (d,))
        block = [(t.name.removeprefix(p), t.shape) for t in out[start:]]
        del out[start:]
        if self.final_norm and self.norm_first:
            add("layernorm.weight", (d,))
            add("layernorm.bias", (d,))
        out += stamped([p + self.layer.format(i=i) + "." for i in range(self.num_hidden_layers)], block)
        if self.final_norm and not self.norm_first:
            add("layernorm.weight", (d,))
            add("layernorm.bias", (d,))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        return []


@lru_cache(maxsize=64)
def _listed(tower: InternViT) -> tuple[Tensor, ...]:
    return tower.listed()


def _pair(vision: Mapping[str, Any], key: str, where: str | None) -> tuple[int, int]:
    """A number or a (height, width) pair of positive whole numbers (InternVLVisionConfig.__post_init__)."""
    value = vision.get(key)
    pair = tuple(value) if isinstance(value, (list, tuple)) else (value, value)
    if len(pair) != 2 or any(type(n) is not int or n <= 0 for n in pair):
        raise ArchitectureError(f"vision_config.{key}", "must be a positive whole number or a [height, width] pair "
                                f"of them, got {value!r}", where)
    return pair  # type: ignore[return-value]


def make(prefix: str, vision: Mapping[str, Any], where: str | None, **layout: Any) -> InternViT:
    """An InternViT of ``vision``, its sizes and switches checked, one line each; ``layout``: where it places its
    layers and final norm (InternViT's fields)."""
    sizes = {key: positive(vision, key, where) for key in ("hidden_size", "intermediate_size", "num_hidden_layers",
                                                            "num_attention_heads", "num_channels")}
    if sizes["hidden_size"] % sizes["num_attention_heads"]:  # InternVLVisionAttention's own refusal
        raise ArchitectureError("vision_config.num_attention_heads", f"{sizes['num_attention_heads']} heads do not "
                                f"divide hidden_size={sizes['hidden_size']}", where)
    image, patch = _pair(vision, "image_size", where), _pair(vision, "patch_size", where)
    if image[0] < patch[0] or image[1] < patch[1]:
        raise ArchitectureError("vision_config.patch_size", f"{list(patch)} is larger than image_size={list(image)}",
                                where)
    norm = vision.get("norm_type")
    if norm not in NORMS:
        raise ArchitectureError("vision_config.norm_type", f"{norm!r} is not layer_norm or rms_norm (transformers "
                                "5.24.0 builds no other)", where)
    return InternViT(prefix, **sizes, image_size=image, patch_size=patch,
                     attention_bias=bool(vision.get("attention_bias")), use_qk_norm=bool(vision.get("use_qk_norm")),
                     norm_bias=NORMS[norm], use_mask_token=bool(vision.get("use_mask_token")),
                     positions=bool(vision.get("use_absolute_position_embeddings")),
                     final_norm=not vision.get("use_mean_pooling"), **layout)


INTERNVL_DEFAULTS = {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16, "attention_bias": False,
                     "use_qk_norm": False, "intermediate_size": 4096, "norm_type": "layer_norm",
                     "image_size": [448, 448], "patch_size": [14, 14], "num_channels": 3, "use_mask_token": False,
                     "use_absolute_position_embeddings": True, "use_mean_pooling": True}
"""transformers 5.24.0 models/internvl/configuration_internvl.py (InternVLVisionConfig)."""

TOWERS = {"internvl_vision": TowerKind(INTERNVL_DEFAULTS, make)}


def internvl(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """InternVLMultiModalProjector: a LayerNorm over int(1 / downsample_ratio)² patches' features (InternVLConfig:
    0.5, four), linear_1 into the decoder's width, linear_2 at it, both biased."""
    ratio = config.get("downsample_ratio", 0.5)
    if type(ratio) not in (int, float) or ratio <= 0 or int(1 / ratio) == 0:
        raise ArchitectureError("downsample_ratio", f"must be a number above 0 and at most 1, got {ratio!r}")
    width = vision.hidden_size * int(1 / ratio) ** 2
    return [("layer_norm.weight", (width,)), ("layer_norm.bias", (width,)), ("linear_1.weight", (hidden, width)),
            ("linear_1.bias", (hidden,)), ("linear_2.weight", (hidden, hidden)), ("linear_2.bias", (hidden,))]
