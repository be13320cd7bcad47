"""Qwen2.5-Omni's thinker (Qwen2_5OmniThinkerForConditionalGeneration), counted whole: its audio encoder under
"model.audio_tower", its vision encoder under "model.visual" (towers/qwen2_5_omni.py; the audio proj and the vision
merger inside them are the projector), then the decoder under "model.language_model" and the head, tied by the whole
config's tie_word_embeddings alone (False; checked for it and text_config's, each unset, false and true).

The decoder is Qwen2's (q, k and v biased, o not) with Qwen2_5OmniTextConfig's defaults; transformers 5.24.0 registers
no CausalLM for qwen2_5_omni_text, so it is read by Qwen2's table under the thinker's own type, as families/qwen_vl.py
reads Qwen2-VL's (--text-only counts it under the whole model's names)."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole, whole_naming
from ..towers.qwen2_5_omni_talker import speech
from ..towers.qwen_vl import none
from . import _rules as rules
from ._family import derived_from, multimodal
from .llama import FAMILIES as LLAMA
from .moe import FAMILIES as MOE

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")
# transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniTextConfig)
THINKER_TEXT = derived_from(QWEN2, model_type="qwen2_5_omni_thinker", defaults={
    "vocab_size": 152064, "hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
    "num_attention_heads": 28, "num_key_value_heads": 4, "hidden_act": "silu", "max_position_embeddings": 32768,
    "tie_word_embeddings": True, "use_sliding_window": False, "sliding_window": None, "max_window_layers": 28})

THINKER_WHOLE = multimodal(THINKER_TEXT, "qwen2_5_omni_thinker",
               "transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniThinkerConfig, "
               "Qwen2_5OmniTextConfig)",
               Whole({"model_type": "qwen2_5_omni_vision_encoder"}, none, vision_prefix="model.visual.",
                     audio_config={"model_type": "qwen2_5_omni_audio_encoder"}, tie_word_embeddings=False),
               "Qwen2_5OmniThinkerForConditionalGeneration")
FAMILIES = [THINKER_WHOLE]

QWEN3_MOE = next(family for family in MOE if family.model_type == "qwen3_moe")


def floored_head_dim(config) -> dict:
    """head_dim, when the config gives none, is hidden_size // num_attention_heads, floored
    (Qwen3OmniMoeThinkerTextAttention reads it by getattr: 2048 // 28 = 73 at the defaults)."""
    if config.get("head_dim") is not None:
        return {}
    return {"head_dim": config["hidden_size"] // config["num_attention_heads"]}


# transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeTextConfig): Qwen3-MoE's
# decoder (q/k norms per head, packed experts), read under the thinker's own type for the same reason.
OMNI_MOE_TEXT = derived_from(QWEN3_MOE, model_type="qwen3_omni_moe_thinker", defaults={
    "vocab_size": 3584, "hidden_size": 2048, "intermediate_size": 18944, "num_hidden_layers": 28,
    "num_attention_heads": 28, "num_key_value_heads": 4, "hidden_act": "silu", "max_position_embeddings": 32768,
    "tie_word_embeddings": False, "attention_bias": False, "sliding_window": None, "decoder_sparse_step": 1,
    "moe_intermediate_size": 768, "num_experts_per_tok": 8, "num_experts": 128, "mlp_only_layers": None},
    derive=(*QWEN3_MOE.derive[:2], rules.no_sliding, floored_head_dim))  # its attention sets sliding_window None

# Qwen3OmniMoeThinkerForConditionalGeneration: audio_tower, visual, language_model, lm_head; tied by the whole
# config's key alone (False; checked as the Qwen2.5-Omni thinker's).
FAMILIES.append(multimodal(
    OMNI_MOE_TEXT, "qwen3_omni_moe_thinker",
    "transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeThinkerConfig, "
    "Qwen3OmniMoeTextConfig)",
    Whole({"model_type": "qwen3_omni_moe_vision_encoder"}, none, vision_prefix="model.visual.",
          audio_config={"model_type": "qwen3_omni_moe_audio_encoder"}, tie_word_embeddings=False),
    "Qwen3OmniMoeThinkerForConditionalGeneration"))


def _thinker(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The whole config's thinker_config (absent or null: Qwen2_5OmniThinkerConfig's defaults), refused in one line
    unless a JSON object."""
    thinker = config.get("thinker_config")
    if thinker is None:
        return {}
    if not isinstance(thinker, Mapping):
        raise ArchitectureError("thinker_config", f"must be a JSON object, got {thinker!r}"[:200])
    return thinker


def _thinker_text(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """The decoder is the thinker's: thinker_config.text_config (the whole config has no text_config of its own)."""
    inner = _thinker(config).get("text_config")
    if inner is None:
        return {}
    if not isinstance(inner, Mapping):
        raise ArchitectureError("thinker_config.text_config", f"must be a JSON object, got {inner!r}"[:200])
    return inner


def _thinker_towers(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The whole config with the thinker's audio_config and vision_config where the towers are read."""
    thinker = _thinker(config)
    return {**config, "audio_config": thinker.get("audio_config"), "vision_config": thinker.get("vision_config")}


def _thinker_first(naming: Naming) -> Naming:
    """Qwen2_5OmniForConditionalGeneration registers thinker (its audio tower, vision tower, decoder and lm_head),
    then talker, then token2wav (lines 3726-3741)."""
    return dataclasses.replace(naming, lm_head="thinker.lm_head", model_order=(
        "thinker.model.audio_tower", "thinker.model.visual", naming.embed, naming.layer.partition(".{i}")[0],
        naming.final_norm, "thinker.lm_head", "talker", "token2wav"))


# Qwen2's names under the thinker's decoder path (the text family, the thinker's, names its decoder under
# "model.language_model." already: the whole model's names are made from Qwen2's, not moved twice)
OMNI_NAMING = _thinker_first(whole_naming(THINKER_TEXT.naming, "thinker.model.language_model."))


def _omni_naming(naming: Naming) -> Naming:
    return OMNI_NAMING


# Qwen2_5OmniForConditionalGeneration (transformers 5.24.0 models/qwen2_5_omni/modeling_qwen2_5_omni.py lines
# 3718-3741): the thinker above under "thinker." (read from thinker_config, its head tied by thinker_config's
# tie_word_embeddings alone: the whole config's and text_config's tie nothing, each checked), then, where
# enable_audio_output (True), the talker and token2wav (towers/qwen2_5_omni_talker.py, qwen2_5_omni_token2wav.py).
# --text-only counts the thinker's decoder, as the thinker's does.
OMNI = multimodal(THINKER_TEXT, "qwen2_5_omni",
                  "transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniConfig, "
                  "Qwen2_5OmniThinkerConfig, Qwen2_5OmniTalkerConfig, Qwen2_5OmniToken2WavConfig)",
                  Whole({"model_type": "qwen2_5_omni_vision_encoder"}, none, vision_prefix="thinker.model.visual.",
                        audio_config={"model_type": "qwen2_5_omni_audio_encoder"},
                        audio_prefix="thinker.model.audio_tower.", decoder_prefix="thinker.model.language_model.",
                        tie_word_embeddings=False, inner_section="thinker_config", text_rewritten=_thinker_text,
                        config_rewritten=_thinker_towers, made=speech, renamed=_omni_naming,
                        described="qwen2_5_omni is multimodal: counting the whole model (the thinker's audio and "
                        "vision towers and text decoder, then, with enable_audio_output, the talker and token2wav); "
                        "--text-only counts the thinker's decoder alone"),
                  "Qwen2_5OmniForConditionalGeneration")
FAMILIES.append(dataclasses.replace(OMNI, naming=OMNI_NAMING))
