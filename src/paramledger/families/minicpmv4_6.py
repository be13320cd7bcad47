"""MiniCPM-V 4.6 and 4.7 (MiniCPMV4_6ForConditionalGeneration, MiniCPMV4_7ForConditionalGeneration) counted
whole: the SigLIP-style tower with the ViT window merger under "model.vision_tower" (towers/minicpmv4_6.py; the
class's vision model whatever vision_config's model_type says), a Qwen3.5 decoder read from text_config by the qwen3_5_text family's own table, then the merger
("model.merger", registered after the decoder) and the head; tied by the whole config's tie_word_embeddings alone
(False).  MiniCPM-OCR (MiniCPMOcrForConditionalGeneration) is MiniCPM-V 4.6 but for its class's tying (True) and
downsample_mode ("4x", count-neutral): models/minicpm_ocr/ diffed against models/minicpmv4_6/."""

from ..towers import Whole
from ..towers.minicpmv4_6 import minicpmv4_6
from ._family import Family, multimodal
from ._projector_last import projector_last
from .qwen3_next import FAMILIES as QWEN3_NEXT

QWEN3_5_TEXT = next(family for family in QWEN3_NEXT if family.model_type == "qwen3_5_text")


def _minicpmv(name: str, prefix: str, tie: bool = False) -> Family:
    """MiniCPM-V 4.6, 4.7 or MiniCPM-OCR (``prefix``: its classes' names before "Config"; the same modules,
    models/minicpmv4_7/ and models/minicpm_ocr/ diffed against models/minicpmv4_6/; 4.7 adds only token ids and its
    3-D positions' rules)."""
    return projector_last(
        multimodal(QWEN3_5_TEXT, name, f"transformers 5.24.0 models/{name}/configuration_{name}.py ({prefix}Config)",
                   Whole({"model_type": f"{name}_vision"}, minicpmv4_6, projector_prefix="model.merger.",
                         tie_word_embeddings=tie, vision_kind=f"{name}_vision", text_types=("qwen3_5_text",)),
                   f"{prefix}ForConditionalGeneration"),
        "model.vision_tower", "model.merger")


FAMILIES = [_minicpmv("minicpmv4_6", "MiniCPMV4_6"), _minicpmv("minicpmv4_7", "MiniCPMV4_7"),
            _minicpmv("minicpm_ocr", "MiniCPMOcr", tie=True)]  # MiniCPMOcrConfig ties
