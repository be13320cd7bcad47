"""Aria: the whole AriaForConditionalGeneration, an Idefics3 vision transformer (towers/idefics.py), its
cross-attention projector (towers/aria.py) and its MoE decoder read from text_config by the aria_text family's own
table; tied by the whole config's tie_word_embeddings alone (AriaConfig: False)."""

from ..towers import Whole
from ..towers.aria import aria
from ._family import multimodal
from .moe import FAMILIES as MOE

ARIA_TEXT = next(family for family in MOE if family.model_type == "aria_text")

FAMILIES = [
    multimodal(ARIA_TEXT, "aria", "transformers 5.24.0 models/aria/configuration_aria.py (AriaConfig)",
               Whole({"model_type": "idefics3_vision"}, aria, tie_word_embeddings=False),
               "AriaForConditionalGeneration"),
]
