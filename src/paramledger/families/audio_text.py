"""The audio-text models over a Whisper-style encoder (towers/audio.py), counted whole: the encoder under
"model.audio_tower" (built by audio_config's model_type over its class's defaults: AutoModel.from_config), a
projector (towers/audio_projectors.py, or the tower's module) and the decoder read from text_config by its own
family's table.  How each ties its head was checked for the whole config's and text_config's key, each unset, false
and true: Qwen2-Audio, Voxtral and Audio Flamingo 3 never tie (their classes declare no tied weights); GLM-ASR,
Qwen3-ASR and MOSS tie by the whole config's tie_word_embeddings alone (True)."""

import math
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER
from ..towers import Whole
from ..towers import audio_projectors as projectors
from ..towers.fun_asr_nano import fun_asr_nano
from ..towers.glmasr import glmasr
from ..towers.qwen3_asr import qwen3_asr
from ._family import derived_from, multimodal
from ._projector_last import projector_last
from .llama import FAMILIES as LLAMA

QWEN2, LLAMA_TEXT, QWEN3 = (next(family for family in LLAMA if family.model_type == name)
                            for name in ("qwen2", "llama", "qwen3"))
TF = "transformers 5.24.0 models/{0}/configuration_{0}.py ({1})"
AUDIO_TYPES = ("qwen2_audio_encoder", "voxtral_encoder", "audioflamingo3_encoder")
NEVER_TIED = {"tie_word_embeddings": False, "tie_keys": ()}

# The audio_config Qwen2AudioConfig builds when a config gives none (its sub_configs_defaults' init_kwargs, the keys
# that change no count left out): the encoder class's own defaults.
QWEN2_AUDIO = {"model_type": "qwen2_audio_encoder", "d_model": 1280, "encoder_attention_heads": 20,
               "encoder_ffn_dim": 5120, "encoder_layers": 32, "num_mel_bins": 128, "max_source_positions": 1500}
# identical to llama except: VoxtralConfig.__post_init__ puts its text_config's init_kwargs under any text_config
# given (not only when none is), so its decoder is read by Llama's table with these defaults, under voxtral's own
# type (no registered family has them): --text-only counts this decoder under the whole model's names.
VOXTRAL_TEXT = derived_from(LLAMA_TEXT, model_type="voxtral", defaults={
    **LLAMA_TEXT.defaults, "vocab_size": 131072, "hidden_size": 3072, "intermediate_size": 8192,
    "num_hidden_layers": 30, "num_key_value_heads": 8, "max_position_embeddings": 131072, "head_dim": 128})

