"""The projectors that carry a tower's features into the decoder's width, one function per kind (each cites
the module transformers 5.24.0 builds).  Each gives its tensors, full names, the "projector" component."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._exceptions import ArchitectureError
from ..inventory import Tensor

if TYPE_CHECKING:
    from .vision import VisionTower

_new = tuple.__new__
Projector = Callable[[Mapping[str, Any], Any, int], list[tuple[str, tuple[int, ...]]]]
"""(the whole config, its vision tower, the decoder's hidden size) -> [(name under the prefix, shape)]."""


def flag(config: Mapping[str, Any], key: str, default: bool) -> bool:
    """A projector's boolean key as transformers' config classes read it (null: the class default); "false" and
    0 are refused, never taken as true."""
    value = config.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ArchitectureError(key, f"must be true or false, got {value!r}")
    return value


def gemma3(config: Mapping[str, Any], vision: VisionTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Gemma3MultiModalProjector: a raw (vision, text) matrix and an RMSNorm over the vision width."""
    return [("mm_input_projection_weight", (vision.hidden_size, hidden)),
            ("mm_soft_emb_norm.weight", (vision.hidden_size,))]


def paligemma(config: Mapping[str, Any], vision: VisionTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """PaliGemmaMultiModalProjector: one biased Linear to projection_dim (PaliGemmaConfig's, default 2048)."""
    width = int(config.get("projection_dim", 2048))
    return [("linear.weight", (width, vision.hidden_size)), ("linear.bias", (width,))]


def llava(config: Mapping[str, Any], vision: VisionTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """LlavaMultiModalProjector: linear_1 from the vision width (times the feature layers, when
    vision_feature_layer is a list), linear_2 at the text width; biased by multimodal_projector_bias."""
    layers = config.get("vision_feature_layer", -2)
    width = vision.hidden_size * (len(layers) if isinstance(layers, list) else 1)
    return two_linears(width, hidden, flag(config, "multimodal_projector_bias", True))


def two_linears(width: int, hidden: int, bias: bool) -> list[tuple[str, tuple[int, ...]]]:
    """linear_1 from ``width`` into the text width ``hidden``, linear_2 at it, both biased or neither (LLaVA's,
    Audio Flamingo 3's)."""
    out = [("linear_1.weight", (hidden, width))]
    if bias:
        out.append(("linear_1.bias", (hidden,)))
    out.append(("linear_2.weight", (hidden, hidden)))
    if bias:
        out.append(("linear_2.bias", (hidden,)))
    return out


def tensors(prefix: str, named: list[tuple[str, tuple[int, ...]]]) -> tuple[Tensor, ...]:
    return tuple(_new(Tensor, (prefix + name, shape, "projector", None, False, 0)) for name, shape in named)
