"""Idefics2, Idefics3 and SmolVLM: the whole <X>ForConditionalGeneration, the Idefics vision transformer under
model.vision_model (towers/idefics.py), a connector (Idefics3's and SmolVLM's pixel shuffle and one Linear,
Idefics2's gated MLP and perceiver resampler) and the decoder under model.text_model, read from text_config
by its own family's table (Llama for Idefics3 and SmolVLM, Mistral for Idefics2).  Each ties its head by the
whole config's tie_word_embeddings (class default False)."""

from ..towers import Whole
from ..towers.idefics import idefics2, idefics3
from ._family import multimodal
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA, MISTRAL = (next(f for f in LLAMA_FAMILIES if f.model_type == kind) for kind in ("llama", "mistral"))
TF = "transformers 5.24.0 models/{0}/configuration_{0}.py ({1}Config: text_config {2}, vision_config {1}VisionConfig)"
PLACES = {"vision_prefix": "model.vision_model.", "projector_prefix": "model.", "decoder_prefix": "model.text_model.",
          "tie_word_embeddings": False}

FAMILIES = [
    multimodal(LLAMA, "idefics3", TF.format("idefics3", "Idefics3", "llama"),
               Whole({"model_type": "idefics3_vision"}, idefics3, **PLACES), "Idefics3ForConditionalGeneration"),
    multimodal(LLAMA, "smolvlm", TF.format("smolvlm", "SmolVLM", "llama"),
               Whole({"model_type": "smolvlm_vision"}, idefics3, **PLACES), "SmolVLMForConditionalGeneration"),
    multimodal(MISTRAL, "idefics2", TF.format("idefics2", "Idefics2", "mistral"),
               Whole({"model_type": "idefics2_vision"}, idefics2(MISTRAL.defaults["intermediate_size"]), **PLACES,
                     vision_kind="idefics2_vision"),  # Idefics2Config drops vision_config's model_type
               "Idefics2ForConditionalGeneration"),
]