GLMASR_TEXT = derived_from(LLAMA_TEXT, model_type="glmasr", defaults={
    **LLAMA_TEXT.defaults, "vocab_size": 59264, "hidden_size": 2048, "intermediate_size": 6144,
    "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 4, "max_position_embeddings": 8192})

# The text_config Qwen3ASRConfig builds when a config gives none (its init_kwargs; a text_config given is read over
# Qwen3Config's own defaults).
QWEN3_ASR_TEXT = {"model_type": "qwen3", "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 28,
                  "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
                  "max_position_embeddings": 65536, "tie_word_embeddings": True}

# The text_config MossTranscribeDiarizeConfig builds when a config gives none (its init_kwargs over Qwen3Config's).
MOSS_TEXT = {"model_type": "qwen3", "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28,
             "num_attention_heads": 16, "num_key_value_heads": 8, "max_position_embeddings": 131072}


def _last(family):
    return projector_last(family, "model.audio_tower", "model.multi_modal_projector")


FAMILIES = [
    # Qwen2AudioForConditionalGeneration: audio_tower, multi_modal_projector, language_model (Qwen2), lm_head.
    multimodal(QWEN2, "qwen2_audio", TF.format("qwen2_audio", "Qwen2AudioConfig"),
               Whole({}, projectors.qwen2_audio, audio_config=QWEN2_AUDIO, text_types=("qwen2",), **NEVER_TIED),
               "Qwen2AudioForConditionalGeneration"),
    # VoxtralForConditionalGeneration: audio_tower, language_model (Llama), then multi_modal_projector.
    # GlmAsrForConditionalGeneration: audio_tower, language_model (Llama, GlmAsrConfig's init_kwargs under any
    # text_config, as Voxtral's), multi_modal_projector; the head tied by the whole config's key alone (True).
    _last(multimodal(GLMASR_TEXT, "glmasr", TF.format("glmasr", "GlmAsrConfig"),
                     Whole({}, glmasr, audio_config={"model_type": "glmasr_encoder"}, tie_word_embeddings=True),
                     "GlmAsrForConditionalGeneration")),
    # Qwen3ASRForConditionalGeneration: audio_tower, language_model (Qwen3), multi_modal_projector; tied by the whole
    # config's key alone (True).
    _last(multimodal(QWEN3, "qwen3_asr", TF.format("qwen3_asr", "Qwen3ASRConfig"),
                     Whole({}, qwen3_asr, audio_config={"model_type": "qwen3_asr_encoder"}, tie_word_embeddings=True,
                           text_config=QWEN3_ASR_TEXT, text_types=("qwen3",)),
                     "Qwen3ASRForConditionalGeneration")),
    # MossTranscribeDiarizeForConditionalGeneration: audio_tower, language_model (Qwen3), multi_modal_projector; tied
    # by the whole config's key alone (True).
    _last(multimodal(QWEN3, "moss_transcribe_diarize", TF.format("moss_transcribe_diarize",
                                                                 "MossTranscribeDiarizeConfig"),
                     Whole({}, projectors.moss_transcribe_diarize,
                           audio_config={"model_type": "moss_transcribe_diarize_audio"}, tie_word_embeddings=True,
                           text_config=MOSS_TEXT, text_types=("qwen3",)),
                     "MossTranscribeDiarizeForConditionalGeneration")),
    # FunAsrNanoForConditionalGeneration: audio_tower, language_model (Qwen3), multi_modal_projector (with its
    # adaptor layers); tied by the whole config's key alone (True).
    _last(multimodal(QWEN3, "fun_asr_nano", TF.format("fun_asr_nano", "FunAsrNanoConfig"),
                     Whole({}, fun_asr_nano, audio_config={"model_type": "fun_asr_nano_encoder"},
                           tie_word_embeddings=True, text_config={**MOSS_TEXT, "max_position_embeddings": 40960,
                                                                "tie_word_embeddings": True},
                           text_types=("qwen3",)),
                     "FunAsrNanoForConditionalGeneration")),
    _last(multimodal(VOXTRAL_TEXT, "voxtral", TF.format("voxtral", "VoxtralConfig"),
                     Whole({}, projectors.voxtral, audio_config={"model_type": "voxtral_encoder"}, **NEVER_TIED),
                     "VoxtralForConditionalGeneration")),
]

# AudioFlamingo3ForConditionalGeneration: audio_tower, language_model (Qwen2), multi_modal_projector.  Registered by
# docs/notes/audio-o.patch: transformers 5.24.0 maps audioflamingo3 only to AutoModelForSeq2SeqLM (the
# seq-to-seq-causal-LM mapping), which reference.auto_class does not yet try.
AUDIOFLAMINGO3 = _last(multimodal(QWEN2, "audioflamingo3", TF.format("audioflamingo3", "AudioFlamingo3Config"),
                                  Whole({}, projectors.audioflamingo3,
                                        audio_config={"model_type": "audioflamingo3_encoder"}, text_types=("qwen2",),
                                        **NEVER_TIED),
                                  "AudioFlamingo3ForConditionalGeneration"))


def _time_rotary(config: Mapping[str, Any], tower: Any) -> list[tuple[str, tuple[int, ...], str, bool]]:
    """MusicFlamingoRotaryEmbedding (transformers 5.24.0 models/musicflamingo/modeling_musicflamingo.py), the model's
    pos_emb: inv_freq and original_inv_freq over int(width × partial_rotary_factor) channels, every second one, and
    position_angles, a row per position up to rope_theta (MusicFlamingoConfig.__post_init__ sets
    max_position_embeddings to it) two per frequency wide; float32, non-persistent.  The width is the audio tower's
    (head_dim = audio_config.hidden_size); rope_parameters' values win over the top-level keys, then the class's
    (rope_theta 1200, partial_rotary_factor 0.2)."""
    rope = config.get("rope_parameters") or {}
    if not isinstance(rope, Mapping):
        raise ArchitectureError("rope_parameters", "must be a JSON object")
    theta = rope.get("rope_theta", config.get("rope_theta", 1200.0))
    partial = rope.get("partial_rotary_factor", config.get("partial_rotary_factor", 0.2))
    if type(theta) not in (int, float) or not 1 <= theta <= MAX_INTEGER:
        raise ArchitectureError("rope_parameters.rope_theta", f"must be a number from 1 to {MAX_INTEGER:,} (it sets "
                                f"musicflamingo's time positions), got {theta!r}")
    if type(partial) not in (int, float) or not 0 < partial <= 1 or math.isnan(partial):
        raise ArchitectureError("rope_parameters.partial_rotary_factor", f"must be a number in (0, 1], got {partial!r}")
    frequencies = (int(tower.hidden_size * partial) + 1) // 2
    return [("model.pos_emb.inv_freq", (frequencies,), "float32", False),
            ("model.pos_emb.original_inv_freq", (frequencies,), "float32", False),
            ("model.pos_emb.position_angles", (int(theta), 2 * frequencies), "float32", False)]


# identical to audioflamingo3 except (modular_musicflamingo.py): MusicFlamingoModel adds pos_emb, a rotary embedding
# of the audio's time (buffers only, no parameter), read from the whole config's rope_parameters
MUSICFLAMINGO = _last(multimodal(QWEN2, "musicflamingo", TF.format("musicflamingo", "MusicFlamingoConfig"),
                                 Whole({}, projectors.audioflamingo3,
                                       audio_config={"model_type": "audioflamingo3_encoder"}, text_types=("qwen2",),
                                       model_buffers=_time_rotary, typed_sections=("audio_config",),  # (line 82)
                                       **NEVER_TIED),
                                 "MusicFlamingoForConditionalGeneration"))
