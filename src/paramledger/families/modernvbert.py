"""ModernVBERT (transformers 5.24.0 models/modernvbert: ModernVBertForMaskedLM; only in the masked-LM mapping),
counted whole: a SigLIP vision tower with its pooling head under model.vision_model (towers/vision.py's
siglip_vision_model, AutoModel.from_config of vision_config), the connector (Idefics3's pixel shuffle and one Linear,
modeling_modernvbert.py ModernVBertConnector), the text model a ModernBertModel under model.text_model read from
text_config by ModernBERT's own table, then ModernBERT's masked-LM head renamed: projection_head (its dense and
norm, by text_config's classifier_bias and norm_bias) and lm_head (biased by text_config's decoder_bias).  The head
ties to the token table by the whole config's tie_word_embeddings alone (class default False; checked for each of
the whole's and text_config's keys unset, false and true)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..towers import Whole
from ..towers.idefics import _positive
from ._family import multimodal
from .modernbert import MODERNBERT


def connector(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """ModernVBertConnector: the pixel shuffle folds pixel_shuffle_factor² patches into one (ModernVBertConfig: 4),
    then modality_projection, one Linear without bias into the text model's width."""
    factor = _positive(config, "pixel_shuffle_factor", 4)
    return [("connector.modality_projection.weight", (hidden, vision.hidden_size * factor * factor))]


def renamed(naming: Naming) -> Naming:
    """ModernBertForMaskedLM's head.dense, head.norm and decoder as ModernVBertForMaskedLM names them, after the
    model (its tower, connector and text model, in that order)."""
    return dataclasses.replace(
        naming, lm_head_dense="projection_head.dense", lm_head_norm="projection_head.norm", lm_head="lm_head",
        model_order=("model.vision_model", "model.connector", "model.text_model.embeddings",
                     "model.text_model.layers", "model.text_model.final_norm", "projection_head", "lm_head"))


# identical to modernbert (the text model and its head's tensors) except: the names above, and the tower and
# connector beside it
MASKED_LM_ONLY = [multimodal(MODERNBERT, "modernvbert", "transformers 5.24.0 models/modernvbert/"
                             "configuration_modernvbert.py (ModernVBertConfig: text_config modernbert, vision_config "
                             "siglip_vision_model)",
                             Whole({"model_type": "siglip_vision_model"}, connector, vision_prefix="model.vision_model.",
                                   projector_prefix="model.", decoder_prefix="model.text_model.",
                                   tie_word_embeddings=False, renamed=renamed),
                             "ModernVBertForMaskedLM")]
FAMILIES = MASKED_LM_ONLY
