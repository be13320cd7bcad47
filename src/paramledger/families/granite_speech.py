"""Granite Speech (transformers 5.24.0 models/granite_speech: GraniteSpeechForConditionalGeneration), counted whole:
the Conformer CTC encoder under model.encoder, read from the config's encoder_config, the Q-Former projector under
model.projector (towers/granite_speech.py), the Granite decoder under model.language_model read from text_config by
Granite's table, and lm_head, tied to the token table by the whole config's tie_word_embeddings alone (class default
True; checked for each of the whole's and text_config's keys unset, false and true).  Granite Speech Plus is the
same model (modular_granite_speech_plus.py: its classes add no module), its encoder_config's cat_hidden_layers
changing only what its projector's Q-Former reads, which must then be as wide as those outputs side by side."""

from ..towers import Whole
from ..towers.granite_speech import projector
from ._family import multimodal
from .granite import FAMILIES as GRANITE_FAMILIES

GRANITE = next(family for family in GRANITE_FAMILIES if family.model_type == "granite")

TF = ("transformers 5.24.0 models/{0}/configuration_{0}.py ({1}Config: text_config granite, encoder_config "
      "{1}EncoderConfig, projector_config blip_2_qformer)")


def _whole(model_type: str) -> Whole:
    return Whole({}, projector, projector_prefix="model.projector.", decoder_prefix="model.language_model.",
                 audio_config={"model_type": f"{model_type}_encoder"}, audio_key="encoder_config",
                 audio_prefix="model.encoder.", audio_kind=f"{model_type}_encoder", text_types=("granite",))


FAMILIES = [multimodal(GRANITE, "granite_speech", TF.format("granite_speech", "GraniteSpeech"),
                       _whole("granite_speech"), "GraniteSpeechForConditionalGeneration"),
            # identical to granite_speech except the encoder_config's class (cat_hidden_layers, above)
            multimodal(GRANITE, "granite_speech_plus", TF.format("granite_speech_plus", "GraniteSpeechPlus"),
                       _whole("granite_speech_plus"), "GraniteSpeechPlusForConditionalGeneration")]
