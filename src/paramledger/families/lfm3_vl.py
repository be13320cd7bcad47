"""LFM3-VL: the whole Lfm3VlForConditionalGeneration, LFM2-VL's layout (families/lfm2_vl.py) except: the tower is
LFM3-VL's own (towers/lfm3_vl.py: LFM2's conv/attention layers over patches, not SigLIP 2), the projector's LayerNorm
sits before the patches are folded, the decoder is LFM3 (read from text_config by the lfm3 family's own table) and
Lfm3VlModel registers the language model first, then the tower and projector (transformers 5.24.0
models/lfm3_vl/modeling_lfm3_vl.py, Lfm3VlModel.__init__).  The whole model ties its head by its own
tie_word_embeddings (Lfm3VlConfig: True).  An image's tokens follow its size and the processor's own bounds, which no
config.json holds: not declared."""

import dataclasses

from ..towers import Whole
from ..towers.lfm3_vl import lfm3_vl
from ._family import multimodal
from .lfm3 import FAMILIES as LFM3_FAMILIES

LFM3 = next(family for family in LFM3_FAMILIES if family.model_type == "lfm3")

_WHOLE = multimodal(LFM3, "lfm3_vl", "transformers 5.24.0 models/lfm3_vl/configuration_lfm3_vl.py (Lfm3VlConfig: "
                    "text_config lfm3, vision_config lfm3_vl_vision)",
                    Whole({"model_type": "lfm3_vl_vision"}, lfm3_vl, tie_word_embeddings=True,
                          vision_kind="lfm3_vl_vision"), "Lfm3VlForConditionalGeneration")
_DECODER_FIRST = ("model.language_model.embed_tokens", "model.language_model.layers",
                  "model.language_model.embedding_norm", "model.vision_tower", "model.multi_modal_projector")

FAMILIES = [dataclasses.replace(_WHOLE, naming=dataclasses.replace(_WHOLE.naming, model_order=_DECODER_FIRST))]
