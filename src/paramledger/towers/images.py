"""The tokens one image costs in a whole multimodal model's decoder (its KV cache holds them like text), by the rule
its processor follows (transformers 5.24.0): fixed by the config where the family's processor fixes it, computed
from the image's size where the count follows the size (Qwen2-VL's smart resize), refused in one line elsewhere."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, OptionError

Size = tuple[int, int] | None  # (width, height) in pixels, when the count follows the size
Rule = Callable[[Mapping[str, Any], Any], Callable[[Size], int]]
"""(the whole config, its first tower) -> (the image's size -> its tokens)."""


def _size(config: Mapping[str, Any], key: str, default: int) -> int:
    """A config's whole number that sizes an image's tokens, refused in one line naming its key if it is not one."""
    value = config.get(key, default)
    if type(value) is not int or value <= 0:
        raise ArchitectureError(key, f"must be a positive whole number, got {value!r}")
    return value


class Fixed(NamedTuple):
    """The same count for every image (a record, not a closure: two reads of one config give equal towers)."""
    tokens: int

    def __call__(self, size: Size) -> int:
        return self.tokens


def fixed(count: Callable[[Mapping[str, Any], Any], int | None]) -> Rule:
    """A count that is the same for every image; None (not known) where ``count`` gives None."""
    def rule(config: Mapping[str, Any], tower: Any) -> Callable[[Size], int] | None:
        tokens = count(config, tower)
        return None if tokens is None else Fixed(tokens)
    return rule


def _grid(tower: Any) -> int | None:
    """A ViT's patch grid; None for a tower of another kind (LLaVA's config may name any: a windowed Qwen tower's
    tokens follow the image's size, which LLaVA's processor does not compute)."""
    return getattr(tower, "patches", None)


gemma3 = fixed(lambda config, tower: _size(config, "mm_tokens_per_image", 256))
"""Gemma3Processor: each image is mm_tokens_per_image soft tokens (the projector pools the patch grid to them)."""
patches = fixed(lambda config, tower: _grid(tower))
"""PaliGemma: one token per patch ((image_size / patch_size)², num_image_tokens)."""
llava = fixed(lambda config, tower: None if _grid(tower) is None else
              _grid(tower) + (config.get("vision_feature_select_strategy", "default") == "full"))
"""LlavaProcessor: the patch grid; the "default" feature strategy drops the class token, "full" keeps it."""


def qwen2_vl(config: Mapping[str, Any], tower: Any) -> Callable[[Size], int]:
    """Qwen2VLImageProcessor's smart_resize, by the vision_config's patch and merge sizes."""
    vision = config.get("vision_config") or {}
    return SmartResize(_size(vision, "patch_size", 14), _size(vision, "spatial_merge_size", 2))


class SmartResize(NamedTuple):
    """Qwen2VLImageProcessor's smart_resize: each side rounded to a multiple of patch_size × spatial_merge_size
    (the pixel count kept within 56² and 28² × 1280 patches, the processor's defaults), then one token per merged
    group of spatial_merge_size² patches."""
    patch: int
    merge: int

    def __call__(self, size: Size) -> int:
        patch, merge = self.patch, self.merge
        if size is None:
            raise OptionError("--image", "this model's image tokens follow the image's size: give --image WxH")
        factor, (width, height) = patch * merge, size
        if max(width, height) / min(width, height) > 200:  # the processor's own refusal
            raise OptionError("--image", f"{width}x{height}: an aspect ratio above 200, which the processor refuses")
        low, high = 56 * 56, factor * factor * 1280
        h, w = max(factor, round(height / factor) * factor), max(factor, round(width / factor) * factor)
        if h * w > high:
            beta = math.sqrt(height * width / high)
            h = max(factor, math.floor(height / beta / factor) * factor)
            w = max(factor, math.floor(width / beta / factor) * factor)
        elif h * w < low:
            beta = math.sqrt(low / (height * width))
            h, w = math.ceil(height * beta / factor) * factor, math.ceil(width * beta / factor) * factor
        return (h // patch) * (w // patch) // (merge * merge)


def image_tokens(arch: Any, images: int, size: Size) -> int:
    """The decoder tokens of ``images`` images of ``size`` for a whole multimodal ``arch``."""
    if not arch.towers:
        raise OptionError("--images", f"{arch.model_type} is counted as a text decoder (no towers): its images' tokens "
                          "are not known here")
    rule = arch.towers.image_tokens
    if rule is None:
        raise OptionError("--images", f"{arch.model_type}: paramledger does not know how many tokens an image costs "
                          "in this model's decoder (it knows Gemma 3, PaliGemma, LLaVA and Qwen2-VL/2.5-VL)")
    return images * rule(size)
