"""GLM-OCR (GlmOcrForConditionalGeneration) counted whole: its vision tower with its merger under "model.visual"
(towers/glm_ocr.py; GlmOcrVisionModel whatever vision_config's model_type says) and GLM-4's decoder (sandwich norms,
a fused gate_up, no attention bias) under "model.language_model", the head.  As for GLM-4.1V (families/qwen_vl.py)
transformers registers no CausalLM for glm_ocr_text, so this family's own table, GLM-4's with GlmOcrTextConfig's
defaults, reads text_config.  Tied by the whole config's tie_word_embeddings or by text_config's
(GlmOcrConfig.__post_init__)."""

import dataclasses

from ..towers import Whole
from ..towers.qwen_vl import none
from ._family import multimodal, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES
from .glm import FAMILIES as GLM

GLM4 = next(family for family in GLM if family.model_type == "glm4")
# GlmOcrTextConfig (models/glm_ocr/configuration_glm_ocr.py): no head_dim field (GlmOcrTextAttention reads one a
# config gives, by getattr), no attention_bias (its attention biases nothing, whatever a config says), no
# partial_rotary_factor, no tie_word_embeddings of its own (PreTrainedConfig's False).
TEXT = dataclasses.replace(
    GLM4, model_type="glm_ocr", keys={**DECODER_KEYS, **same("head_dim")},
    count_neutral=GLM4.count_neutral | {"attention_bias"},
    defaults={"vocab_size": 59392, "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 16,
              "num_attention_heads": 16, "num_key_value_heads": 8, "hidden_act": "silu",
              "max_position_embeddings": 131072, "tie_word_embeddings": False},
    switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "attention_bias": False, "attention_output_bias": False})

FAMILIES = [
    multimodal(TEXT, "glm_ocr", "transformers 5.24.0 models/glm_ocr/configuration_glm_ocr.py (GlmOcrConfig, "
               "GlmOcrTextConfig)",
               Whole({"model_type": "glm_ocr_vision"}, none, vision_prefix="model.visual.", tie_word_embeddings=False,
                     tie_from_text=True, vision_kind="glm_ocr_vision"),
               "GlmOcrForConditionalGeneration"),
]
