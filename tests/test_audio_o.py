"""The audio towers and the audio-text models of set O (issue #16): Whisper's encoder as the interface other families
import (towers/audio.py), against transformers' WhisperEncoder; the frozen position table; the audio component and
the decoder's own total; --text-only; one-line refusals for a config a tower cannot count.  Each whole model is
checked tensor by tensor in tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import math

import pytest
from _family_configs_o import CONFIGS_O, whisper_encoder
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only
from paramledger.towers.audio import encoder

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def _meta(module_class, config):
    with torch.device("meta"):
        return module_class(config)


@settings(max_examples=25, deadline=None)
@given(config=whisper_encoder("whisper", alias=None))
def test_the_whisper_encoder_is_transformers_whisper_encoder(config):
    """What helper N's Whisper family imports: encoder() over a WhisperConfig's keys, tensor by tensor, in order,
    frozen where requires_grad is False."""
    keys = {key: value for key, value in config.items() if key != "model_type"}
    theirs = _meta(transformers.models.whisper.modeling_whisper.WhisperEncoder, transformers.WhisperConfig(**keys))
    ours = encoder("model.encoder.", keys, None, key="").tensors()
    assert [(t.name, t.shape, t.frozen) for t in ours] == [
        ("model.encoder." + name, tuple(p.shape), not p.requires_grad) for name, p in theirs.named_parameters()]
    assert {t.component for t in ours} == {"audio"}


def test_the_whisper_encoder_reads_attribute_map_spellings_and_refuses_by_the_key_given():
    by_alias = encoder("", {"hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 4,
                            "num_mel_bins": 3, "max_source_positions": 5}, None)
    assert (by_alias.d_model, by_alias.encoder_layers, by_alias.encoder_attention_heads) == (8, 1, 2)
    with pytest.raises(ArchitectureError, match="^encoder_attention_heads: 3 heads do not divide the width 8$"):
        encoder("", {**dict(zip(("d_model", "encoder_layers", "encoder_ffn_dim", "num_mel_bins",
                                 "max_source_positions"), (8, 1, 4, 3, 5))), "encoder_attention_heads": 3}, None, key="")


def test_a_frozen_tower_still_counts_and_its_position_table_is_an_embedding():
    """Qwen2-Audio's embed_positions is requires_grad False: counted, frozen, and dropped by Hugging Face's
    non-embedding count (an nn.Embedding)."""
    inv = paramledger.inventory(paramledger.load({"model_type": "qwen2_audio"}))
    assert inv.frozen == 1500 * 1280
    assert inv.total == 12_692_062_208 and inv.component("audio") == 636_968_960
    assert inv.non_embedding("hf") == inv.total - 1500 * 1280 - inv.embedding


@pytest.mark.parametrize(("model_type", "tower", "projector"), [
    ("qwen2_audio", 636_968_960, 5_246_976), ("voxtral", 636_968_960, 25_165_824),
    ("glmasr", 635_048_960, 29_366_272), ("qwen3_asr", 314_328_704, 4_723_200),
    ("moss_transcribe_diarize", 307_216_384, 33_570_816)])  # a text_config given: Qwen3Config's 4096 wide
def test_the_audio_tower_and_projector_are_components_of_their_own(model_type, tower, projector):
    """At the class defaults (test_families checks each total against transformers): the audio tower is what the
    reference holds under model.audio_tower, the projector what it holds under model.multi_modal_projector."""
    config = {"model_type": model_type, "text_config": {"num_hidden_layers": 1}}
    inv = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config).tensors
    under = [sum(math.prod(shape) for name, shape in reference if name.startswith(prefix))
             for prefix in ("model.audio_tower.", "model.multi_modal_projector.")]
    assert [inv.component("audio"), inv.component("projector")] == under == [tower, projector]


@pytest.mark.parametrize("model_type", ["qwen2_audio", "qwen3_asr"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(model_type, data):
    """--text-only: the decoder text_config names, tensor by tensor against its own CausalLM (Voxtral's and
    GLM-ASR's config classes put init_kwargs under a text_config given, so theirs is no plain text_config)."""
    config = data.draw(CONFIGS_O[model_type], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "qwen2_audio", "audio_config": {"d_model": 0}},
     "audio_config.d_model: must be a positive whole number, got 0"),
    ({"model_type": "qwen2_audio", "audio_config": {"d_model": 110}},
     "audio_config.encoder_attention_heads: 20 heads do not divide the width 110"),
    ({"model_type": "voxtral", "audio_config": {"model_type": "voxtral_encoder", "d_model": 30}},
     "audio_config.num_attention_heads: 20 heads do not divide the width 30"),
    ({"model_type": "voxtral", "audio_config": {"num_hidden_layers": 1.5}},
     "audio_config.num_hidden_layers: must be a positive whole number, got 1.5"),
    ({"model_type": "qwen2_audio", "audio_config": [1280]}, "audio_config: must be a JSON object"),
    ({"model_type": "qwen2_audio", "audio_config": {"model_type": "made_up_audio"}},
     "audio_config.model_type: 'made_up_audio' is an audio tower paramledger does not build yet"),
    ({"model_type": "qwen3_asr", "audio_config": {"d_model": 1035, "encoder_attention_heads": 9}},
     "audio_config.d_model: must be even and at least 4 for the sinusoid positions, got 1035"),
    ({"model_type": "qwen3_asr", "audio_config": {"d_model": 2, "encoder_attention_heads": 1}},
     "audio_config.d_model: must be even and at least 4 for the sinusoid positions, got 2"),
    ({"model_type": "qwen2_5_omni_thinker", "audio_config": {"d_model": 1290}},
     "audio_config.encoder_attention_heads: 20 heads do not divide the width 1290"),
    ({"model_type": "qwen2_5_omni_thinker", "audio_config": {"d_model": 25, "encoder_attention_heads": 5}},
     "audio_config.d_model: must be even and at least 4 for the sinusoid positions, got 25"),
    ({"model_type": "glmasr", "audio_config": {"rope_parameters": {"partial_rotary_factor": 2}}},
     r"audio_config.rope_parameters.partial_rotary_factor: must be a number in \(0, 1\], got 2"),
    ({"model_type": "musicflamingo", "rope_parameters": {"partial_rotary_factor": 0}},
     r"rope_parameters.partial_rotary_factor: must be a number in \(0, 1\], got 0"),
    ({"model_type": "musicflamingo", "partial_rotary_factor": "0.2"},
     r"rope_parameters.partial_rotary_factor: must be a number in \(0, 1\], got '0.2'"),
    ({"model_type": "musicflamingo", "rope_parameters": {"rope_theta": 0.5}},
     "rope_parameters.rope_theta: must be a number from 1 to 9,007,199,254,740,992 .* got 0.5"),
    ({"model_type": "musicflamingo", "rope_theta": True},
     "rope_parameters.rope_theta: must be a number from 1 to .* got True"),
    ({"model_type": "musicflamingo", "rope_parameters": [1200]}, "rope_parameters: must be a JSON object"),
    ({"model_type": "granite_speech", "encoder_config": {"context_size": 600}},
     "encoder_config.context_size: 600 exceeds max_pos_emb=512"),
    ({"model_type": "granite_speech", "encoder_config": {"num_heads": 0}},
     "encoder_config.num_heads: must be a positive whole number, got 0"),
    ({"model_type": "granite_speech", "encoder_config": [1024]}, "encoder_config: must be a JSON object"),
    ({"model_type": "granite_speech", "window_size": -15}, "window_size: must be a positive whole number, got -15"),
    ({"model_type": "granite_speech", "projector_config": {"num_attention_heads": 5}},
     "projector_config.num_attention_heads: 5 heads do not divide hidden_size=768"),
    ({"model_type": "granite_speech_plus", "encoder_config": {"cat_hidden_layers": [3, 10]}},
     r"encoder_config.cat_hidden_layers: must be a list of layer indices in 0..9, got \[3, 10\]"),
    ({"model_type": "granite_speech_plus", "encoder_config": {"cat_hidden_layers": [3]}},
     "projector_config.encoder_hidden_size: 1408 must be encoder_config's hidden_dim × 2 = 2048"),
    ({"model_type": "moss_transcribe_diarize", "audio_merge_size": 0},
     "audio_merge_size: must be a positive whole number, got 0"),
    ({"model_type": "fun_asr_nano", "adaptor_config": {"hidden_size": 512}},
     r"adaptor_config.hidden_size: 512 must match text_config.hidden_size \(1024\)"),
    ({"model_type": "fun_asr_nano", "audio_config": {"num_mel_bins": 3, "num_stacked_frames": 1}},
     "audio_config.num_mel_bins: × num_stacked_frames must be even and at least 4 for the sinusoid positions, got 3"),
    ({"model_type": "glmasr", "audio_config": {"num_key_value_heads": 0}},
     "audio_config.num_key_value_heads: must be a positive whole number, got 0"),
    ({"model_type": "qwen2_audio", "text_config": {"model_type": "gpt2"}},
     "text_config.model_type: 'gpt2' is not a text decoder paramledger builds in qwen2_audio"),
])
def test_an_audio_config_it_cannot_count_is_one_line(config, message):
    _refused(config, message)


