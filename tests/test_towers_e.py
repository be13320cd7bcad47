"""The whole models of set E (issue #16: LLaVA and its descendants, PaliGemma): one-line refusals for a
vision_config or text_config their towers and decoders cannot count, and the text decoder alone as its own
family counts it.  Each family's whole model is checked tensor by tensor in tests/test_families.py."""

from __future__ import annotations

import pytest
from _family_configs_e import CONFIGS_E
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only

LLAVAS = ("llava", "llava_next", "llava_next_video", "llava_onevision", "vipllava")


@pytest.mark.parametrize("model_type", LLAVAS)
@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": [1]}, "vision_config: must be a JSON object"),
    ({"vision_config": {"model_type": "made_up_vision"}},
     "vision_config.model_type: 'made_up_vision' is a vision tower paramledger does not build yet"),
    ({"vision_config": {"model_type": "clip_vision_model", "patch_size": 0}},
     "vision_config.patch_size: must be a positive whole number, got 0"),
    ({"vision_config": {"model_type": "clip_vision_model", "image_size": 14, "patch_size": 28}},
     "vision_config.patch_size: 28 is larger than image_size=14"),
    ({"vision_config": {"model_type": "clip_vision_model", "hidden_size": 1000, "num_attention_heads": 16}},
     "vision_config.num_attention_heads: 16 heads do not divide hidden_size=1000"),
    ({"text_config": {"model_type": "gpt2"}},
     "text_config.model_type: 'gpt2' is not a text decoder paramledger builds in"),
])
def test_a_config_its_whole_model_cannot_count_is_one_line(model_type, config, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": model_type, **config})
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("model_type", LLAVAS)
def test_the_decoder_alone_is_what_the_text_family_counts(model_type):
    whole = paramledger.inventory(paramledger.load({"model_type": model_type}))
    decoder = paramledger.inventory(text_only(whole.architecture))
    assert decoder.total == whole.total - whole.components["vision"] - whole.components["projector"]
    assert decoder.total == build_reference({"model_type": decoder.architecture.model_type}).total


@pytest.mark.parametrize("model_type", (*LLAVAS, "cohere2_vision", "paligemma"))
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(model_type, data):
    """--text-only: whichever decoder type text_config names, tensor by tensor against its own CausalLM."""
    config = data.draw(CONFIGS_E[model_type], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@pytest.mark.parametrize(("key", "value", "message"), [
    ("downsample_factor", 0, "downsample_factor: must be a positive whole number, got 0"),
    ("alignment_intermediate_size", 1, "alignment_intermediate_size: must be a whole number from 2, got 1"),
])
def test_an_aya_projector_it_cannot_count_is_one_line(key, value, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "aya_vision", "vision_config": {"num_attention_heads": 16}, key: value})
    assert "\n" not in str(error.value)


def test_a_video_pooler_it_cannot_count_is_one_line():
    with pytest.raises(ArchitectureError, match="spatial_pool_stride: must be a positive whole number, got 0") as error:
        paramledger.load({"model_type": "llava_next_video", "spatial_pool_mode": "conv", "spatial_pool_stride": 0})
    assert "\n" not in str(error.value)


def test_paligemma_2s_gemma_2_decoder_is_named_by_its_own_family():
    config = {"model_type": "paligemma", "text_config": {"model_type": "gemma2"}}
    arch = paramledger.load(config)
    inv = paramledger.inventory(arch)
    assert inv.total == build_reference(config).total == 3_016_200_704
    assert "model.language_model.layers.0.pre_feedforward_layernorm.weight" in inv.names()
    decoder = text_only(arch)
    assert decoder.model_type == "gemma2" and paramledger.inventory(decoder).total == 2_614_341_888


def test_paligemma_without_text_config_builds_its_class_s_gemma_2b():
    inv = paramledger.inventory(paramledger.load({"model_type": "paligemma"}))
    assert inv.total == build_reference({"model_type": "paligemma"}).total == 2_910_390_528
    assert inv.architecture.num_hidden_layers == 18 and inv.architecture.hidden_size == 2048
