"""A config's design at another depth (--set num_hidden_layers, whatif, sweep) against transformers building that
config at that depth: where the family's layer pattern comes from a rule of its config class, the config is read
again at the new depth (design/values.config_at_depth), so the rule places the layers; a pattern the config lists
itself repeats by its period, after the first layers that hold none (design/values.repeat_patterns)."""

from __future__ import annotations

import pytest

import paramledger
from paramledger.reference import build_reference

pytest.importorskip("transformers")


@pytest.mark.parametrize("model_type", [
    "lfm3",  # layer 0 a short conv, then a period of four (Lfm3Config.__post_init__): repeated, layer 24 was a conv
    "gemma4_text",  # its last layer full attention and its last KV-sharing layers, counted from the end
    "zamba",  # layers_block_type from attn_layer_period and attn_layer_offset: the shared block's uses
    "recurrent_gemma",
    "jamba",
    "qwen3_next",
])
@pytest.mark.parametrize("extra", [1, 5])
def test_a_config_at_a_new_depth_is_what_transformers_builds_from_it_there(model_type, extra):
    config = {"model_type": model_type}
    layers = paramledger.load(config).num_hidden_layers + extra
    ours = paramledger.inventory(paramledger.load(config, num_hidden_layers=layers))
    reference = build_reference({**config, "num_hidden_layers": layers})
    assert tuple((t.name, t.shape) for t in ours.tensors) == tuple(reference.tensors)
    assert dict(ours.aliases) == dict(reference.aliases)
    assert ours.total == reference.total


def test_a_depth_reached_by_steps_reads_the_config_at_each():
    """The config is kept through a change of depth: a second change reads it again too."""
    config = {"model_type": "lfm3"}
    deeper = paramledger.load(config, num_hidden_layers=27).replace(num_hidden_layers=29)
    assert deeper.layer_types == paramledger.load({**config, "num_hidden_layers": 29}).layer_types


def test_a_pattern_after_a_lead_repeats_by_its_period_where_the_config_lists_it():
    """An LFM3 config listing its 24 layer types: at 26 layers, layer 24 is sliding and 25 a conv (the period of
    four after layer 0), not layers 0 and 1 again (the old depth's repeat)."""
    import transformers

    listed = {"model_type": "lfm3", "layer_types": transformers.AutoConfig.for_model("lfm3").layer_types}
    deeper = paramledger.load(listed, num_hidden_layers=26)
    assert deeper.conv_layers[-1] == 25 and 24 not in deeper.conv_layers
    assert deeper.layer_types[24] == "sliding_attention"


def test_a_text_decoder_alone_at_a_new_depth_stays_the_decoder():
    """--text-only's decoder of a whole model is no longer its config's design: a new depth repeats its pattern and
    keeps its own model_type (the whole config read again gave it back gemma3)."""
    from paramledger.towers import text_only

    deeper = text_only(paramledger.load("gemma-3-4b-it")).replace(num_hidden_layers=40)
    assert deeper.model_type == "gemma3_text" and not deeper.towers and deeper.num_hidden_layers == 40
