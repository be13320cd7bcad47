"""Cohere Compass's vision tower: Qwen3-VL's, with its merger and deepstack mergers (towers/qwen_vl.py), under its
own vision config class of the same defaults (transformers 5.24.0 models/cohere_compass/modular_cohere_compass.py:
CohereCompassVisionConfig(Qwen3VLVisionConfig) adds only its model_type, CohereCompassVisionModel(Qwen3VLVisionModel)
only its input modalities)."""

from __future__ import annotations

from ._kind import TowerKind
from .qwen_vl import QWEN3_VL, QWEN3_VL_DEFAULTS, windowed

_COMPASS = TowerKind(QWEN3_VL_DEFAULTS, windowed(QWEN3_VL))
# CohereCompassConfig.__post_init__ reads an old checkpoint's vision_config model_type, the whole model's, as its tower
TOWERS = {"cohere_compass_vision": _COMPASS, "cohere_compass": _COMPASS}
