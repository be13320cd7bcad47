"""The whole models of set NH (Nemotron-H Omni): one-line refusals for a config its towers cannot count, the
components, Hugging Face's non-embedding count, the text decoder alone as its own family counts it, and the
decoder's cache against a real forward pass of the whole model.  The whole model is checked tensor by tensor in
tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_nh import CONFIGS_NH
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes, _state_bytes
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only

SMALL_TEXT = {"model_type": "nemotron_h", "pad_token_id": 0, "vocab_size": 64, "hidden_size": 24,
              "hybrid_override_pattern": "M*-E", "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 5,
              "intermediate_size": 16, "mamba_num_heads": 6, "mamba_head_dim": 3, "n_groups": 2,
              "ssm_state_size": 5, "conv_kernel": 3, "n_routed_experts": 4, "num_experts_per_tok": 2,
              "moe_intermediate_size": 8, "moe_shared_expert_intermediate_size": 8}
SMALL_VISION = {"model_type": "radio", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
                "patch_size": 4, "max_img_size": 16, "video_temporal_patch_size": 2}
AUDIO = {"projection_hidden_size": 12, "projection_bias": True}
SMALL = {"model_type": "nemotron_h_omni", "text_config": SMALL_TEXT, "vision_config": SMALL_VISION,
         "vision_hidden_size": 8, "projector_hidden_size": 12}


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"hidden_size": 10, "num_attention_heads": 3, "video_temporal_patch_size": 2}},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"vision_config": {"hidden_size": 0, "video_temporal_patch_size": 2}},
     "vision_config.hidden_size: must be a positive whole number, got 0"),
    ({"vision_config": {"mlp_ratio": 0, "video_temporal_patch_size": 2}},
     "vision_config.mlp_ratio: must be a number above 0 giving an MLP at least one wide, got 0"),
    ({"vision_config": {"use_swiglu_ffn": "yes", "video_temporal_patch_size": 2}},
     "vision_config.use_swiglu_ffn: must be true or false, got 'yes'"),
    ({"vision_config": {"qkv_bias": None, "video_temporal_patch_size": 2}},
     "vision_config.qkv_bias: must be true or false, got None"),
    ({"vision_config": {"max_img_size": 8, "video_temporal_patch_size": 2}},
     "vision_config.patch_size: 16 is larger than max_img_size=8"),
    ({"vision_config": {"video_temporal_patch_size": 1}, "video_temporal_patch_size": 1},
     "vision_config.video_temporal_patch_size: must be at least 2 or null, got 1"),
    ({"vision_config": {}}, "vision_config.video_temporal_patch_size: None is not the whole config's "
     "video_temporal_patch_size=2"),
    ({"vision_config": {"summary_idxs": "0"}, "video_temporal_patch_size": None},
     "vision_config.summary_idxs: must be a list of whole numbers, got '0'"),
    ({"vision_config": {"model_type": "siglip_vision_model"}},
     "vision_config.model_type: 'siglip_vision_model' is not radio"),
    ({"audio_config": {"hidden_size": 8}}, "audio_config.projection_hidden_size: missing"),
    ({"audio_config": {**AUDIO, "model_type": "parakeet"}}, "audio_config.model_type: 'parakeet' is not "
     "parakeet_encoder"),
    ({"audio_config": {**AUDIO, "num_attention_heads": 3}},
     "audio_config.num_attention_heads: 3 heads do not divide hidden_size=1024"),
    ({"audio_config": {**AUDIO, "subsampling_factor": 1}}, "audio_config.subsampling_factor: must be at least 2"),
    ({"audio_config": {**AUDIO, "num_mel_bins": 7}}, "audio_config.num_mel_bins: 7 leaves no row after 3 strides"),
    ({"audio_config": {**AUDIO, "convolution_bias": "no"}},
     "audio_config.convolution_bias: must be true or false, got 'no'"),
    ({"audio_config": {**AUDIO, "projection_bias": None}},
     "audio_config.projection_bias: must be true or false, got None"),
    ({"audio_config": [1]}, "audio_config: must be a JSON object"),
    ({"sound_config": {"hidden_size": 8}}, "sound_config: the legacy name of audio_config"),
    ({"llm_config": {"hidden_size": 8}}, "llm_config: the legacy name of text_config"),
    ({"downsample_ratio": 0}, "downsample_ratio: must be a number above 0 and at most 1, got 0"),
    ({"downsample_ratio": 2.0}, "downsample_ratio: must be a number above 0 and at most 1, got 2.0"),
    ({"projector_hidden_size": 0}, "projector_hidden_size: must be a positive whole number, got 0"),
    ({"vision_hidden_size": "1280"}, "vision_hidden_size: must be a positive whole number, got '1280'"),
    ({"text_config": {"num_nextn_predict_layers": "1"}},
     "text_config.num_nextn_predict_layers: must be a whole number, got '1'"),
    ({"text_config": {"model_type": "llama"}},
     "text_config.model_type: 'llama' is not a text decoder paramledger builds in nemotron_h_omni"),
])
def test_a_nemotron_h_omni_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "nemotron_h_omni", **config}, message)


def test_the_cli_refuses_a_bad_nemotron_h_omni_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "nemotron_h_omni", "sound_config": {"hidden_size": 8}}',
                       "sound_config: the legacy name of audio_config")


@pytest.mark.parametrize("mtp", [0, 1])
def test_the_radio_tower_is_vision_and_the_projector_holds_the_final_layernorm(mtp):
    """vision_final_layernorm sits beside the projector (built only with MTP layers): both "projector"."""
    config = {**SMALL, "text_config": {**SMALL_TEXT, "num_nextn_predict_layers": mtp}}
    ours, (tower, projector, final) = _sums(config, "vision_model.", "multi_modal_projector.",
                                            "vision_final_layernorm.")
    assert (ours["vision"], ours["projector"]) == (tower, projector + final)
    assert final == 2 * 8 * mtp
    assert projector == 8 * 4 + 12 * 8 * 4 + 24 * 12  # the RMSNorm over 4 shuffled patches, two bias-free Linears


def test_parakeet_is_the_audio_tower_and_embed_audio_projects_it():
    """audio_config given: Parakeet's encoder as audio_tower ("audio") and embed_audio beside the projector."""
    audio = {**AUDIO, "hidden_size": 6, "num_attention_heads": 2, "num_hidden_layers": 1, "intermediate_size": 4,
             "subsampling_conv_channels": 2, "num_mel_bins": 16}
    config = {**SMALL, "audio_config": audio}
    ours, (tower, projector, embed) = _sums(config, "audio_tower.", "multi_modal_projector.", "embed_audio.")
    assert (ours["audio"], ours["projector"]) == (tower, projector + embed)
    assert embed == 6 + 12 * 6 + 12 + 24 * 12 + 24  # an RMSNorm, linear_1 and linear_2 biased by projection_bias
    assert "audio" not in paramledger.inventory(paramledger.load(SMALL)).components


