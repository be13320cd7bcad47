"""The projectors of the LLaVA lineage beside projectors.llava (LLaVA's own two Linears): each cites the module
transformers 5.24.0 builds and gives its tensors under ``Whole.projector_prefix`` "model.", so that a parameter
of the model itself (LLaVA-NeXT's image_newline) sits beside the projector's, in registration order.  The towers
are SigLIP's and CLIP's (vision.py): this module declares no tower of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from .projectors import llava

Named = list[tuple[str, tuple[int, ...]]]
PROJECTOR = "multi_modal_projector."


def llava_next(config: Mapping[str, Any], vision: Any, hidden: int) -> Named:
    """LlavaNextModel (and LlavaOnevisionModel): LLaVA's projector, then image_newline, one learned row of the
    text width that ends each row of an anyres image's patch grid (modeling_llava_next.py)."""
    return [(PROJECTOR + name, shape) for name, shape in llava(config, vision, hidden)] + [("image_newline", (hidden,))]


def llava_next_video(config: Mapping[str, Any], vision: Any, hidden: int) -> Named:
    """LlavaNextVideoModel: LLaVA-NeXT's, and its video pooler (vision_resampler, registered after the decoder):
    learned only when spatial_pool_mode is "conv", a biased Conv2d of spatial_pool_stride² from the vision width
    to spatial_pool_out_channels (read by getattr; the vision width when absent)."""
    out = llava_next(config, vision, hidden)
    if config.get("spatial_pool_mode", "average") == "conv":
        stride = config.get("spatial_pool_stride", 2)
        width = config.get("spatial_pool_out_channels", vision.hidden_size)
        for key, value in (("spatial_pool_stride", stride), ("spatial_pool_out_channels", width)):
            if type(value) is not int or value <= 0:
                raise ArchitectureError(key, f"must be a positive whole number, got {value!r}", None)
        out += [("vision_resampler.pool.weight", (width, vision.hidden_size, stride, stride)),
                ("vision_resampler.pool.bias", (width,))]
    return out


def vipllava(config: Mapping[str, Any], vision: Any, hidden: int) -> Named:
    """VipLlavaMultiModalProjector: a LayerNorm over the concatenated features of the vision_feature_layers
    (VipLlavaConfig's attribute_map spells them either way; five by default), then two biased Linears."""
    layers = config.get("vision_feature_layers", config.get("vision_feature_layer", [-2, -5, -8, -11, 6]))
    width = vision.hidden_size * (len(layers) if isinstance(layers, list) else 1)
    return [(PROJECTOR + name, shape) for name, shape in (
        ("projector_layernorm.weight", (width,)), ("projector_layernorm.bias", (width,)),
        ("linear_1.weight", (hidden, width)), ("linear_1.bias", (hidden,)),
        ("linear_2.weight", (hidden, hidden)), ("linear_2.bias", (hidden,)))]


def aya_vision(config: Mapping[str, Any], vision: Any, hidden: int) -> Named:
    """AyaVisionMultiModalProjector: pixel shuffle (downsample_factor² patches into one), a LayerNorm, then a
    SwiGLU: linear_1 to alignment_intermediate_size (the text width when absent), linear_2 from half of it."""
    return _shuffled_swiglu(config, vision, hidden, config.get("alignment_intermediate_size", hidden), norm=True)


def cohere2_vision(config: Mapping[str, Any], vision: Any, hidden: int) -> Named:
    """Cohere2VisionMultiModalProjector: Aya Vision's without the LayerNorm; alignment_intermediate_size is a
    field of its config class (36,864)."""
    return _shuffled_swiglu(config, vision, hidden, config.get("alignment_intermediate_size", 36864), norm=False)


def _shuffled_swiglu(config: Mapping[str, Any], vision: Any, hidden: int, inner: Any, norm: bool) -> Named:
    factor = config.get("downsample_factor", 2)
    if type(factor) is not int or factor <= 0:
        raise ArchitectureError("downsample_factor", f"must be a positive whole number, got {factor!r}", None)
    if type(inner) is not int or inner < 2:
        raise ArchitectureError("alignment_intermediate_size", f"must be a whole number from 2, got {inner!r}", None)
    width = vision.hidden_size * factor ** 2
    named = [("layernorm.weight", (width,)), ("layernorm.bias", (width,))] if norm else []
    named += [("linear_1.weight", (inner, width)), ("linear_1.bias", (inner,)),
              ("linear_2.weight", (hidden, inner // 2)), ("linear_2.bias", (hidden,))]
    return [(PROJECTOR + name, shape) for name, shape in named]
