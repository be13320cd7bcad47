"""Phi-4-multimodal (issues #15 and #16, set ph4): one-line refusals for a config its towers cannot count, the
components, Hugging Face's non-embedding count, the decoder alone (--text-only) as Phi-3's CausalLM counts it, and the
KV cache of the whole model run on text.  The whole model is checked tensor by tensor in tests/test_families.py and
test_buffers.py."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_ph4 import CONFIGS_PH4
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only

EXTEND = "model.embed_tokens_extend."
SMALL = {"model_type": "phi4_multimodal", "vocab_size": 50, "hidden_size": 8, "intermediate_size": 6,
         "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1, "pad_token_id": 0,
         "vision_config": {"hidden_size": 4, "intermediate_size": 3, "num_hidden_layers": 1, "num_attention_heads": 2,
                           "image_size": 6, "patch_size": 2},
         "audio_config": {"hidden_size": 4, "intermediate_size": 3, "num_blocks": 2, "num_attention_heads": 2,
                          "ext_pw_out_channel": 5, "depthwise_separable_out_channel": 6, "input_size": 10,
                          "nemo_conv_channels": 3, "bias_max_distance": 7, "downsample_rate": 2}}


def _with(key: str, **changes) -> dict:
    return {**SMALL, key: {**SMALL[key], **changes}}


@pytest.mark.parametrize(("config", "message"), [
    (_with("audio_config", num_blocks=0), "audio_config.num_blocks: must be a positive whole number, got 0"),
    (_with("audio_config", time_reduction=3), "audio_config.time_reduction: must be a multiple of 2, got 3"),
    (_with("audio_config", time_reduction=0), "audio_config.time_reduction: must be a positive whole number, got 0"),
    (_with("audio_config", bias_symmetric="no"), "audio_config.bias_symmetric: must be true or false, got 'no'"),
    (_with("audio_config", head_dim=None), "audio_config.head_dim: must be a positive whole number, got None"),
    (_with("audio_config", downsample_rate=1.5),
     "audio_config.downsample_rate: must be a positive whole number, got 1.5"),
    (_with("audio_config", nemo_conv_channels=-1),
     "audio_config.nemo_conv_channels: must be a positive whole number, got -1"),
    ({**SMALL, "audio_config": [1024]}, "audio_config: must be a JSON object"),
    (_with("vision_config", hidden_size=10, num_attention_heads=3),
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    (_with("vision_config", image_size=[448, 448]),
     r"vision_config.image_size: must be a positive whole number, got \[448, 448\]"),
    (_with("vision_config", image_size=10, patch_size=14), "vision_config.patch_size: 14 is larger than image_size=10"),
    ({**SMALL, "vision_config": "siglip"}, "vision_config: must be a JSON object"),
    (_with("audio_config", num_blocks=10**8), "audio_config.num_blocks: .* is beyond the bound of 10,000 a tower's"),
    (_with("vision_config", num_hidden_layers=10**30),
     "vision_config.num_hidden_layers: .* is beyond the bound of 10,000 a tower's"),
    (_with("vision_config", intermediate_size=2**60), "vision_config.intermediate_size: must be a positive whole"),
])
def test_a_phi4_multimodal_config_it_cannot_count_is_one_line(config, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


def test_the_cli_refuses_an_odd_time_reduction_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps(_with("audio_config", time_reduction=5)),
                       "audio_config.time_reduction: must be a multiple of 2, got 5")


def test_the_towers_are_vision_and_audio_and_the_embedders_own_tensors_the_projector():
    """img_processor is the vision component, the conformer the audio one; the extensors and the six projections
    (image up and down, two audio pairs) the projector; all of it registered after the decoder's norm."""
    ours, (vision, audio, extend) = _sums(SMALL, EXTEND + "image_embed.img_processor.", EXTEND + "audio_embed.encoder.",
                                          EXTEND)
    assert (ours["vision"], ours["audio"], ours["projector"]) == (vision, audio, extend - vision - audio)
    assert ours["projector"] == 2 * 4 + (8 * 4 + 8) + (8 * 8 + 8) + 2 * ((8 * 4 * 2 + 8) + (8 * 8 + 8))
    names = [t.name for t in paramledger.inventory(paramledger.load(SMALL)).tensors]
    assert names.index("model.norm.weight") + 1 == names.index(EXTEND + "image_embed.global_img_feature_extensor")


