"""The audio-text models of set AU (Voxtral Realtime; VibeVoice-ASR, Kyutai speech-to-text once counted): where the
tower, projector and decoder sit, the head's tying, the decoder's cache after a real forward pass and one-line
refusals for the keys they add.  Each whole model is checked tensor by tensor in tests/test_families.py and
test_buffers.py (random configs: tests/_family_configs_au.py)."""

from __future__ import annotations

import math

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_au import CONFIGS_AU
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL_VOXTRAL_REALTIME = {"model_type": "voxtral_realtime", "text_config": {"num_hidden_layers": 1},
                          "audio_config": {"num_hidden_layers": 1}}


def test_voxtral_realtimes_tower_projector_and_decoder_at_the_class_defaults():
    """At the class defaults: 4,429,679,360 (test_families checks it against transformers); the audio tower and the
    projector are what the reference holds under their modules, the ada_rms_norm pairs are the decoder's."""
    inv = paramledger.inventory(paramledger.load({"model_type": "voxtral_realtime"}))
    assert inv.total == 4_429_679_360
    config = SMALL_VOXTRAL_REALTIME
    inv = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config).tensors
    under = [sum(math.prod(shape) for name, shape in reference if name.startswith(prefix))
             for prefix in ("model.audio_tower.", "model.multi_modal_projector.")]
    assert [inv.component("audio"), inv.component("projector")] == under == [35_566_336, 25_165_824]
    ada = [t for t in inv.tensors if ".ada_rms_norm." in t.name]
    path = "model.language_model.layers.0.ada_rms_norm."
    assert [(t.name, t.shape) for t in ada] == [(path + "linear1.weight", (32, 3072)), (path + "linear2.weight", (3072, 32))]


@pytest.mark.parametrize(("top", "text"), [(None, None), (None, False), (False, True), (True, False), (False, None)])
def test_voxtral_realtime_ties_by_the_whole_configs_key_alone(top, text):
    config = {**SMALL_VOXTRAL_REALTIME, **({} if top is None else {"tie_word_embeddings": top})}
    if text is not None:
        config["text_config"] = {**config["text_config"], "tie_word_embeddings": text}
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.tied == (top is not False)
    assert diff(inv, build_reference(config)).matches


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_voxtral_realtime_decoder_caches_what_transformers_caches(data):
    """VoxtralRealtimeForConditionalGeneration run on text and the audio tower's input embeddings (downsample_factor
    frames a token, added to the tokens' embeddings; its own encoder_cache apart): the decoder's cache against the
    bytes of transformers' own (every layer slides by text_config's sliding_window)."""
    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_AU["voxtral_realtime"], label="config")
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    assert type(model).__name__ == "VoxtralRealtimeForConditionalGeneration"
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    ids = torch.randint(0, hf.text_config.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    frames = torch.randn(batch, tokens * hf.downsample_factor, hf.audio_config.hidden_size)
    with torch.no_grad():
        cache = model(input_ids=ids, encoder_inputs_embeds=frames, use_cache=True, num_delay_tokens=6).past_key_values
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "voxtral_realtime", "audio_config": {"head_dim": None}},
     "audio_config.head_dim: must be a positive whole number, got None"),
    ({"model_type": "voxtral_realtime", "audio_config": {"head_dim": 0}},
     "audio_config.head_dim: must be a positive whole number, got 0"),
    ({"model_type": "voxtral_realtime", "audio_config": {"num_key_value_heads": 0}},
     "audio_config.num_key_value_heads: must be a positive whole number, got 0"),
    ({"model_type": "voxtral_realtime", "audio_config": {"d_model": 1.5}},
     "audio_config.d_model: must be a positive whole number, got 1.5"),
    ({"model_type": "voxtral_realtime", "downsample_factor": 0},
     "downsample_factor: must be a positive whole number, got 0"),
    ({"model_type": "voxtral_realtime", "downsample_factor": None},
     "downsample_factor: must be a positive whole number, got None"),
])
def test_a_config_it_cannot_count_is_one_line(config, message):
    _refused(config, message)


def test_the_ada_rms_norm_width_is_refused_by_its_key():
    arch = paramledger.load(SMALL_VOXTRAL_REALTIME)
    with pytest.raises(ArchitectureError, match="ada_rms_norm_t_cond_dim: must be positive, got 0"):
        arch.replace(ada_rms_norm_t_cond_dim=0)
    assert paramledger.inventory(arch.replace(ada_rms_norm_t_cond_dim=16)).total == (
        paramledger.inventory(arch).total - 2 * 16 * 3072)


def test_the_cli_refuses_a_bad_voxtral_realtime_config_in_one_line_exit_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "voxtral_realtime", "audio_config": {"head_dim": -1}}',
                       "audio_config.head_dim: must be a positive whole number, got -1")
