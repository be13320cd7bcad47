"""GLM-4.5V (Glm4vMoeForConditionalGeneration) counted whole: GLM-4.1V's vision tower with its merger under
"model.visual" (towers/glm4v_moe.py; Glm4vMoeVisionModel whatever vision_config's model_type says), GLM-4.5's MoE
decoder (GLM-4-MoE's tensors: first_k_dense_replace dense layers, routed and shared experts, q/k/v biased, no q/k
norms) under "model.language_model", the head.  As for GLM-4.1V (families/qwen_vl.py) transformers registers no
CausalLM for glm4v_moe_text, so this family's own table, GLM-4-MoE's with Glm4vMoeTextConfig's defaults, reads
text_config.  Tied by the whole config's tie_word_embeddings or by text_config's (Glm4vMoeConfig.__post_init__)."""

import dataclasses

from ..towers import Whole
from ..towers.qwen_vl import none
from ._family import multimodal
from .glm import FAMILIES as GLM

GLM4_MOE = next(family for family in GLM if family.model_type == "glm4_moe")
# Glm4vMoeTextConfig (models/glm4v_moe/configuration_glm4v_moe.py): no head_dim, no use_qk_norm (modeling builds no
# q/k norm), partial_rotary_factor 0.5 by its __post_init__.
TEXT_DEFAULTS = {"partial_rotary_factor": 0.5, "vocab_size": 151424, "hidden_size": 4096, "intermediate_size": 10944,
                 "num_hidden_layers": 46, "num_attention_heads": 96, "num_key_value_heads": 8, "hidden_act": "silu",
                 "max_position_embeddings": 65536, "tie_word_embeddings": False, "attention_bias": True,
                 "moe_intermediate_size": 1408, "num_experts_per_tok": 8, "n_shared_experts": 1,
                 "n_routed_experts": 128, "first_k_dense_replace": 1}
TEXT = dataclasses.replace(GLM4_MOE, model_type="glm4v_moe", defaults=TEXT_DEFAULTS,
                           derive=tuple(rule for rule in GLM4_MOE.derive if rule.__name__ != "_qk_norm"))

FAMILIES = [
    multimodal(TEXT, "glm4v_moe", "transformers 5.24.0 models/glm4v_moe/configuration_glm4v_moe.py (Glm4vMoeConfig, "
               "Glm4vMoeTextConfig)",
               Whole({"model_type": "glm4v_moe_vision"}, none, vision_prefix="model.visual.", tie_word_embeddings=False,
                     tie_from_text=True, vision_kind="glm4v_moe_vision"),
               "Glm4vMoeForConditionalGeneration"),
]
