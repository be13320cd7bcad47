"""Qwen3-Omni-MoE counted whole (Qwen3OmniMoeForConditionalGeneration, transformers 5.24.0
models/qwen3_omni_moe/modeling_qwen3_omni_moe.py lines 3959-3975): the thinker (qwen3_omni_moe_thinker's count, read
from thinker_config) under "thinker.", then, where enable_audio_output (True by default), the talker
(towers/qwen3_omni_talker.py) and code2wav (towers/qwen3_omni_code2wav.py).  Read as qwen2_5_omni is
(families/qwen2_5_omni.py): the same thinker_config reading, the decoder Qwen3-MoE's under the thinker's type."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..towers import Whole, whole_naming
from ..towers.qwen_vl import none
from ._family import multimodal
from .qwen2_5_omni import OMNI_MOE_TEXT, _thinker_text, _thinker_towers


def speech(config: Mapping[str, Any], where: str | None, decoder: Any = None) -> tuple[Any, ...]:
    """The talker and code2wav beside the thinker (towers.Whole.made), where enable_audio_output builds them
    (Qwen3OmniMoeForConditionalGeneration.enable_talker, lines 3972-3974; False builds the thinker alone)."""
    from ..towers.qwen2_5_omni_talker import speech_stacks
    from ..towers.qwen3_omni_code2wav import CODE2WAV_KIND
    from ..towers.qwen3_omni_talker import TALKER_KIND

    return speech_stacks(config, where, (("talker_config", TALKER_KIND, "talker."),
                                         ("code2wav_config", CODE2WAV_KIND, "code2wav.")))


def _thinker_first(naming: Naming) -> Naming:
    """Qwen3OmniMoeForConditionalGeneration registers thinker, then talker, then code2wav."""
    return dataclasses.replace(naming, lm_head="thinker.lm_head", model_order=(
        "thinker.model.audio_tower", "thinker.model.visual", naming.embed, naming.layer.partition(".{i}")[0],
        naming.final_norm, "thinker.lm_head", "talker", "code2wav"))


OMNI_MOE_NAMING = _thinker_first(whole_naming(OMNI_MOE_TEXT.naming, "thinker.model.language_model."))


def _omni_moe_naming(naming: Naming) -> Naming:
    return OMNI_MOE_NAMING


OMNI_MOE = multimodal(
    OMNI_MOE_TEXT, "qwen3_omni_moe",
    "transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeConfig, "
    "Qwen3OmniMoeThinkerConfig, Qwen3OmniMoeTalkerConfig, Qwen3OmniMoeCode2WavConfig)",
    Whole({"model_type": "qwen3_omni_moe_vision_encoder"}, none, vision_prefix="thinker.model.visual.",
          audio_config={"model_type": "qwen3_omni_moe_audio_encoder"}, audio_prefix="thinker.model.audio_tower.",
          decoder_prefix="thinker.model.language_model.", tie_word_embeddings=False, inner_section="thinker_config",
          text_rewritten=_thinker_text, config_rewritten=_thinker_towers, made=speech, renamed=_omni_moe_naming,
          described="qwen3_omni_moe is multimodal: counting the whole model (the thinker's audio and vision towers "
          "and text decoder, then, with enable_audio_output, the talker and code2wav); --text-only counts the "
          "thinker's decoder alone"),
    "Qwen3OmniMoeForConditionalGeneration")
FAMILIES = [dataclasses.replace(OMNI_MOE, naming=OMNI_MOE_NAMING)]
