"""InternVL (InternVL3, InternVL3.5 as the -hf releases ship them): the whole InternVLForConditionalGeneration, an
InternViT tower with layer scale (towers/internvl.py), the pixel-shuffle MLP projector and a text decoder of any of
several families, each read by its own table (Whole.text_types; a config without text_config builds Qwen2's, its
sub_configs_defaults).  The head is tied by the whole config's tie_word_embeddings alone (InternVLConfig: True)."""

from ..towers import Whole
from ..towers.internvl import internvl
from ._family import multimodal
from .llama import FAMILIES as LLAMA

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")
# The decoders of InternVL3 (Qwen2.5), InternVL3.5 (Qwen3, Qwen3-MoE) and the Llama-based ones.
TEXT_TYPES = ("qwen2", "qwen3", "qwen3_moe", "llama")

FAMILIES = [
    multimodal(QWEN2, "internvl", "transformers 5.24.0 models/internvl/configuration_internvl.py (InternVLConfig)",
               Whole({"model_type": "internvl_vision"}, internvl, tie_word_embeddings=True, text_types=TEXT_TYPES),
               "InternVLForConditionalGeneration"),
]
