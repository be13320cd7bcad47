"""PaliGemma as a whole model: a SigLIP tower without its pooling head, one biased Linear to projection_dim
(towers/projectors.py's paligemma) and a Gemma decoder; tied by the whole config's tie_word_embeddings
(PaliGemmaConfig's, default True).  PaliGemma 2's decoder is Gemma 2, named by its own family (its sandwich
norms are named apart from Gemma's)."""

import dataclasses

from ..towers import Whole, images, projectors
from ._family import multimodal
from .gemma import FAMILIES as GEMMA

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
TEXT = {family.model_type: family for family in GEMMA}
# PaliGemmaConfig.sub_configs_defaults: what a config without vision_config / text_config builds.
SIGLIP_224 = {"model_type": "siglip_vision_model", "intermediate_size": 4096, "hidden_size": 1152, "patch_size": 14,
              "image_size": 224, "num_hidden_layers": 27, "num_attention_heads": 16, "vision_use_head": False}
GEMMA_2B = {"model_type": "gemma", "hidden_size": 2048, "num_hidden_layers": 18, "intermediate_size": 16384,
            "num_attention_heads": 8, "num_key_value_heads": 1, "vocab_size": 257152}

PALIGEMMA = multimodal(TEXT["gemma"], "paligemma", TF.format("paligemma") + " (PaliGemmaConfig)",
                       Whole(SIGLIP_224, projectors.paligemma, tie_word_embeddings=True, text_types=("gemma", "gemma2"),
                             image_tokens=images.patches,
                             text_config=GEMMA_2B), "PaliGemmaForConditionalGeneration")
# PaliGemmaConfig.__post_init__ writes the image's patch count into text_config (its released configs keep it).
PALIGEMMA = dataclasses.replace(PALIGEMMA, count_neutral=PALIGEMMA.count_neutral | {"num_image_tokens"})
FAMILIES = [PALIGEMMA]
