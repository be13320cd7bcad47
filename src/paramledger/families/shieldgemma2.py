"""ShieldGemma 2: Gemma 3's whole model (Gemma3ForConditionalGeneration, which transformers 5.24.0 builds for a
shieldgemma2 config: its image-text-to-text mapping) under ShieldGemma2Config, whose text_config is any
Gemma3TextConfig (gemma3_text) and whose vision_config is SiglipVisionConfig's defaults.  Its head is tied by the
whole config's tie_word_embeddings or, where that is false, by text_config's (ShieldGemma2Config.__post_init__;
Gemma3TextConfig ties by default)."""

from ..towers import Whole, images, projectors
from ._family import multimodal
from .gemma import FAMILIES as GEMMA

GEMMA3_TEXT = next(family for family in GEMMA if family.model_type == "gemma3_text")

FAMILIES = [
    multimodal(GEMMA3_TEXT, "shieldgemma2",
               "transformers 5.24.0 models/shieldgemma2/configuration_shieldgemma2.py (ShieldGemma2Config)",
               Whole({"model_type": "siglip_vision_model"}, projectors.gemma3, tie_word_embeddings=False,
                     tie_from_text=True, image_tokens=images.gemma3),
               "Gemma3ForConditionalGeneration"),
]
