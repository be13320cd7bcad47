"""The whole models of set MA (issue #16: MiniCPM-OCR, ...): one-line refusals for a config their towers cannot
count, the components, and the text decoder alone as its own family counts it.  Each whole model is checked tensor by
tensor in tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import math

import pytest
from _family_configs_ma import CONFIGS_MA
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("model_type", sorted(CONFIGS_MA))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(model_type, data):
    """--text-only: the decoder text_config names, tensor by tensor against its own CausalLM."""
    config = data.draw(CONFIGS_MA[model_type], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@pytest.mark.parametrize(("model_type", "components"), [
    ("minicpm_ocr", {"vision", "projector"}),
    ("lfm3_vl", {"vision", "projector"}),
    ("cohere_compass", {"vision", "projector"}),
    ("minimax_m3_vl", {"vision", "projector"}),
])
def test_the_tower_and_projector_are_their_own_components(model_type, components):
    by_component = paramledger.inventory(paramledger.load({"model_type": model_type})).components
    assert components <= set(by_component)


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "minicpm_ocr", "merger_times": 0}, "merger_times: must be a positive whole number, got 0"),
    ({"model_type": "minicpm_ocr", "vision_config": {"window_kernel_size": [2]}},
     r"vision_config.window_kernel_size: must be a \[height, width\] pair of positive whole numbers, got \[2\]"),
    ({"model_type": "minicpm_ocr", "vision_config": {"hidden_size": 0}}, "vision_config.hidden_size"),
    ({"model_type": "lfm3_vl", "vision_config": {"num_hidden_layers": 2, "layer_types": ["conv"]}},
     r"vision_config.layer_types: must list 2 of 'conv' and 'full_attention' \(num_hidden_layers\), got \['conv'\]"),
    ({"model_type": "lfm3_vl", "vision_config": {"layer_types": ["sliding_attention"] * 14}},
     "vision_config.layer_types: must list 14 of 'conv' and 'full_attention'"),
    ({"model_type": "lfm3_vl", "vision_config": {"head_dim": 5}}, "vision_config.head_dim: 5 is odd"),
    ({"model_type": "lfm3_vl", "vision_config": {"conv_kernel_size": 0}},
     "vision_config.conv_kernel_size: must be a positive whole number, got 0"),
    ({"model_type": "lfm3_vl", "vision_config": {"spatial_merge_size": "2"}},
     "vision_config.spatial_merge_size: must be a positive whole number, got '2'"),
    ({"model_type": "lfm3_vl", "vision_config": {"hidden_size": 8, "num_attention_heads": 16}},
     "vision_config.num_attention_heads: 16 heads of hidden_size=8 would be 0 wide"),
    ({"model_type": "lfm3_vl", "vision_config": {"rope_parameters": {"rope_type": "yarn"}}},
     "vision_config.rope_parameters: its rope_type must be 'axial'"),
    ({"model_type": "lfm3_vl", "projector_hidden_size": 0}, "projector_hidden_size: must be a positive whole number"),
    ({"model_type": "lfm3_vl", "projector_bias": "yes"}, "projector_bias: must be true or false, got 'yes'"),
    ({"model_type": "cohere_compass", "vision_config": {"deepstack_visual_indexes": 3}},
     "vision_config.deepstack_visual_indexes: must be a list of layer indexes, got 3"),
    ({"model_type": "cohere_compass", "vision_config": {"num_position_embeddings": 0}},
     "vision_config.num_position_embeddings: must be a positive"),
    ({"model_type": "cohere_compass", "vision_config": {"out_hidden_size": 2.5}},
     "vision_config.out_hidden_size: must be a positive whole number, got 2.5"),
    ({"model_type": "minimax_m3_vl", "vision_config": {"hidden_size": 10, "num_attention_heads": 3}},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"model_type": "minimax_m3_vl", "vision_config": {"temporal_patch_size": 0}},
     "vision_config.temporal_patch_size: must be a positive whole number, got 0"),
    ({"model_type": "minimax_m3_vl", "vision_config": {"rope_parameters": {"rope_type": "default"}}},
     "vision_config.rope_parameters: its rope_type must be 'axial'"),
    ({"model_type": "minimax_m3_vl", "vision_config": {"head_dim": -4}},
     "vision_config.head_dim: must be a positive whole number, got -4"),
    ({"model_type": "minimax_m3_vl", "projector_hidden_size": None},
     "projector_hidden_size: must be a positive whole number, got None"),
])
def test_a_config_it_cannot_count_is_one_line(config, message):
    _refused(config, message)


def test_minicpm_ocr_ties_its_head_by_its_class_default():
    """MiniCPMOcrConfig ties (MiniCPMV4_6Config does not): the same modules otherwise."""
    assert paramledger.inventory(paramledger.load({"model_type": "minicpm_ocr"})).tied
    untied = {"model_type": "minicpm_ocr", "tie_word_embeddings": False, "text_config": {"num_hidden_layers": 1}}
    assert diff(paramledger.inventory(paramledger.load(untied)), build_reference(untied)).matches


def test_lfm3_vl_registers_its_decoder_before_its_tower():
    """Lfm3VlModel.__init__ makes the language model first, then the tower and projector: named_parameters() order."""
    config = {"model_type": "lfm3_vl", "text_config": {"num_hidden_layers": 2, "vocab_size": 40, "pad_token_id": 0},
              "vision_config": {"num_hidden_layers": 3}}
    names = [t.name for t in paramledger.inventory(paramledger.load(config)).tensors]
    assert names[0] == "model.language_model.embed_tokens.weight"
    assert names.index("model.language_model.embedding_norm.weight") < names.index("model.vision_tower.patch_embed.weight")
    assert diff(paramledger.inventory(paramledger.load(config)), build_reference(config)).matches


def test_cohere_compass_is_qwen3_vls_whole_model_untied_whatever_text_config_says():
    """CohereCompassConfig ties by its own tie_word_embeddings (False); text_config's (True) ties nothing.  The
    mergers (model.visual.merger and the deepstack ones) are the projector, as Qwen3-VL's."""
    config = {"model_type": "cohere_compass", "text_config": {
        "num_hidden_layers": 1, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 50, "pad_token_id": 0,
        "tie_word_embeddings": True, "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e4}}},
        "vision_config": {"model_type": "cohere_compass", "depth": 2, "deepstack_visual_indexes": [1]}}
    inv = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config)
    assert not inv.tied and diff(inv, reference).matches
    mergers = sum(math.prod(shape) for name, shape in reference.tensors if "merger" in name)
    assert inv.components["projector"] == mergers
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    assert decoder.tied and not any(t.name.startswith("model.visual.") for t in decoder.tensors)


