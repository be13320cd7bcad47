"""GraniteDocling (GraniteDoclingForConditionalGeneration) counted whole: its vision model under "model.vision_model"
(the Idefics3 vision transformer and its connector, towers/granite_docling.py), the decoder under "model.text_model",
then the density router (where density_router_hidden_size is set), registered after the decoder, and the head.
transformers 5.24.0 models/granite_docling/modeling_granite_docling.py (GraniteDoclingModel, an Idefics3Model).

The decoder is GraniteDoclingTextModel, a GraniteModel (Llama's tensors, scalar multipliers): the granite family's
table under the whole model's type (transformers registers no CausalLM for granite_docling_text), with
GraniteDoclingTextConfig's defaults.  The head is tied by the whole config's tie_word_embeddings alone (True;
text_config's changes nothing: checked over all nine combinations)."""

import dataclasses

from ..towers import Whole
from ..towers.granite_docling import density_router
from ._family import derived_from, multimodal
from .granite import FAMILIES as GRANITE

GRANITE_TEXT = next(family for family in GRANITE if family.model_type == "granite")

# identical to Granite except GraniteDoclingTextConfig's defaults
# (models/granite_docling/configuration_granite_docling.py)
TEXT = derived_from(GRANITE_TEXT, model_type="granite_docling", defaults={
    **GRANITE_TEXT.defaults, "vocab_size": 133800, "hidden_size": 1024, "intermediate_size": 2048,
    "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 4, "max_position_embeddings": 32768,
    "tie_word_embeddings": True})

WHOLE = multimodal(TEXT, "granite_docling",
                   "transformers 5.24.0 models/granite_docling/configuration_granite_docling.py (GraniteDoclingConfig)",
                   Whole({"model_type": "granite_docling_vision"}, density_router,
                         vision_prefix="model.vision_model.", projector_prefix="model.density_router.",
                         decoder_prefix="model.text_model.", tie_word_embeddings=True,
                         vision_kind="granite_docling_vision"),  # GraniteDoclingConfig's own vision class
                   "GraniteDoclingForConditionalGeneration")
# The density router after the decoder, as named_parameters() lists it (families/_projector_last.py's order, under
# the decoder's own prefix)
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(WHOLE.naming, model_order=(
    "model.vision_model", "model.text_model.embed_tokens", "model.text_model.layers", "model.text_model.norm",
    "model.density_router")))]