def test_the_default_total_is_hugging_faces_and_its_non_embedding_count_keeps_the_position_table():
    """num_parameters(exclude_embeddings=True) drops only the decoder's nn.Embedding: RADIO's position table is a
    raw Parameter and the head an nn.Linear."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    config = {"model_type": "nemotron_h_omni", "text_config": {"model_type": "nemotron_h", "num_hidden_layers": 2,
                                                               "hybrid_override_pattern": "M*"}}
    inv = paramledger.inventory(paramledger.load(config))
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**config))
    assert inv.total == model.num_parameters()
    assert inv.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert paramledger.inventory(paramledger.load({"model_type": "nemotron_h_omni"})).total == 2_659_803_008


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(data):
    """--text-only: NemotronHForCausalLM from text_config, tensor by tensor."""
    config = data.draw(CONFIGS_NH["nemotron_h_omni"], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()
    assert decoder.architecture.model_type == "nemotron_h"


def test_the_decoders_cache_and_state_are_what_the_whole_model_holds_after_a_forward_pass():
    """Keys and values of the attention layer and the Mamba-2 layer's conv and SSM states, byte for byte as the
    whole NemotronH_Omni_Reasoning_V3 holds them after a prefill of 5 tokens and 2 decoded (text only: the towers
    cache nothing)."""
    import torch
    from transformers import NemotronH_Omni_Reasoning_V3

    from paramledger.reference import hf_config

    cfg = hf_config(SMALL)
    cfg.text_config._experts_implementation = "eager"  # tiny experts: grouped_mm wants 16-byte strides
    torch.manual_seed(0)
    model = NemotronH_Omni_Reasoning_V3(cfg).float().eval()
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        cache = model(torch.randint(0, 64, (2, 5), generator=generator), use_cache=True).cache
        for _ in range(2):
            cache = model(torch.randint(0, 64, (2, 1), generator=generator), cache=cache, use_cache=True).cache
    ours = kv_cache(paramledger.load(SMALL), context=7, batch=2, dtype="fp32")
    assert ours.bytes == _cache_bytes(cache) > 0
    assert ours.state_bytes == _state_bytes(cache) > 0


SMALL_LLAMA = {"model_type": "llama", "pad_token_id": 0, "vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2,
               "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 24}
SMALL_AUDIO = {"hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 1, "intermediate_size": 12,
               "conv_dim": [4, 6], "conv_kernel": [3, 2], "conv_stride": [2, 2], "num_conv_pos_embeddings": 4,
               "num_conv_pos_embedding_groups": 2}
SMALL_OMNIASR = {"model_type": "omniasr", "text_config": SMALL_LLAMA, "audio_config": SMALL_AUDIO}


@pytest.mark.parametrize(("config", "message"), [
    ({"audio_config": {"hidden_size": 10, "num_attention_heads": 3, "num_conv_pos_embedding_groups": 1}},
     "audio_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"audio_config": {"num_conv_pos_embedding_groups": 3}},
     "audio_config.num_conv_pos_embedding_groups: 3 groups do not divide hidden_size=1024"),
    ({"audio_config": {"num_hidden_layers": 0}}, "audio_config.num_hidden_layers: must be a positive whole number"),
    ({"audio_config": {"conv_dim": [512, 512]}},
     "audio_config.conv_dim: 2 layers, but conv_kernel gives 7 and conv_stride 7: the three must be as long"),
    ({"audio_config": {"conv_kernel": []}}, "audio_config.conv_kernel: must be a non-empty list of positive whole"),
    ({"audio_config": {"conv_stride": [5, 2, 2, 2, 2, 2, "2"]}},
     "audio_config.conv_stride: must be a non-empty list of positive whole numbers"),
    ({"audio_config": {"conv_bias": 1}}, "audio_config.conv_bias: must be true or false, got 1"),
    ({"audio_config": {"model_type": "whisper"}}, "audio_config.model_type: 'whisper' is an audio tower paramledger "
     "does not build yet"),
    ({"initializer_range": 0.05}, "initializer_range: 0.05 is not audio_config's 0.02"),
    ({"text_config": {"model_type": "qwen2"}},
     "text_config.model_type: 'qwen2' is not a text decoder paramledger builds in omniasr"),
])
def test_an_omniasr_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "omniasr", **config}, message)


def test_the_cli_refuses_a_bad_omniasr_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "omniasr", "audio_config": {"conv_dim": [1, 2]}}',
                       "audio_config.conv_dim: 2 layers")


def test_omniasrs_tower_is_audio_and_its_linear_the_projector():
    ours, (tower, projector) = _sums(SMALL_OMNIASR, "model.audio_tower.", "model.multi_modal_projector.")
    assert (ours["audio"], ours["projector"]) == (tower, projector)
    assert projector == 16 * 8 + 16


def test_omniasrs_total_and_non_embedding_count_are_hugging_faces():
    """num_parameters(exclude_embeddings=True) drops the decoder's table alone; the head is never tied."""
    import torch
    from transformers import AutoConfig, AutoModelForMultimodalLM

    config = {"model_type": "omniasr", "text_config": {**SMALL_LLAMA, "tie_word_embeddings": True},
              "tie_word_embeddings": True}
    inv = paramledger.inventory(paramledger.load(config))
    with torch.device("meta"):
        model = AutoModelForMultimodalLM.from_config(AutoConfig.for_model(**config))
    assert inv.total == model.num_parameters()
    assert inv.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert not inv.aliases
    assert paramledger.inventory(paramledger.load({"model_type": "omniasr"})).total == 1_638_453_760


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_omniasrs_decoder_alone_is_its_text_configs_llama(data):
    """--text-only: LlamaForCausalLM from text_config, tensor by tensor."""
    config = data.draw(CONFIGS_NH["omniasr"], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


def test_omniasrs_decoder_alone_at_the_defaults_is_omniasrconfigs_llama():
    """A config without text_config: OmniASRConfig's init_kwargs (vocab 11,984, 12 layers), not LlamaConfig's."""
    decoder = text_only(paramledger.load({"model_type": "omniasr"}))
    assert (decoder.vocab_size, decoder.num_hidden_layers, decoder.intermediate_size) == (11984, 12, 2816)


def test_omniasrs_decoder_cache_is_what_the_whole_model_holds_after_a_forward_pass():
    """The Llama decoder's keys and values, byte for byte as the whole OmniASRForConditionalGeneration holds them
    after a prefill of 5 tokens and 2 decoded (text only: the audio tower caches nothing)."""
    import torch
    from transformers import OmniASRForConditionalGeneration

    from paramledger.reference import hf_config

    torch.manual_seed(0)
    model = OmniASRForConditionalGeneration(hf_config(SMALL_OMNIASR)).float().eval()
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        cache = model(torch.randint(0, 64, (2, 5), generator=generator), use_cache=True).cache
        for _ in range(2):
            cache = model(torch.randint(0, 64, (2, 1), generator=generator), cache=cache, use_cache=True).cache
    assert kv_cache(paramledger.load(SMALL_OMNIASR), context=7, batch=2, dtype="fp32").bytes == _cache_bytes(cache) > 0
