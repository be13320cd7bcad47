"""Qianfan-OCR: the whole QianfanOCRForConditionalGeneration, InternVL's layout (towers/qianfan_ocr.py's InternViT,
InternVL's pixel-shuffle projector) around a Qwen3 decoder read from text_config by the qwen3 family's own table;
tied by the whole config's tie_word_embeddings alone (QianfanOCRConfig: False)."""

from ..towers import Whole
from ..towers.internvl import internvl
from ._family import multimodal
from .llama import FAMILIES as LLAMA

QWEN3 = next(family for family in LLAMA if family.model_type == "qwen3")

FAMILIES = [
    multimodal(QWEN3, "qianfan_ocr",
               "transformers 5.24.0 models/qianfan_ocr/configuration_qianfan_ocr.py (QianfanOCRConfig)",
               Whole({"model_type": "qianfan_ocr_vision"}, internvl, tie_word_embeddings=False, text_types=("qwen3",)),
               "QianfanOCRForConditionalGeneration"),
]
