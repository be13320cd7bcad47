"""The audio-text models of set AU (Voxtral Realtime, VibeVoice-ASR, Kyutai speech-to-text): where the
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
    assert [(t.name, t.shape) for t in ada] == [(path + "linear1.weight", (32, 3072)),
                                                (path + "linear2.weight", (3072, 32))]


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
    config = {**config, "text_config": _window_over_one(config["text_config"])}
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


def test_vibevoice_asrs_two_towers_projector_and_decoder_at_the_class_defaults():
    """At the class defaults: 12,772,521,344 (test_families checks it against transformers); both tokenizer encoders
    are the audio component, the projector's two paths the projector, each what the reference holds there."""
    config = {"model_type": "vibevoice_asr", "text_config": {"model_type": "qwen2", "num_hidden_layers": 1}}
    inv = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config).tensors
    under = [sum(math.prod(shape) for name, shape in reference if name.startswith(prefixes))
             for prefixes in (("model.acoustic_tokenizer_encoder.", "model.semantic_tokenizer_encoder."),
                              "model.multi_modal_projector.")]
    assert [inv.component("audio"), inv.component("projector")] == under == [688_309_632, 34_365_440]
    assert paramledger.inventory(paramledger.load({"model_type": "vibevoice_asr"})).total == 12_772_521_344


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_vibevoice_asr_decoder_alone_is_its_text_configs_causal_lm(data):
    """--text-only: Qwen2ForCausalLM of text_config, tensor by tensor (VibeVoiceAsrConfig takes text_config as
    given)."""
    from paramledger.towers import text_only

    config = data.draw(CONFIGS_AU["vibevoice_asr"], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_vibevoice_asr_decoder_caches_what_transformers_caches(data):
    """VibeVoiceAsrForConditionalGeneration run on text: its Qwen2 decoder's cache against transformers' own bytes."""
    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_AU["vibevoice_asr"], label="config")
    config = {**config, "text_config": _window_over_one(config["text_config"])}
    hf = hf_config(config)
    model = auto_class(hf).from_config(hf).eval()
    assert type(model).__name__ == "VibeVoiceAsrForConditionalGeneration"
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    ids = torch.randint(0, hf.text_config.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(input_ids=ids, use_cache=True).past_key_values
    assert kv_cache(paramledger.load(config), tokens, batch, "fp32").bytes == _cache_bytes(cache)


def test_kyutai_speech_to_text_holds_its_codec_after_the_head():
    """At the class defaults: 2,696,431,425 (test_families checks it against transformers); the Mimi codec is the
    audio component, registered after lm_head; the token table holds every codebook's rows, the head vocab_size."""
    inv = paramledger.inventory(paramledger.load({"model_type": "kyutai_speech_to_text"}))
    assert inv.total == 2_696_431_425 and inv.component("audio") == 79_308_609 and not inv.tied
    names = [t.name for t in inv.tensors]
    head = names.index("lm_head.weight")
    assert names[head - 1] == "model.norm.weight" and all(name.startswith("codec_model.") for name in names[head + 1:])
    shapes = {t.name: t.shape for t in inv.tensors}
    assert shapes["model.embed_tokens.embed_tokens.weight"] == (4001 + 32 * 2049 + 1, 2048)
    assert shapes["lm_head.weight"] == (4001, 2048)


def test_kyutai_speech_to_text_decoder_alone_is_refused():
    from paramledger._exceptions import OptionError
    from paramledger.towers import text_only

    with pytest.raises(OptionError, match="--text-only: kyutai_speech_to_text: .* always holds its Mimi codec"):
        text_only(paramledger.load({"model_type": "kyutai_speech_to_text"}))


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_kyutai_speech_to_text_decoder_caches_what_transformers_caches(data):
    """KyutaiSpeechToTextForConditionalGeneration run on text and codebook tokens (one row of num_codebooks + 1 ids a
    step, summed by its embeddings): its sliding cache against transformers' own bytes."""
    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_AU["kyutai_speech_to_text"], label="config")
    rows = config["vocab_size"] + config["num_codebooks"] * config["codebook_vocab_size"] + 1
    config = {**_window_over_one(config), "audio_pad_token_id": rows - 1}  # (its forward compares ids with it)
    hf = hf_config(config)
    model = auto_class(hf).from_config(hf).eval()
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    ids = torch.randint(0, config["codebook_vocab_size"], (batch, tokens, config["num_codebooks"] + 1),
                        generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(input_ids=ids, use_cache=True).past_key_values
    assert kv_cache(paramledger.load(config), tokens, batch, "fp32").bytes == _cache_bytes(cache)


def _window_over_one(section: dict) -> dict:
    """A sliding window of 1 made 2: transformers 5.24.0 then keeps every token (kvcache.py's docstring: we hold
    none, what the window means), a difference set apart on purpose."""
    return {**section, "sliding_window": 2} if section.get("sliding_window") == 1 else section


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
    ({"model_type": "vibevoice_asr", "acoustic_tokenizer_encoder_config": {"depths": [1, 2]}},
     r"acoustic_tokenizer_encoder_config.depths: needs 7 entries \(the stem's, then one per downsampling ratio\), "
     "got 2"),
    ({"model_type": "vibevoice_asr", "semantic_tokenizer_encoder_config": {"downsampling_ratios": [2, 0]}},
     r"semantic_tokenizer_encoder_config.downsampling_ratios: must be a list of whole numbers from 1, got \[2, 0\]"),
    ({"model_type": "vibevoice_asr", "semantic_tokenizer_encoder_config": {"depths": 3}},
     "semantic_tokenizer_encoder_config.depths: must be a list of whole numbers from 0, got 3"),
    ({"model_type": "vibevoice_asr", "semantic_tokenizer_encoder_config": {"num_filters": 0}},
     "semantic_tokenizer_encoder_config.num_filters: must be a positive whole number, got 0"),
    ({"model_type": "vibevoice_asr", "acoustic_tokenizer_encoder_config": {"ffn_expansion": 1.5}},
     "acoustic_tokenizer_encoder_config.ffn_expansion: must be a positive whole number, got 1.5"),
    ({"model_type": "vibevoice_asr", "acoustic_tokenizer_chunk_size": 1000},
     r"acoustic_tokenizer_chunk_size: must be a positive multiple of the acoustic encoder's hop length \(3200\), "
     "got 1000"),
    ({"model_type": "vibevoice_asr", "acoustic_tokenizer_encoder_config": {"downsampling_ratios": [1] * 60,
                                                                           "depths": [0] * 61}},
     "acoustic_tokenizer_encoder_config.downsampling_ratios: 60 ratios double num_filters beyond the bound"),
    ({"model_type": "vibevoice_asr", "semantic_tokenizer_encoder_config": [128]},
     "semantic_tokenizer_encoder_config: must be a JSON object"),
    ({"model_type": "kyutai_speech_to_text", "audio_pad_token_id": 70000},
     "audio_pad_token_id: must be null or a row of the token table .fewer than 69,570"),
    ({"model_type": "kyutai_speech_to_text", "num_codebooks": -1}, "num_codebooks: must be a whole number from 0"),
    ({"model_type": "kyutai_speech_to_text", "codebook_vocab_size": 1.5},
     "codebook_vocab_size: must be a whole number from 0, got 1.5"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"num_semantic_quantizers": 32}},
     "codec_config.num_semantic_quantizers: must be a whole number below num_quantizers=32, got 32"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"codebook_size": 1000}},
     "codec_config.codebook_size: must be a power of 2, got 1000"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"compress": 128}},
     "codec_config.compress: 128 leaves num_filters=64 no channel"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"upsample_groups": 3}},
     "codec_config.upsample_groups: 3 groups do not divide hidden_size=512"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"frame_rate": 100}},
     r"codec_config.frame_rate: 100 is above the SEANet's own rate \(25\): the latent stride would be 0"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"num_attention_heads": 7}},
     "codec_config.num_attention_heads: 7 heads do not divide hidden_size=512"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"upsampling_ratios": [2, 0]}},
     r"codec_config.upsampling_ratios: must be a list of positive whole numbers, got \[2, 0\]"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"codebook_dim": None}},
     "codec_config.codebook_dim: must be a positive whole number, got None"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"use_conv_shortcut": "no"}},
     "codec_config.use_conv_shortcut: must be true or false, got 'no'"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"encoder_config": None, "decoder_config": None}},
     "codec_config.encoder_config: can only be null .a dropped half., and not both halves"),
    ({"model_type": "kyutai_speech_to_text", "codec_config": {"num_residual_layers": -1}},
     "codec_config.num_residual_layers: must be a whole number from 0, got -1"),
])
def test_a_config_it_cannot_count_is_one_line(config, message):
    _refused(config, message)


