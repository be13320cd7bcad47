"""GLM-4.5V's vision tower: GLM-4.1V's (towers/qwen_vl.py's GLM4V layout and its vision config class's defaults;
Glm4vMoeVisionModel and its blocks, attention, merger and embeddings are Glm4v's, diffed) under its own model_type.
transformers 5.24.0 models/glm4v_moe/modeling_glm4v_moe.py (Glm4vMoeVisionModel), configuration_glm4v_moe.py
(Glm4vMoeVisionConfig)."""

from ._kind import TowerKind
from .qwen_vl import GLM4V, GLM4V_DEFAULTS, windowed

TOWERS = {"glm4v_moe_vision": TowerKind(GLM4V_DEFAULTS, windowed(GLM4V))}
