"""Kimi K2.5 (Kimi_K25ForConditionalGeneration) counted whole: MoonViT under "model.vision_tower"
(towers/kimi_k25.py; Kimi_K25VisionModel whatever vision_config's model_type says), DeepSeek-V3's decoder read from
text_config by the deepseek_v3 family's own table (Kimi_K25Config.__post_init__ reads a text_config typed kimi_k2 as
deepseek_v3), then the projector ("model.mm_projector", registered after the decoder) and the head; tied by the
whole config's tie_word_embeddings alone (True)."""

from ..towers import Whole
from ..towers.kimi_k25 import kimi_k25
from ._family import multimodal
from ._projector_last import projector_last
from .deepseek import FAMILIES as DEEPSEEK

DEEPSEEK_V3 = next(family for family in DEEPSEEK if family.model_type == "deepseek_v3")
FAMILIES = [projector_last(
    multimodal(DEEPSEEK_V3, "kimi_k25", "transformers 5.24.0 models/kimi_k25/configuration_kimi_k25.py (Kimi_K25Config)",
               Whole({"model_type": "kimi_k25_vision"}, kimi_k25, projector_prefix="model.mm_projector.",
                     tie_word_embeddings=True, vision_kind="kimi_k25_vision"),
               "Kimi_K25ForConditionalGeneration"),
    "model.vision_tower", "model.mm_projector")]
