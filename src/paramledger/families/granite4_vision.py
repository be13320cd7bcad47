"""Granite 4 Vision (Granite4VisionForConditionalGeneration) counted whole: LLaVA-NeXT's layout (a CLIP tower under
"model.vision_tower", image_newline, the decoder under "model.language_model", the head) with Window Q-Former
downsamplers in the projector's place, registered after the decoder (towers/granite4_vision.py).
transformers 5.24.0 models/granite4_vision/modeling_granite4_vision.py (Granite4VisionModel, lines 747-773).

The decoder is Granite4VisionTextModel, a GraniteModel (Llama's tensors, scalar multipliers, no tensor for the
deepstack injection): the granite family's table (Granite4VisionTextConfig's defaults are GraniteConfig's).  The head
is tied by the whole config's tie_word_embeddings (False).  Its class defaults transformers cannot build
(downsample_rate and deepstack_layer_map None): reference.DEFAULTS_NEED gives the release's."""

import dataclasses

from ..towers import Whole
from ..towers.granite4_vision import window_qformers
from ._family import derived_from, multimodal
from .granite import FAMILIES as GRANITE

GRANITE_TEXT = next(family for family in GRANITE if family.model_type == "granite")
TEXT = derived_from(GRANITE_TEXT, model_type="granite4_vision")

WHOLE = multimodal(TEXT, "granite4_vision",
                   "transformers 5.24.0 models/granite4_vision/configuration_granite4_vision.py (Granite4VisionConfig)",
                   Whole({"model_type": "clip_vision_model"}, window_qformers, projector_prefix="model.",
                         tie_word_embeddings=False),
                   "Granite4VisionForConditionalGeneration")
# named_parameters(): the model's own image_newline first, the tower, the decoder, then the downsamplers
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(WHOLE.naming, model_order=(
    "model.image_newline", "model.vision_tower", "model.language_model.embed_tokens", "model.language_model.layers",
    "model.language_model.norm", "model.layerwise_projectors", "model.spatial_projectors")))]
