"""EXAONE 4.5: the whole Exaone4_5_ForConditionalGeneration, its grouped-query Qwen2.5-VL-style tower with its merger
under "model.visual" (towers/exaone4_5.py: Exaone4_5_VisionModel whatever vision_config's model_type says) and an
EXAONE 4 decoder read from text_config by the exaone4 family's own table (Exaone4_5_Config.__post_init__ reads a
text_config typed exaone4_5_text as exaone4); tied by the whole config's tie_word_embeddings alone (False)."""

import dataclasses

from ..towers import Whole
from ..towers.qwen_vl import none
from ._family import multimodal
from .llama import FAMILIES as LLAMA

EXAONE4 = next(family for family in LLAMA if family.model_type == "exaone4")

# The release's multi-token-prediction module (text_config's mtp keys): Exaone4_5_ForConditionalGeneration builds
# none of it and drops its mtp.* weights on load (_keys_to_ignore_on_load_unexpected, modeling_exaone4_5.py:526)
MTP_KEYS = frozenset({"_num_mtp_layers", "num_nextn_predict_layers", "mtp_loss_scaling_factor", "mtp_share_layers"})

FAMILIES = [dataclasses.replace(
    multimodal(EXAONE4, "exaone4_5", "transformers 5.24.0 models/exaone4_5/configuration_exaone4_5.py "
               "(Exaone4_5_Config)",
               Whole({"model_type": "exaone4_5_vision"}, none, vision_prefix="model.visual.", tie_word_embeddings=False,
                     vision_kind="exaone4_5_vision", typed_sections=("text_config",)),  # (configuration line 79)
               "Exaone4_5_ForConditionalGeneration"),
    count_neutral=EXAONE4.count_neutral | MTP_KEYS),
]
