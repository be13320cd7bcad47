"""LFM2-VL: the whole Lfm2VlForConditionalGeneration, a SigLIP 2 NaFlex tower (towers/siglip2.py), the
pixel-unshuffle projector (a LayerNorm and two Linears) and an LFM2 decoder read from text_config by the lfm2
family's own table.  The whole model ties its head by its own tie_word_embeddings (Lfm2VlConfig: True)."""

from ..towers import Whole
from ..towers.siglip2 import lfm2_vl
from ._family import multimodal
from .lfm2 import FAMILIES as LFM2_FAMILIES

LFM2 = next(family for family in LFM2_FAMILIES if family.model_type == "lfm2")

FAMILIES = [
    multimodal(LFM2, "lfm2_vl", "transformers 5.24.0 models/lfm2_vl/configuration_lfm2_vl.py (Lfm2VlConfig: "
               "text_config lfm2, vision_config siglip2_vision_model)",
               Whole({"model_type": "siglip2_vision_model"}, lfm2_vl, tie_word_embeddings=True,
                     tie_keys=("tie_embedding", "tie_word_embeddings")),  # Lfm2VlConfig pops tie_embedding over it
               "Lfm2VlForConditionalGeneration"),
]
