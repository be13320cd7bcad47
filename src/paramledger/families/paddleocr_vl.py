"""PaddleOCR-VL (PaddleOCRVLForConditionalGeneration) counted whole: its SigLIP-style tower under
"model.visual.vision_model" (towers/paddleocr_vl.py), the ERNIE 4.5 decoder (PaddleOCRTextConfig's defaults are
ernie4_5's, its tensors Ernie4_5's) under "model.language_model", read by the ernie4_5 family's table from
text_config or, in a config without one, from the top level (PaddleOCRVLConfig.__post_init__), then the projector,
registered after the decoder, and the head.  Tied by the whole config's tie_word_embeddings (True) or by
text_config's."""

import dataclasses

from ..towers import Whole
from ..towers.paddleocr_vl import paddleocr_vl
from ._family import multimodal
from ._projector_last import projector_last
from .llama import FAMILIES as LLAMA

ERNIE4_5 = next(family for family in LLAMA if family.model_type == "ernie4_5")


def flat_config_ties(config):
    """A config without text_config: PaddleOCRVLConfig.__post_init__ moves the decoder's keys into text_config, but
    tie_word_embeddings is its own field and stays: text_config ties by PaddleOCRTextConfig's default (True)."""
    return {"tie_word_embeddings": True} if config.get("model_type") == "paddleocr_vl" else {}


# ERNIE 4.5's decoder read under the whole model's type, as families/qwen_vl.py reads GLM-4.1V's: a flat config's
# own keys (its model_type among them) reach the rules.
TEXT = dataclasses.replace(ERNIE4_5, model_type="paddleocr_vl", derive=(*ERNIE4_5.derive, flat_config_ties))
FAMILIES = [projector_last(
    multimodal(TEXT, "paddleocr_vl",
               "transformers 5.24.0 models/paddleocr_vl/configuration_paddleocr_vl.py (PaddleOCRVLConfig)",
               Whole({"model_type": "paddleocr_vl_vision"}, paddleocr_vl, vision_prefix="model.visual.",
                     projector_prefix="model.projector.", tie_word_embeddings=True, tie_from_text=True,
                     text_at_top=True),
               "PaddleOCRVLForConditionalGeneration"),
    "model.visual", "model.projector")]
