"""MiniCPM-V 4.6 and 4.7 (MiniCPMV4_6ForConditionalGeneration, MiniCPMV4_7ForConditionalGeneration) counted
whole: the SigLIP-style tower with the ViT window merger under "model.vision_tower" (towers/minicpmv4_6.py; the
class's vision model whatever vision_config's model_type says), a Qwen3.5 decoder read from text_config by the qwen3_5_text family's own table, then the merger
("model.merger", registered after the decoder) and the head; tied by the whole config's tie_word_embeddings alone
(False)."""

from ..towers import Whole
from ..towers.minicpmv4_6 import minicpmv4_6
from ._family import Family, multimodal
from ._projector_last import projector_last
from .qwen3_next import FAMILIES as QWEN3_NEXT

QWEN3_5_TEXT = next(family for family in QWEN3_NEXT if family.model_type == "qwen3_5_text")


def _minicpmv(version: str) -> Family:
    """MiniCPM-V 4.6 or 4.7 (the same modules, models/minicpmv4_7/ diffed against models/minicpmv4_6/; 4.7 adds only
    token ids and its 3-D positions' rules)."""
    name = f"minicpmv{version}"
    cls = f"MiniCPMV{version.upper()}ForConditionalGeneration"
    return projector_last(
        multimodal(QWEN3_5_TEXT, name, f"transformers 5.24.0 models/{name}/configuration_{name}.py "
                   f"(MiniCPMV{version.upper()}Config)",
                   Whole({"model_type": f"{name}_vision"}, minicpmv4_6, projector_prefix="model.merger.",
                         tie_word_embeddings=False, vision_kind=f"{name}_vision", text_types=("qwen3_5_text",)),
                   cls),
        "model.vision_tower", "model.merger")


FAMILIES = [_minicpmv("4_6"), _minicpmv("4_7")]
