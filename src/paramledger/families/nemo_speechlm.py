"""Nemotron 3.5 Transcribe (model_type nemo_speechlm; Nemotron3_5TranscribeForConditionalGeneration) counted whole: the
audio tower (an ASR encoder beside a diarization model, towers/nemo_speechlm.py), the Nemotron-H decoder under
"model.language_model" (families/hybrids.py, read from text_config by its own table), multi_modal_projector (one
biased Linear), the word-timestamp encoder, then lm_head and word_timestamp_head, as named_parameters() lists them.
transformers 5.24.0 models/nemotron3_5_transcribe/modeling_nemotron3_5_transcribe.py (Nemotron3_5TranscribeModel,
Nemotron3_5TranscribeForConditionalGeneration).

A config without text_config builds Nemotron-H with the composite config's own init_kwargs (below); the head is
never tied (_tied_weights_keys = None). The audio tower and the projector are held in float32 at every precision
(_keep_in_fp32_modules_strict, families/kept_float32.py)."""

import dataclasses

from ..towers import Whole
from ..towers.nemo_speechlm import AUDIO, WORD_TIMESTAMP, projector
from ._family import multimodal
from .hybrids import FAMILIES as HYBRIDS

NEMOTRON_H = next(family for family in HYBRIDS if family.model_type == "nemotron_h")
TF = "transformers 5.24.0 models/nemotron3_5_transcribe/configuration_nemotron3_5_transcribe.py"
# Nemotron3_5TranscribeConfig.sub_configs_defaults["text_config"]: what a config without text_config builds
TEXT_DEFAULT = {"model_type": "nemotron_h", "hidden_size": 2688, "intermediate_size": 1856,
                "hybrid_override_pattern": "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME", "mamba_num_heads": 64,
                "max_position_embeddings": 262144, "moe_intermediate_size": 1856,
                "moe_shared_expert_intermediate_size": 3712, "n_routed_experts": 128, "num_experts_per_tok": 6,
                "num_key_value_heads": 2, "routed_scaling_factor": 2.5}
WORDS = ("word_timestamp_config", {"model_type": WORD_TIMESTAMP}, WORD_TIMESTAMP, "model.word_timestamp_encoder.")

WHOLE = multimodal(NEMOTRON_H, "nemo_speechlm", f"{TF} (Nemotron3_5TranscribeConfig)",
                   Whole({}, projector, audio_config={"model_type": AUDIO}, audio_kind=AUDIO,
                         tie_word_embeddings=False, tie_keys=(), text_types=("nemotron_h",), text_config=TEXT_DEFAULT,
                         sub_towers=(WORDS,)),
                   "Nemotron3_5TranscribeForConditionalGeneration")
DECODER = WHOLE.naming
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(DECODER, model_order=(
    "model.audio_tower", DECODER.embed, DECODER.layer.partition(".{i}")[0], DECODER.final_norm,
    "model.multi_modal_projector", "model.word_timestamp_encoder", "lm_head", "word_timestamp_head")))]