@pytest.mark.parametrize(("whole", "text"), [(None, None), (False, True), (True, False)])
def test_minimax_m3_vl_ties_where_either_tie_word_embeddings_says(whole, text):
    """MiniMaxM3VLConfig.__post_init__ ties the whole model where its own or text_config's tie_word_embeddings is
    set (both False by default); merged_hidden_size is set from the decoder's width whatever the config says."""
    config = {"model_type": "minimax_m3_vl", "merged_hidden_size": 5, "text_config": {
        "num_hidden_layers": 1, "hidden_size": 32, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8,
        "vocab_size": 50, "pad_token_id": 0, "num_local_experts": 2, "num_experts_per_tok": 1, "intermediate_size": 8,
        **({} if text is None else {"tie_word_embeddings": text})},
        "vision_config": {"num_hidden_layers": 1, "hidden_size": 16, "num_attention_heads": 2},
        **({} if whole is None else {"tie_word_embeddings": whole})}
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.tied == bool(whole or text)
    assert diff(inv, build_reference(config)).matches


@pytest.mark.parametrize("spelling", ["cohere_compass_vision", "cohere_compass", "qwen2_vl_vision", "made_up_vision"])
def test_cohere_compass_builds_its_own_tower_whatever_vision_configs_model_type_says(spelling):
    """CohereCompassConfig's sub-config spec is CohereCompassVisionConfig itself: no model_type is resolved."""
    config = {"model_type": "cohere_compass", "text_config": {
        "num_hidden_layers": 1, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 50, "pad_token_id": 0,
        "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 1e4}}},
        "vision_config": {"model_type": spelling, "depth": 1}}
    assert diff(paramledger.inventory(paramledger.load(config)), build_reference(config)).matches
