"""MiniCPM-V 4.6 (MiniCPMV4_6ForConditionalGeneration) counted whole: its SigLIP-style tower with the ViT window
merger under "model.vision_tower" (towers/minicpmv4_6.py; MiniCPMV4_6VisionModel whatever vision_config's
model_type says), a Qwen3.5 decoder read from text_config by the qwen3_5_text family's own table, then the merger
("model.merger", registered after the decoder) and the head; tied by the whole config's tie_word_embeddings alone
(False)."""

from ..towers import Whole
from ..towers.minicpmv4_6 import minicpmv4_6
from ._family import multimodal
from ._projector_last import projector_last
from .qwen3_next import FAMILIES as QWEN3_NEXT

QWEN3_5_TEXT = next(family for family in QWEN3_NEXT if family.model_type == "qwen3_5_text")
FAMILIES = [projector_last(
    multimodal(QWEN3_5_TEXT, "minicpmv4_6",
               "transformers 5.24.0 models/minicpmv4_6/configuration_minicpmv4_6.py (MiniCPMV4_6Config)",
               Whole({"model_type": "minicpmv4_6_vision"}, minicpmv4_6, projector_prefix="model.merger.",
                     tie_word_embeddings=False, vision_kind="minicpmv4_6_vision", text_types=("qwen3_5_text",)),
               "MiniCPMV4_6ForConditionalGeneration"),
    "model.vision_tower", "model.merger")]
