"""EXAONE 4.5: the whole Exaone4_5_ForConditionalGeneration, its grouped-query Qwen2.5-VL-style tower with its merger
under "model.visual" (towers/exaone4_5.py: Exaone4_5_VisionModel whatever vision_config's model_type says) and an
EXAONE 4 decoder read from text_config by the exaone4 family's own table (Exaone4_5_Config.__post_init__ reads a
text_config typed exaone4_5_text as exaone4); tied by the whole config's tie_word_embeddings alone (False)."""

from ..towers import Whole
from ..towers.qwen_vl import none
from ._family import multimodal
from .llama import FAMILIES as LLAMA

EXAONE4 = next(family for family in LLAMA if family.model_type == "exaone4")

FAMILIES = [
    multimodal(EXAONE4, "exaone4_5", "transformers 5.24.0 models/exaone4_5/configuration_exaone4_5.py "
               "(Exaone4_5_Config)",
               Whole({"model_type": "exaone4_5_vision"}, none, vision_prefix="model.visual.", tie_word_embeddings=False,
                     vision_kind="exaone4_5_vision"),
               "Exaone4_5_ForConditionalGeneration"),
]
