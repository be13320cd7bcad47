"""Mistral 3 (Mistral Small 3.1, 3.2): the whole Mistral3ForConditionalGeneration, a Pixtral tower
(towers/pixtral.py), Mistral3MultiModalProjector (its RMSNorm and patch merger before LLaVA's two Linears)
and a Mistral decoder read from text_config by the mistral family's own table."""

from ..towers import Whole
from ..towers.pixtral import mistral3
from ._family import multimodal
from .llama import FAMILIES as LLAMA_FAMILIES

MISTRAL = next(family for family in LLAMA_FAMILIES if family.model_type == "mistral")
# The vision_config Mistral3Config builds when a config gives none (its sub_configs_defaults; the keys that
# change no count left out: vocab_size, head_dim, which PixtralVisionConfig recomputes, hidden_act).
VISION = {"model_type": "pixtral", "intermediate_size": 4096, "hidden_size": 1024, "patch_size": 14,
          "image_size": 1540, "num_hidden_layers": 24, "num_attention_heads": 16}

# The text_config it builds when a config gives none (its sub_configs_defaults' init_kwargs, the keys that change
# no count left out): Mistral Small 3.1's decoder, not MistralConfig's defaults.
TEXT = {"model_type": "mistral", "head_dim": 128, "hidden_size": 5120, "intermediate_size": 32768,
        "max_position_embeddings": 131072, "num_attention_heads": 32, "num_hidden_layers": 40,
        "num_key_value_heads": 8, "sliding_window": None, "vocab_size": 131072}

MISTRAL3 = multimodal(MISTRAL, "mistral3",
                      "transformers 5.24.0 models/mistral3/configuration_mistral3.py (Mistral3Config)",
                      Whole(VISION, mistral3, tie_word_embeddings=True, text_config=TEXT,
                            text_types=("mistral", "ministral", "ministral3", "mistral4")),
                      "Mistral3ForConditionalGeneration")
FAMILIES = [MISTRAL3]
