"""ModernVBERT and UltraVBERT (transformers 5.24.0 models/modernvbert: ModernVBertForMaskedLM, models/ultravbert:
UltraVBertForMaskedLM; only in the masked-LM mapping), counted whole.  ModernVBERT: a SigLIP vision tower with its pooling head under model.vision_model (towers/vision.py's
siglip_vision_model, AutoModel.from_config of vision_config), the connector (Idefics3's pixel shuffle and one Linear,
modeling_modernvbert.py ModernVBertConnector), the text model a ModernBertModel under model.text_model read from
text_config by ModernBERT's own table, then ModernBERT's masked-LM head renamed: projection_head (its dense and
norm, by text_config's classifier_bias and norm_bias) and lm_head (biased by text_config's decoder_bias).  The head
ties to the token table by the whole config's tie_word_embeddings alone (class default False; checked for each of
the whole's and text_config's keys unset, false and true).  UltraVBERT is written as a difference from it below."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..towers import Whole
from ..towers.idefics import _positive
from ._family import multimodal
from .modernbert import MODERNBERT
from .ultrabert import ULTRABERT


def connector(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """ModernVBertConnector: the pixel shuffle folds pixel_shuffle_factor² patches into one (ModernVBertConfig: 4),
    then modality_projection, one Linear without bias into the text model's width."""
    factor = _positive(config, "pixel_shuffle_factor", 4)
    return [("connector.modality_projection.weight", (hidden, vision.hidden_size * factor * factor))]


def ultravbert_connector(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """UltraVBertConnector: ModernVBERT's, then an RMSNorm at the text model's width (UltraBERT has no norm on its
    input embeddings: modular_ultravbert.py)."""
    return [*connector(config, vision, hidden), ("connector.norm.weight", (hidden,))]


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


def ultravbert_renamed(naming: Naming) -> Naming:
    """UltrabertForMaskedLM's head.linear1, head.linear2 and head.decoder as UltraVBertForMaskedLM names them, after
    the model (its tower, connector and text model, in that order)."""
    return dataclasses.replace(
        naming, lm_head_in="projection_head.linear1", lm_head_out="projection_head.linear2", lm_head="lm_head",
        model_order=("model.vision_model", "model.connector", "model.text_model.embed_tokens",
                     "model.text_model.layers", "model.text_model.norm", "projection_head", "lm_head"))


# identical to modernvbert except (modular_ultravbert.py): UltraBERT is the text model (its table reads text_config,
# its bottleneck head renamed), the connector adds a norm, and the tower built when a config gives no vision_config
# has no pooling head (UltraVBertConfig's init_kwargs; a vision_config given without vision_use_head has one, as
# SiglipVisionConfig's default)
MASKED_LM_ONLY.append(multimodal(
    ULTRABERT, "ultravbert", "transformers 5.24.0 models/ultravbert/configuration_ultravbert.py (UltraVBertConfig: "
    "text_config ultrabert, vision_config siglip_vision_model)",
    MASKED_LM_ONLY[0].whole._replace(vision_config={"model_type": "siglip_vision_model", "vision_use_head": False},
                                     projector=ultravbert_connector, renamed=ultravbert_renamed),
    "UltraVBertForMaskedLM"))
FAMILIES = MASKED_LM_ONLY
