"""Qwen3.5's vision tower (dense and MoE: Qwen3_5VisionModel, Qwen3_5MoeVisionModel, the same module): Qwen3-VL's
(towers/qwen_vl.py: the Conv3d patch embedding, the learned position table, the blocks, the merger that is its
"projector") without the deepstack mergers; its vision config class reads num_hidden_layers and
num_attention_heads as depth and num_heads (its attribute_map).  transformers 5.24.0
models/qwen3_5/modeling_qwen3_5.py (Qwen3_5VisionModel, Qwen3_5VisionPatchMerger)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._kind import TowerKind
from .qwen_vl import QWEN3_VL, QWEN3_VL_DEFAULTS, WindowedTower, windowed

_windowed = windowed(QWEN3_VL)
ALIASES = {"num_hidden_layers": "depth", "num_attention_heads": "num_heads"}  # Qwen3_5VisionConfig.attribute_map


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> WindowedTower:
    aliased = {ALIASES.get(key, key): value for key, value in vision.items() if key != "deepstack_visual_indexes"}
    return _windowed(prefix, {**aliased, "deepstack_visual_indexes": []}, where)


QWEN3_5_DEFAULTS = {key: value for key, value in QWEN3_VL_DEFAULTS.items() if key != "deepstack_visual_indexes"}
"""transformers 5.24.0 models/qwen3_5/configuration_qwen3_5.py (Qwen3_5VisionConfig; Qwen3_5MoeVisionConfig's are
the same, models/qwen3_5_moe/configuration_qwen3_5_moe.py): Qwen3VLVisionConfig's but for the deepstack layers."""

_QWEN3_5 = TowerKind(QWEN3_5_DEFAULTS, make)
# Qwen3_5Config.__post_init__ (and Qwen3_5MoeConfig's) reads an old checkpoint's vision_config model_type, the
# whole model's, as its tower.
TOWERS = {"qwen3_5_vision": _QWEN3_5, "qwen3_5": _QWEN3_5, "qwen3_5_moe_vision": _QWEN3_5, "qwen3_5_moe": _QWEN3_5}