def test_the_cli_refuses_a_bad_audio_config_in_one_line_exit_2(tmp_path, cli):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "qwen2_audio", "audio_config": {"encoder_layers": -1}}')
    status, _, err = cli("count", str(path))
    assert (status, len(err.strip().splitlines())) == (2, 1)
    assert "audio_config.encoder_layers: must be a positive whole number, got -1" in err


def test_the_omni_thinkers_towers_are_audio_vision_and_their_projections():
    """Qwen2.5-Omni's thinker: the audio encoder's proj and the vision merger are the projector, at the defaults."""
    config = {"model_type": "qwen2_5_omni_thinker", "text_config": {"num_hidden_layers": 1}}
    inv = paramledger.inventory(paramledger.load(config))
    reference = dict(build_reference(config).tensors)
    tower = {name: math.prod(shape) for name, shape in reference.items() if name.startswith("model.audio_tower.")}
    assert inv.component("audio") == sum(tower.values()) - 3584 * 1280 - 3584
    assert inv.component("projector") == 3584 * 1280 + 3584 + sum(
        math.prod(shape) for name, shape in reference.items() if name.startswith("model.visual.merger."))


def test_the_note_names_the_audio_tower():
    assert paramledger.load({"model_type": "qwen2_audio"}).notes[0].startswith(
        "qwen2_audio is multimodal: counting the whole model (")
