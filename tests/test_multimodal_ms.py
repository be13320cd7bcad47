"""Muse Spark counted whole (issue #16): its defaults, its decoder alone, its dense and sparse layers, its audio
tower, its refusals."""

from __future__ import annotations

import re

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line
from _family_configs_ms import CONFIGS_MS
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only


def test_the_class_defaults_are_the_whole_model_with_the_audio_tower_after_the_projector():
    """MuseSparkConfig(): 822,036,513,792 parameters (measured on the meta device); the vision tower first, the
    projector's modules after the decoder, the audio tower after them, the head (never tied) last."""
    inv = paramledger.inventory(paramledger.load({"model_type": "muse_spark"}))
    assert inv.total == 822_036_513_792
    assert (inv.component("vision"), inv.component("projector"), inv.component("audio")) == (
        1_852_639_744, 75_497_472, 117_840_384)
    names = [t.name for t in inv.tensors]
    assert names[0].startswith("model.vision_tower.") and names[-2:] == [
        "model.audio_tower.post_proj_norm.weight", "lm_head.weight"]
    assert paramledger.inventory(text_only(paramledger.load({"model_type": "muse_spark"}))).total == (
        inv.total - inv.component("vision") - inv.component("projector") - inv.component("audio"))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_the_whole_models_decoder(data):
    """--text-only (no CausalLM for muse_spark_text): the whole model's decoder tensors in order, then its head."""
    config = data.draw(CONFIGS_MS["muse_spark"], label="config")
    arch = text_only(paramledger.load(config))
    reference = [(name, shape) for name, shape in build_reference(config).tensors
                 if name.startswith("model.language_model.")]
    head = [] if arch.tie_word_embeddings else [("lm_head.weight", (arch.vocab_size, arch.hidden_size))]
    assert [(t.name, t.shape) for t in paramledger.inventory(arch).tensors] == reference + head


SMALL = {"model_type": "muse_spark", "out_hidden_size": 6, "projector_hidden_size": 5, "tie_word_embeddings": True,
         "text_config": {"hidden_size": 8, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
                         "num_hidden_layers": 3, "intermediate_size": 6, "vocab_size": 20, "num_local_experts": 3,
                         "num_experts_per_tok": 2, "moe_intermediate_size": 5, "moe_hidden_size": 7, "tie_word_embeddings": True,
                         "mlp_layer_types": ["sparse", "dense", "sparse"]},
         "vision_config": {"hidden_size": 4, "num_attention_heads": 2, "num_hidden_layers": 1,
                           "intermediate_size": 3, "patch_size": 2, "pos_emb_height": 2, "pos_emb_width": 3},
         "audio_config": {"patch_sizes": [2, 3], "hidden_sizes": [3, 4], "depths": [1, 0], "num_hidden_layers": 2,
                          "mlp_ratio": 1.5, "conv_kernel_size": 3, "out_hidden_size": 8}}


def test_a_small_model_matches_with_its_latent_experts_its_dense_layer_and_an_untied_head():
    """A tied head asked for anywhere is still untied (no _tied_weights_keys); layer 1 is Glimmer's dense MLP."""
    arch = paramledger.load(SMALL)
    inv = paramledger.inventory(arch)
    result = diff(inv, build_reference(SMALL))
    assert result.matches, result.to_json()
    shapes = dict((t.name, t.shape) for t in inv.tensors)
    layer = "model.language_model.layers."
    assert shapes[layer + "0.mlp.experts.gate_up_proj"] == (3, 10, 7)
    assert shapes[layer + "0.mlp.experts.down_proj"] == (3, 7, 5)
    assert shapes[layer + "1.mlp.gate_proj.weight"] == (6, 8) and layer + "1.mlp.gate.weight" not in shapes
    assert shapes[layer + "2.post_feedforward_residual_gate.gate"] == (8,)
    assert layer + "0.post_attention_layernorm.weight" not in shapes
    assert "lm_head.weight" in shapes and not inv.aliases


@pytest.mark.parametrize(("change", "message"), [
    ({"text_config": {**SMALL["text_config"], "mlp_layer_types": ["sparse", "moe", "sparse"]}},
     "mlp_layer_types: must list \"dense\" or \"sparse\" for each of the 3 layers"),
    ({"text_config": {**SMALL["text_config"], "mlp_layer_types": ["sparse"]}},
     "mlp_layer_types: must list \"dense\" or \"sparse\" for each of the 3 layers"),
    ({"text_config": {**SMALL["text_config"], "moe_hidden_size": 0}}, "moe_hidden_size"),
    ({"audio_config": {**SMALL["audio_config"], "depths": [1]}},
     "audio_config.num_hidden_layers: 2, but patch_sizes, hidden_sizes and depths have 2, 2 and 1 entries"),
    ({"audio_config": {**SMALL["audio_config"], "depths": [1, -1]}},
     "audio_config.depths: must be a list of whole numbers from 0, got [1, -1]"),
    ({"audio_config": {**SMALL["audio_config"], "hidden_sizes": [3, 0]}},
     "audio_config.hidden_sizes: must be a list of positive whole numbers, got [3, 0]"),
    ({"audio_config": {**SMALL["audio_config"], "mlp_ratio": "4"}},
     "audio_config.mlp_ratio: must be a positive number, got '4'"),
    ({"audio_config": {**SMALL["audio_config"], "mlp_ratio": 0.1}},
     "audio_config.mlp_ratio: 0.1 makes an MLP of no width"),
    ({"audio_config": {**SMALL["audio_config"], "out_hidden_size": 9}},
     "audio_config.out_hidden_size: 9 must match text_config.hidden_size (8)"),
    ({"audio_config": {**SMALL["audio_config"], "conv_kernel_size": 0}},
     "audio_config.conv_kernel_size: must be a positive whole number, got 0"),
])
def test_a_config_it_cannot_count_is_one_line(change, message):
    refused_in_one_line({**SMALL, **change}, re.escape(message))


def test_the_cli_refuses_an_audio_tower_narrower_than_the_decoder(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "muse_spark", "audio_config": {"out_hidden_size": 4096}}',
                       "audio_config.out_hidden_size: 4096 must match text_config.hidden_size (8192)")
