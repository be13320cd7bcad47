"""Set M's token mixers: the one-line refusals of their keys' bad values (each family's tensors are checked against
transformers 5.24.0 by tests/test_families.py and tests/test_buffers.py, its strategy in tests/_family_configs_i.py)."""

from __future__ import annotations

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.families import cpmant as cpmant_family
from paramledger.families import xlnet as xlnet_family

# a flat spec: the mixers' own keys given directly, as a spec file or --set gives them
FLAT = {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
        "intermediate_size": 32}
GATED = {**FLAT, "attention_output_gate": "per_channel"}
# latent attention whose layers hold their own norms (A.X-K2's)
LATENT = {**FLAT, "kv_lora_rank": 8, "q_lora_rank": 8, "qk_nope_head_dim": 4, "qk_rope_head_dim": 4, "v_head_dim": 4,
          "norm_placement": "none"}
AXK2 = {"model_type": "axk2"}
# XLNet's layers hold their feed-forward and norms
XLNET_FLAT = {**FLAT, "norm_placement": "none", "layers_without_ffn": [0, 1], "norm_type": "layernorm"}
CPMANT = {"model_type": "cpmant"}
CPMANT_LANDED = bool(cpmant_family.FAMILIES)  # once docs/notes/coverage-set-m.patch lands
XLNET_LANDED = bool(xlnet_family.FAMILIES)


@pytest.mark.parametrize(("config", "changes", "message"), [
    (FLAT, {"gate_bias_attention_layers": [0]},
     r"gate_bias_attention_layers: needs attention_output_gate \(a bias of the output gate, and there is no gate\)"),
    (GATED, {"gate_bias_attention_layers": [2]}, r"gate_bias_attention_layers: layer 2 is outside 0..1"),
    (GATED, {"gate_bias_attention_layers": "all"}, r"gate_bias_attention_layers: must be a list of whole numbers"),
    (GATED, {"gate_bias_attention_layers": [0], "conv_layers": [0], "conv_L_cache": 3},
     r"gate_bias_attention_layers: layer 0 is in conv_layers too"),
    (LATENT, {"gated_norm_mla_layers": [0]},
     r"gated_norm_rank: required with gated_norm_mla_layers \(the norms' gate bottleneck\)"),
    (LATENT, {"gated_input_norm_mla_layers": [1]}, r"gated_norm_rank: required with gated_input_norm_mla_layers"),
    (LATENT, {"gated_norm_mla_layers": [0], "gated_norm_rank": 0}, r"gated_norm_rank: must be positive, got 0"),
    ({**LATENT, "norm_placement": "pre"}, {"gated_norm_mla_layers": [0], "gated_norm_rank": 4},
     r"gated_norm_mla_layers: its layers hold their own norms: needs norm_placement 'none', got 'pre'"),
    ({**LATENT, "q_lora_rank": None}, {"gated_norm_mla_layers": [0], "gated_norm_rank": 4},
     r"q_lora_rank: required with gated_norm_mla_layers \(its latent attention's rank\)"),
    (LATENT, {"gated_norm_mla_layers": [0], "gated_input_norm_mla_layers": [0], "gated_norm_rank": 4},
     r"gated_input_norm_mla_layers: layer 0 is in gated_norm_mla_layers too"),
    ({"model_type": "moshi"}, {"ffn_dim": 7}, r"ffn_dim: must be an even whole number of at least 2, got 7"),
    ({"model_type": "moshi"}, {"ffn_dim": 0}, r"ffn_dim: must be an even whole number of at least 2, got 0"),
    (XLNET_FLAT, {"relative_segment_attention_layers": [2]},
     r"relative_segment_attention_layers: layer 2 is outside 0..1"),
    (XLNET_FLAT, {"relative_segment_attention_layers": [0], "conv_layers": [0], "conv_L_cache": 3},
     r"relative_segment_attention_layers: layer 0 is in conv_layers too"),
    (XLNET_FLAT, {"relative_segment_attention_layers": [0], "norm_placement": "pre"},
     r"relative_segment_attention_layers: its layers hold their own norms: needs norm_placement 'none'"),
    (XLNET_FLAT, {"relative_segment_attention_layers": [0, 1], "layers_without_ffn": [0]},
     r"relative_segment_attention_layers: its layers hold their own feed-forward: layer 1 must be in layers_"),
    (LATENT, {"norm_placement": "pre", "hyper_gate_beside_attention": True},
     r"hc_mult: required with hyper_gate_beside_attention \(the residual streams\)"),
    (LATENT, {"norm_placement": "pre", "hyper_gate_beside_attention": True, "hc_mult": 0},
     r"hc_mult: must be positive, got 0"),
    (LATENT, {"norm_placement": "pre", "hyper_gate_layers": [0], "hc_mult": 2},
     r"hyper_gate_layers: the kind sits beside the attention only: set hyper_gate_beside_attention instead"),
    (FLAT, {"hyper_gate_beside_attention": True, "hc_mult": 2},
     r"v_head_dim: required with hyper_gate_beside_attention \(the gate's width is heads × v_head_dim\)"),
    (AXK2, {"gated_norm_rank": 0}, r"gated_norm_rank: must be positive, got 0"),
    (AXK2, {"gated_norm_rank": "16"}, r"gated_norm_rank: must be a whole number, got .16."),
])
def test_bad_mixer_keys_are_refused_in_one_line_naming_the_key(config, changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**config, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("config", [('{"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2, '
                                     '"num_attention_heads": 2, "intermediate_size": 32, '
                                     '"gate_bias_attention_layers": [0]}'),
                                    '{"model_type": "axk2", "gated_norm_rank": 0}',
                                    '{"model_type": "moshi", "ffn_dim": 7}'])
def test_a_bad_mixer_key_exits_2_in_one_line(cli, tmp_path, config):
    path = tmp_path / "config.json"
    path.write_text(config)
    code, _, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0


@pytest.mark.skipif(not CPMANT_LANDED, reason="CPM-Ant needs Naming.relative_attention_bias_raw (the set M patch)")
@pytest.mark.parametrize(("changes", "message"), [
    ({"prompt_types": -1}, r"prompt_types: must be a whole number of zero or more, got -1"),
    ({"segment_types": 2.5}, r"segment_types: must be a whole number, got 2.5"),
    ({"prompt_length": 2.5}, r"prompt_length: must be a whole number of zero or more, got 2.5"),
    ({"position_bias_num_buckets": "512"}, r"position_bias_num_buckets: must be a whole number of zero or more"),
])
def test_bad_cpmant_sizes_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**CPMANT, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.skipif(not XLNET_LANDED, reason="XLNet needs Naming.mask_embedding (the set M patch)")
def test_an_xlnet_head_width_other_than_d_model_over_n_head_is_refused_in_one_line():
    with pytest.raises(ArchitectureError, match=r"d_head: 32 is not d_model // n_head = 64 \(XLNetConfig refuses it\)"):
        paramledger.load({"model_type": "xlnet", "d_head": 32})