@pytest.mark.parametrize("config", [{"model_type": "phi4_multimodal"}, SMALL,
                                    {**_with("audio_config", bias_symmetric=True), "tie_word_embeddings": True}])
def test_the_non_embedding_count_drops_every_table_as_hugging_face_does(config):
    """num_parameters(exclude_embeddings=True) drops every nn.Embedding: the token table, the vision tower's
    positions and the conformer's relative attention bias."""
    import torch
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(hf_config(config))
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_the_pooling_head_is_built_whatever_vision_use_head_says():
    """Phi4MultimodalVisionModel always builds its head; head_dim is read by no vision module."""
    config = _with("vision_config", vision_use_head=False, head_dim=3)
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert any(t.name.endswith("img_processor.head.probe") for t in inventory.tensors)


def _as_phi3(config: dict) -> dict:
    """The decoder's keys as Phi3Config reads them, Phi4MultimodalConfig's defaults where the config is silent."""
    text = {key: value for key, value in config.items() if key not in ("vision_config", "audio_config")}
    return {"vocab_size": 200064, "num_key_value_heads": 8, "max_position_embeddings": 131072,
            "pad_token_id": 199999, **text, "model_type": "phi3"}


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_phi3s_causal_lm(data):
    """--text-only: Phi3ForCausalLM from the same top-level keys, tensor by tensor and tied alike."""
    config = data.draw(CONFIGS_PH4["phi4_multimodal"], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(_as_phi3(config)))
    assert result.matches, result.to_json()


def test_the_decoder_alone_at_the_defaults():
    """4,400,286,720 of the whole model's 5,308,268,992 at Phi4MultimodalConfig's defaults (untied)."""
    config = {"model_type": "phi4_multimodal"}
    whole = paramledger.inventory(paramledger.load(config))
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    assert diff(decoder, build_reference(_as_phi3(config))).matches
    assert (whole.total, decoder.total) == (5_308_268_992, 4_400_286_720)
    assert "counting its text decoder (the config's top-level keys" in text_only(paramledger.load(config)).notes[0]


@pytest.mark.parametrize("config", [SMALL, {**SMALL, "tie_word_embeddings": True, "partial_rotary_factor": 0.5}])
def test_verify_builds_phi3_for_the_decoder_alone(config):
    """verify --text-only: the config's keys as Phi3Config (reference.DECODER_ALONE), not the whole class."""
    from paramledger.reference import verify

    result = verify(config, text_only=True)
    assert result.reference.class_name == "Phi3ForCausalLM" and result.diff.matches
    assert verify(config).reference.class_name == "Phi4MultimodalForCausalLM"


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_whole_model_caches_what_transformers_caches(data):
    """The whole model run on text alone (embed_tokens_extend passes the token embeddings through): its cache
    against paramledger's KV bytes."""
    import torch
    from hypothesis import assume

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_PH4["phi4_multimodal"], label="config")
    arch = paramledger.load(config)
    # an odd number of rotary channels makes transformers' keys wider than qkv_proj's (test_kvcache's quirk)
    assume(int(config.get("partial_rotary_factor", 1.0) * arch.attention_head_dim) % 2 == 0)
    assume(arch.sliding_window != 1)  # (transformers' own sliding cache breaks at a window of 1)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    ids = torch.randint(0, hf.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(ids, use_cache=True).cache
    assert type(model).__name__ == "Phi4MultimodalForCausalLM"
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)


@pytest.mark.parametrize("changes", [{"hidden_size": 12}, {"num_hidden_layers": 3}])
def test_the_projections_follow_a_change_to_the_decoder(changes):
    """--set on the decoder (Architecture.replace): the six projections read its width again, as the config
    written with the change and read anew says."""
    from paramledger.hf_config import config_with_overrides

    changed = paramledger.inventory(paramledger.load(SMALL, **changes))
    reread = paramledger.inventory(paramledger.load(config_with_overrides(SMALL, changes)))
    assert [(t.name, t.shape, t.component) for t in changed.tensors] == [
        (t.name, t.shape, t.component) for t in reread.tensors]
    assert changed.total == reread.total == build_reference(config_with_overrides(SMALL, changes)).total
