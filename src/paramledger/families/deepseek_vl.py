"""DeepSeek-VL: the whole DeepseekVLForConditionalGeneration, a SigLIP tower (its vision_config class's defaults,
the pooling head included) under "model.vision_model", the aligner (towers/deepseek_vl.py) and a Llama decoder
read from text_config by the llama family's own table; tied by the whole config's tie_word_embeddings alone
(DeepseekVLConfig: True)."""

from ..towers import Whole
from ..towers.deepseek_vl import deepseek_vl
from ._family import multimodal
from .llama import FAMILIES as LLAMA

LLAMA_TEXT = next(family for family in LLAMA if family.model_type == "llama")

FAMILIES = [
    multimodal(LLAMA_TEXT, "deepseek_vl",
               "transformers 5.24.0 models/deepseek_vl/configuration_deepseek_vl.py (DeepseekVLConfig)",
               Whole({"model_type": "siglip_vision_model"}, deepseek_vl, vision_prefix="model.vision_model.",
                     projector_prefix="model.aligner.", tie_word_embeddings=True, text_types=("llama",)),
               "DeepseekVLForConditionalGeneration"),
]