def test_the_ada_rms_norm_width_is_refused_by_its_key():
    arch = paramledger.load(SMALL_VOXTRAL_REALTIME)
    with pytest.raises(ArchitectureError, match="ada_rms_norm_t_cond_dim: must be positive, got 0"):
        arch.replace(ada_rms_norm_t_cond_dim=0)
    assert paramledger.inventory(arch.replace(ada_rms_norm_t_cond_dim=16)).total == (
        paramledger.inventory(arch).total - 2 * 16 * 3072)


@pytest.mark.parametrize(("config", "message"), [
    ('{"model_type": "voxtral_realtime", "audio_config": {"head_dim": -1}}',
     "audio_config.head_dim: must be a positive whole number, got -1"),
    ('{"model_type": "kyutai_speech_to_text", "codec_config": {"codebook_size": 6}}',
     "codec_config.codebook_size: must be a power of 2, got 6"),
    ('{"model_type": "vibevoice_asr", "acoustic_tokenizer_chunk_size": 7}',
     "acoustic_tokenizer_chunk_size: must be a positive multiple of the acoustic encoder's hop length (3200), got 7"),
])
def test_the_cli_refuses_a_bad_config_in_one_line_exit_2(tmp_path, config, message):
    refused_by_the_cli(tmp_path, config, message)
