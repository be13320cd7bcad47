"""Cosmos3-Edge's vision tower and projector.  The tower: SigLIP 2's NaFlex tower without its pooling head
(towers/siglip2.py: a Linear patch embedding, num_patches learned positions, SigLIP's layers, post_layernorm).  The
projector: a LayerNorm over the vision width, then two biased Linears over spatial_merge_size² merged patches through
projector_hidden_size into the decoder's width.  transformers 5.24.0 models/cosmos3_edge/modeling_cosmos3_edge.py
(Cosmos3EdgeVisionModel, Cosmos3EdgePatchMerger)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._kind import TowerKind
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number
from .siglip2 import Siglip2Tower
from .siglip2 import make as siglip2


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Siglip2Tower:
    positive(vision, "spatial_merge_size", where)
    return siglip2(prefix, {**vision, "vision_use_head": False}, where)


COSMOS3_EDGE_DEFAULTS = {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27,
                         "num_attention_heads": 16, "num_channels": 3, "patch_size": 16, "num_patches": 256,
                         "spatial_merge_size": 2}
"""transformers 5.24.0 models/cosmos3_edge/configuration_cosmos3_edge.py (Cosmos3EdgeVisionConfig)."""

TOWERS = {"cosmos3_edge_vision": TowerKind(COSMOS3_EDGE_DEFAULTS, make)}


def cosmos3_edge(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Cosmos3EdgePatchMerger: projector_hidden_size (Cosmos3EdgeConfig: 11,520) wide."""
    width = config.get("projector_hidden_size", 11520)
    if type(width) is not int or width <= 0:
        raise ArchitectureError("projector_hidden_size", f"must be a positive whole number, got {width!r}")
    merge = (config.get("vision_config") or {}).get("spatial_merge_size", 2)
    d = vision.hidden_size
    merged = d * merge * merge
    return [("norm.weight", (d,)), ("norm.bias", (d,)), ("linear_fc1.weight", (width, merged)),
            ("linear_fc1.bias", (width,)), ("linear_fc2.weight", (hidden, width)), ("linear_fc2.bias", (hidden,))]
