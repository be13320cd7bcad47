"""DeepSeek-VL-Hybrid: the whole DeepseekVLHybridForConditionalGeneration, identical to DeepSeek-VL's
(families/deepseek_vl.py) except a high-resolution path registered first, read from high_res_vision_config (SAM's
encoder, a neck, a projection and the model's alpha: towers/deepseek_vl_hybrid.py), and an aligner that takes both
paths' features (vision_proj, high_res_vision_proj, proj).  The SigLIP tower (its head included) sits under
"model.vision_model", the Llama decoder under "model.language_model"; tied by the whole config's
tie_word_embeddings alone (DeepseekVLHybridConfig: True; text_config's changes nothing: checked over all nine
combinations).  transformers 5.24.0 models/deepseek_vl_hybrid/modeling_deepseek_vl_hybrid.py."""

from ..towers import Whole
from ..towers.deepseek_vl_hybrid import KEY, SAM_DEFAULTS, aligner
from ._family import multimodal
from .llama import FAMILIES as LLAMA

LLAMA_TEXT = next(family for family in LLAMA if family.model_type == "llama")

FAMILIES = [
    multimodal(LLAMA_TEXT, "deepseek_vl_hybrid",
               "transformers 5.24.0 models/deepseek_vl_hybrid/configuration_deepseek_vl_hybrid.py "
               "(DeepseekVLHybridConfig)",
               Whole({"model_type": "siglip_vision_model"}, aligner, vision_prefix="model.vision_model.",
                     projector_prefix="model.aligner.", tie_word_embeddings=True, text_types=("llama",),
                     sub_towers=((KEY, {"model_type": SAM_DEFAULTS["model_type"]}, "deepseek_vl_hybrid_high_res",
                                  "model."),)),
               "DeepseekVLHybridForConditionalGeneration"),
]
