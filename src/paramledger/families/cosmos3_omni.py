"""Cosmos3-Omni (NVIDIA's Cosmos3 reasoner), counted whole: transformers 5.24.0 models/cosmos3_omni/
modular_cosmos3_omni.py says "Model arch is identical to Qwen3-VL": Cosmos3OmniConfig is Qwen3VLConfig under its own
model_type, Cosmos3OmniForConditionalGeneration is Qwen3VLForConditionalGeneration (`pass`)."""

from __future__ import annotations

from ._family import derived_from
from .qwen_vl import FAMILIES as QWEN_VL

QWEN3_VL = next(family for family in QWEN_VL if family.model_type == "qwen3_vl")

# identical to qwen3_vl except: Cosmos3OmniConfig.__post_init__ reads any vision_config as a qwen3_vl_vision one (an
# old checkpoint's vision_config names another model_type), so the tower is Qwen3-VL's whatever the config names
FAMILIES = [derived_from(QWEN3_VL, model_type="cosmos3_omni", causal_lm_class="Cosmos3OmniForConditionalGeneration",
                         source="transformers 5.24.0 models/cosmos3_omni/configuration_cosmos3_omni.py "
                                "(Cosmos3OmniConfig, Qwen3VLTextConfig)",
                         whole=QWEN3_VL.whole._replace(vision_kind="qwen3_vl_vision"))]
