"""Nemotron 3.5 Transcribe (nemo_speechlm) counted whole (issues #16 and #17): its defaults, its decoder alone, its
order and its refusals, each checked against transformers 5.24.0."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_ns import CONFIGS_NS
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only


def test_the_class_defaults_are_the_whole_model_with_its_decoder_on_a_line_of_its_own():
    """Nemotron3_5TranscribeConfig(): 32,361,750,159 parameters (measured on the meta device), the head and
    word_timestamp_head registered last; the decoder alone is NemotronHForCausalLM of the composite's init_kwargs."""
    inv = paramledger.inventory(paramledger.load({"model_type": "nemo_speechlm"}))
    assert inv.total == 32_361_750_159
    assert [t.name for t in inv.tensors][-3:] == ["lm_head.weight", "word_timestamp_head.weight",
                                                  "word_timestamp_head.bias"]
    decoder = text_only(paramledger.load({"model_type": "nemo_speechlm"}))
    assert paramledger.inventory(decoder).total == inv.text_decoder == 31_577_937_344
    from paramledger.families.nemo_speechlm import TEXT_DEFAULT

    result = diff(paramledger.inventory(decoder), build_reference(TEXT_DEFAULT))
    assert result.matches, result.to_json()


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(data):
    config = data.draw(CONFIGS_NS["nemo_speechlm"], label="config")
    result = diff(paramledger.inventory(text_only(paramledger.load(config))), build_reference(config["text_config"]))
    assert result.matches, result.to_json()


SMALL_STACK = {"hidden_size": 4, "num_attention_heads": 2, "intermediate_size": 3, "num_hidden_layers": 1,
               "num_mel_bins": 2, "subsampling_factor": 2}
SMALL = {"model_type": "nemo_speechlm",
         "text_config": {"model_type": "nemotron_h", "hidden_size": 8, "num_attention_heads": 2,
                         "num_key_value_heads": 1, "head_dim": 4, "hybrid_override_pattern": "M*", "vocab_size": 16,
                         "pad_token_id": 0, "mamba_num_heads": 2, "mamba_head_dim": 4, "n_groups": 1,
                         "ssm_state_size": 2, "intermediate_size": 4},
         "audio_config": {"asr_config": dict(SMALL_STACK),
                          "diarization_config": {"model_type": "nemotron3_diarization", "audio_config": dict(SMALL_STACK),
                                                 "head_config": {"hidden_size": 3, "num_speakers": 2,
                                                                 "audio_hidden_size": 4, "subsampling_factor": 2},
                                                 "streaming_config": {"num_speakers": 2, "subsampling_factor": 2}}},
         "word_timestamp_config": {**SMALL_STACK, "vocab_size": 7, "blank_token_id": 6}}


def test_a_small_model_matches_tensor_by_tensor():
    inv = paramledger.inventory(paramledger.load(SMALL))
    result = diff(inv, build_reference(SMALL))
    assert result.matches, result.to_json()


def _with(path: str, value) -> dict:
    """SMALL with the key at the dotted ``path`` set to ``value``."""
    import copy

    config = copy.deepcopy(SMALL)
    *sections, key = path.split(".")
    inner = config
    for name in sections:
        inner = inner[name]
    inner[key] = value
    return config


@pytest.mark.parametrize(("path", "value", "message"), [
    ("audio_config.asr_config.subsampling_factor", 4,
     "audio_config.asr_config.subsampling_factor: 4 must equal audio_config.diarization_config.audio_config."
     "subsampling_factor=2"),
    ("audio_config.asr_config", {**SMALL_STACK, "hidden_size": 5, "num_attention_heads": 1},
     "audio_config.asr_config.hidden_size: 5 is odd: the speaker table's sines and cosines need an even width"),
    ("audio_config.asr_config.num_attention_heads", 3, "audio_config.asr_config.num_attention_heads: 3 heads do not "
                                                       "divide hidden_size=4"),
    ("audio_config.diarization_config.head_config.audio_hidden_size", 8,
     "head_config.audio_hidden_size: 8 must equal audio_config.diarization_config.audio_config.hidden_size=4"),
    ("audio_config.diarization_config.streaming_config.num_speakers", 3,
     "streaming_config.num_speakers: 3 must equal audio_config.diarization_config.head_config.num_speakers=2"),
    ("audio_config.diarization_config.streaming_config.speaker_cache_length", 3,
     "speaker_cache_length: 3 must be at least"),
    ("audio_config.diarization_config.chunk_right_context", 400, "chunk_right_context: 400 must be smaller than "
                                                                 "chunk_length=340"),
    ("audio_config.diarization_config.model_type", "sortformer", "'sortformer' is a diarization model paramledger"),
    ("audio_config.diarization_config.head_config", [1], "audio_config.diarization_config.head_config: must be a JSON "
                                                         "object"),
    ("word_timestamp_config.blank_token_id", 7, "word_timestamp_config.blank_token_id: 7 must be a class below "
                                                "vocab_size=7"),
    ("word_timestamp_config.upsampling_factor", 0, "word_timestamp_config.upsampling_factor: must be a positive"),
    ("word_timestamp_config.head_dim", 5, "word_timestamp_config.head_dim: 5 with a full rotary"),
])
def test_a_config_transformers_refuses_is_one_line(path, value, message):
    config = _with(path, value)
    if path.endswith("head_dim"):
        config["word_timestamp_config"]["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0}
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)
    if not path.endswith(("model_type", "head_config")):  # paramledger's own refusals
        with pytest.raises(paramledger.ParamledgerError, match="transformers refuses|cannot build"):
            build_reference(config)


def test_the_cli_refuses_diarization_widths_that_disagree(tmp_path):
    import json

    refused_by_the_cli(tmp_path, json.dumps(_with("audio_config.diarization_config.head_config.audio_hidden_size", 8)),
                       "head_config.audio_hidden_size: 8 must equal")
