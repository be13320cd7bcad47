"""LightOnOCR: the whole LightOnOcrForConditionalGeneration, a Pixtral tower under "model.vision_encoder"
(towers/pixtral.py), its projector under "model.vision_projection" (towers/lighton_ocr.py) and a Qwen3 decoder read
from text_config by the qwen3 family's own table; tied by the whole config's tie_word_embeddings (True)."""

from ..towers import Whole
from ..towers.lighton_ocr import lighton_ocr
from ._family import multimodal
from .llama import FAMILIES as LLAMA

QWEN3 = next(family for family in LLAMA if family.model_type == "qwen3")
# The vision_config and text_config LightOnOcrConfig builds when a config gives none (its sub_configs_defaults'
# init_kwargs, the keys that change no count left out).
VISION = {"model_type": "pixtral", "hidden_size": 1024, "image_size": 1540, "intermediate_size": 4096,
          "num_attention_heads": 16, "num_channels": 3, "num_hidden_layers": 24, "patch_size": 14}
TEXT = {"model_type": "qwen3", "head_dim": 128, "hidden_size": 1024, "intermediate_size": 3072,
        "max_position_embeddings": 40960, "num_attention_heads": 16, "num_hidden_layers": 28, "num_key_value_heads": 8,
        "sliding_window": None, "vocab_size": 151936}

FAMILIES = [
    multimodal(QWEN3, "lighton_ocr",
               "transformers 5.24.0 models/lighton_ocr/configuration_lighton_ocr.py (LightOnOcrConfig)",
               Whole(VISION, lighton_ocr, vision_prefix="model.vision_encoder.",
                     projector_prefix="model.vision_projection.", tie_word_embeddings=True, text_config=TEXT,
                     text_types=("qwen3",)),
               "LightOnOcrForConditionalGeneration"),
]
