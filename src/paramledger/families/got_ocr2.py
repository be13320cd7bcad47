"""GOT-OCR 2.0 and PP-Chart2Table (GotOcr2ForConditionalGeneration) counted whole: SAM's ViT with its neck under "model.vision_tower"
(towers/got_ocr2.py; GotOcr2VisionEncoder whatever vision_config's model_type says), its conv projector and a Qwen2
decoder read from text_config by the qwen2 family's own table; tied by the whole config's tie_word_embeddings
(True)."""

from ..towers import Whole
from ..towers.got_ocr2 import got_ocr2
from ._family import Family, multimodal
from .llama import FAMILIES as LLAMA

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")
# The text_config GotOcr2Config builds when a config gives none (its sub_configs_defaults' init_kwargs, the keys that
# change no count left out).
TEXT = {"model_type": "qwen2", "vocab_size": 151860, "hidden_size": 1024, "intermediate_size": 2816,
        "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16, "hidden_act": "silu",
        "max_position_embeddings": 32768, "tie_word_embeddings": True, "use_sliding_window": False,
        "sliding_window": 4096, "max_window_layers": 21}


def _got_ocr2(model_type: str, config_class: str) -> Family:
    return multimodal(QWEN2, model_type, f"transformers 5.24.0 models/{model_type}/configuration_{model_type}.py "
                      f"({config_class})",
                      Whole({"model_type": "got_ocr2_vision"}, got_ocr2, tie_word_embeddings=True, text_config=TEXT,
                            text_types=("qwen2",), vision_kind="got_ocr2_vision"),
                      "GotOcr2ForConditionalGeneration")


# PP-Chart2Table: transformers 5.24.0 builds GotOcr2ForConditionalGeneration for it (its image-text-to-text mapping);
# PPChart2TableConfig and its vision config have GOT-OCR 2.0's fields and defaults (diffed).
FAMILIES = [_got_ocr2("got_ocr2", "GotOcr2Config"), _got_ocr2("pp_chart2table", "PPChart2TableConfig")]
