"""HY-V4-VL counted whole (issue #16): its defaults, its tying, its decoder alone and its refusals."""

from __future__ import annotations

import math

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line
from _family_configs_hv import CONFIGS_HV
from hypothesis import given, settings
from hypothesis import strategies as st
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only


def test_the_class_defaults_are_the_whole_model_with_its_decoder_on_a_line_of_its_own():
    """HYV4VLConfig(): 771,142,515,869 parameters as transformers 5.24.0 builds them (measured on the meta device);
    the decoder is the total less the tower and its merger."""
    inv = paramledger.inventory(paramledger.load({"model_type": "hy_v4_vl"}))
    assert inv.total == 771_142_515_869
    assert not inv.tied
    assert inv.tensors[0].name == "model.language_model.embed_tokens.weight"
    decoder = paramledger.inventory(text_only(paramledger.load({"model_type": "hy_v4_vl"})))
    assert decoder.total == inv.text_decoder == inv.total - inv.component("vision") - inv.component("projector")
    assert decoder.total == 769_907_389_085


SMALL = {"model_type": "hy_v4_vl",
         "text_config": {"model_type": "hy_v4_vl_text", "hidden_size": 16, "intermediate_size": 8,
                         "moe_intermediate_size": 4, "num_hidden_layers": 2, "num_attention_heads": 2,
                         "n_routed_experts": 2, "num_experts_per_tok": 1, "q_lora_rank": 4, "kv_lora_rank": 4,
                         "qk_nope_head_dim": 4, "qk_rope_head_dim": 4, "v_head_dim": 4, "index_n_heads": 1,
                         "index_head_dim": 4, "vocab_size": 40, "pad_token_id": 0, "hc_mult": 2,
                         "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                             "mrope_section": [1, 1, 0]}},
         "vision_config": {"hidden_size": 6, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 3,
                           "patch_size": 2, "max_image_size": 6, "out_hidden_size": 16}}


@pytest.mark.parametrize(("vision", "tie"), [({}, None), ({"head_dim": 5}, True), ({"out_hidden_size": 7}, False)])
def test_a_small_model_matches_tensor_by_tensor(vision, tie):
    """A head_dim of the tower's own widens q, k, v and o; the merger's output is out_hidden_size whatever the
    decoder's width; the merger is the projector; tied by the whole config's tie_word_embeddings."""
    config = {**SMALL, "vision_config": {**SMALL["vision_config"], **vision},
              **({} if tie is None else {"tie_word_embeddings": tie})}
    inv = paramledger.inventory(paramledger.load(config))
    result = diff(inv, build_reference(config))
    assert result.matches, result.to_json()
    assert inv.tied is bool(tie)
    ours, (merger, tower) = _sums(config, "model.vision_tower.patch_merger.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (merger, tower - merger)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_the_whole_models_decoder(data):
    """--text-only (transformers registers no CausalLM for hy_v4_vl_text): the whole model's decoder tensors, in
    order, and a head of their own unless text_config ties it."""
    config = data.draw(CONFIGS_HV["hy_v4_vl"], label="config")
    arch = text_only(paramledger.load(config))
    decoder = paramledger.inventory(arch)
    reference = [(name, shape) for name, shape in build_reference(config).tensors
                 if name.startswith("model.language_model.")]
    head = [] if arch.tie_word_embeddings else [("lm_head.weight", (arch.vocab_size, arch.hidden_size))]
    assert [(t.name, t.shape) for t in decoder.tensors] == reference + head


@pytest.mark.parametrize(("change", "message"), [
    ({"text_config": {**SMALL["text_config"], "rope_parameters": {"mrope_section": [1, 1, 1]}}},
     r"text_config.rope_parameters.mrope_section: \[1, 1, 1\] must be three whole numbers summing to "
     r"qk_rope_head_dim // 2 = 2"),
    ({"text_config": {**SMALL["text_config"], "rope_parameters": None}},
     r"mrope_section: \[12, 10, 10\] must be three whole numbers summing to qk_rope_head_dim // 2 = 2"),
    ({"vision_config": {**SMALL["vision_config"], "head_dim": 0}},
     "vision_config.head_dim: must be a positive whole number, got 0"),
    ({"vision_config": {**SMALL["vision_config"], "out_hidden_size": -1}},
     "vision_config.out_hidden_size: must be a positive whole number, got -1"),
    ({"vision_config": {**SMALL["vision_config"], "patch_size": 8}},
     "vision_config.patch_size: 8 is larger than max_image_size=6"),
])
def test_a_config_it_cannot_count_is_one_line(change, message):
    refused_in_one_line({**SMALL, **change}, message)


def test_the_cli_refuses_an_mrope_section_transformers_refuses(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "hy_v4_vl", "text_config": {"qk_rope_head_dim": 8}}',
                       "text_config.rope_parameters.mrope_section: [12, 10, 10] must be three whole numbers")


def test_another_depth_of_a_config_without_text_config_places_its_layers_as_the_class_does():
    """--vary num_hidden_layers on HYV4VLConfig() (no text_config: the class's default decoder) reads the decoder at
    the new depth, its indexer_types and mlp_layer_types as HYV4VLTextConfig builds them, instead of refusing the
    78 entries it held: 392,223,410,725 at 40 layers, what transformers builds (text_config num_hidden_layers 40)."""
    (row,) = paramledger.what_if({"model_type": "hy_v4_vl"}, ["num_hidden_layers=40"])
    reference = build_reference({"model_type": "hy_v4_vl", "text_config": {"num_hidden_layers": 40}})
    assert row.total == sum(math.prod(shape) for _, shape in reference.tensors) == 392_223_410_725

