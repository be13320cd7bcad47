"""Muse Glimmer counted whole (issue #16): its defaults, its decoder alone, its refusals."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line
from _family_configs_mg import CONFIGS_MG
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only


def test_the_class_defaults_are_the_whole_model_with_its_decoder_on_a_line_of_its_own():
    """MuseGlimmerConfig(): 29,776,626,688 parameters (measured on the meta device); the tower first, the projector's
    modules after the decoder, the head last."""
    inv = paramledger.inventory(paramledger.load({"model_type": "muse_glimmer"}))
    assert inv.total == 29_776_626_688
    names = [t.name for t in inv.tensors]
    assert names[0].startswith("model.vision_tower.") and names[-4:] == [
        "model.vision_adapter.fc1.weight", "model.vision_adapter.fc2.weight", "model.vision_projection.weight",
        "lm_head.weight"]
    assert paramledger.inventory(text_only(paramledger.load({"model_type": "muse_glimmer"}))).total == (
        inv.total - inv.component("vision") - inv.component("projector"))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_the_whole_models_decoder(data):
    """--text-only (no CausalLM for muse_glimmer_text): the whole model's decoder tensors in order, then its head."""
    config = data.draw(CONFIGS_MG["muse_glimmer"], label="config")
    arch = text_only(paramledger.load(config))
    reference = [(name, shape) for name, shape in build_reference(config).tensors
                 if name.startswith("model.language_model.")]
    head = [] if arch.tie_word_embeddings else [("lm_head.weight", (arch.vocab_size, arch.hidden_size))]
    assert [(t.name, t.shape) for t in paramledger.inventory(arch).tensors] == reference + head


SMALL = {"model_type": "muse_glimmer", "out_hidden_size": 6, "projector_hidden_size": 5,
         "text_config": {"hidden_size": 8, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
                         "num_hidden_layers": 5, "intermediate_size": 6, "vocab_size": 20},
         "vision_config": {"hidden_size": 4, "num_attention_heads": 2, "num_hidden_layers": 1,
                           "intermediate_size": 3, "patch_size": 2, "pos_emb_height": 2, "pos_emb_width": 3}}


def test_a_small_model_matches_and_its_last_layer_and_every_fourth_before_are_full():
    arch = paramledger.load(SMALL)
    result = diff(paramledger.inventory(arch), build_reference(SMALL))
    assert result.matches, result.to_json()
    assert [kind == "full_attention" for kind in arch.layer_types] == [True, False, False, False, True]


@pytest.mark.parametrize(("change", "message"), [
    ({"text_config": {**SMALL["text_config"], "num_attention_heads": 3, "num_key_value_heads": 1}},
     "num_attention_heads: 3 heads do not divide hidden_size=8"),
    ({"vision_config": {**SMALL["vision_config"], "head_dim": 5}}, "vision_config.head_dim: 5 with a full rotary"),
    ({"vision_config": {**SMALL["vision_config"], "rope_parameters": {"rope_type": "linear", "factor": 2.0}}},
     "vision_config.rope_parameters.rope_type: 'linear': MuseGlimmerVisionRotaryEmbedding supports only axial"),
    ({"vision_config": {**SMALL["vision_config"], "patch_temporal": 0}},
     "vision_config.patch_temporal: must be a positive whole number, got 0"),
    ({"projector_hidden_size": -2}, "projector_hidden_size: must be a positive whole number, got -2"),
])
def test_a_config_it_cannot_count_is_one_line(change, message):
    refused_in_one_line({**SMALL, **change}, message)


def test_the_cli_refuses_heads_that_do_not_divide_the_width(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "muse_glimmer", "text_config": {"num_attention_heads": 5}}',
                       "num_attention_heads: 5 heads do not divide hidden_size=6656")
