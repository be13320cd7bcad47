"""Cohere Compass's vision tower: Qwen3-VL's, with its merger and deepstack mergers (towers/qwen_vl.py), under its
own vision config class of the same defaults (transformers 5.24.0 models/cohere_compass/modular_cohere_compass.py:
CohereCompassVisionConfig(Qwen3VLVisionConfig) adds only its model_type, CohereCompassVisionModel(Qwen3VLVisionModel)
only its input modalities)."""

from __future__ import annotations

from ._kind import TowerKind
from .qwen_vl import QWEN3_VL, QWEN3_VL_DEFAULTS, windowed

# the whole family names this kind whatever vision_config's model_type says (CohereCompassConfig's sub-config spec is
# the class itself, so transformers resolves no model_type: families/cohere_compass.py)
TOWERS = {"cohere_compass_vision": TowerKind(QWEN3_VL_DEFAULTS, windowed(QWEN3_VL))}
