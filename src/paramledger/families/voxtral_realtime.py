"""Voxtral Realtime (VoxtralRealtimeForConditionalGeneration) counted whole, as Voxtral is (families/audio_text.py):
the audio tower under "model.audio_tower" (towers/voxtral_realtime.py), the decoder under "model.language_model",
the projector registered after it, then the head; the model's time_embedding holds a buffer only.

transformers 5.24.0 models/voxtral_realtime/modeling_voxtral_realtime.py (VoxtralRealtimeModel,
VoxtralRealtimeTextModel, VoxtralRealtimeTextDecoderLayer) and configuration_voxtral_realtime.py
(VoxtralRealtimeConfig, VoxtralRealtimeTextConfig).  The head is tied by the whole config's tie_word_embeddings alone
(True; text_config's changes nothing: checked unset, false and true at both levels)."""

import dataclasses

from ..towers import Whole
from ..towers.voxtral_realtime import projector, time_embedding
from ._family import derived_from, multimodal
from ._projector_last import projector_last
from .llama import FAMILIES as LLAMA

MISTRAL = next(family for family in LLAMA if family.model_type == "mistral")

# identical to mistral except: every decoder layer holds an ada_rms_norm (parts/ada_rms_norm.py, 32 wide, after the
# layer's norms), and VoxtralRealtimeConfig.__post_init__ puts its text_config's init_kwargs under any text_config
# given (not only when none is), so these are the decoder's defaults, under the whole model's own type (as Voxtral's).
TEXT = derived_from(MISTRAL, model_type="voxtral_realtime", defaults={
    **MISTRAL.defaults, "vocab_size": 131072, "hidden_size": 3072, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 131072, "head_dim": 128,
    "tie_word_embeddings": True, "sliding_window": 8192},
    switches={**MISTRAL.switches, "ada_rms_norm_t_cond_dim": 32},
    naming=dataclasses.replace(MISTRAL.naming, layer_order=(
        "self_attn", "mlp", "input_layernorm", "post_attention_layernorm", "ada_rms_norm")))

FAMILIES = [
    projector_last(multimodal(TEXT, "voxtral_realtime", "transformers 5.24.0 models/voxtral_realtime/"
                              "configuration_voxtral_realtime.py (VoxtralRealtimeConfig)",
                              Whole({}, projector, audio_config={"model_type": "voxtral_realtime_encoder"},
                                    tie_word_embeddings=True, model_buffers=time_embedding),
                              "VoxtralRealtimeForConditionalGeneration"),
                   "model.audio_tower", "model.multi_modal_projector"),
]
