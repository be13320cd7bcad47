"""The state-space and hybrid families on the composable layers: their caches against transformers' own
after a real forward pass, their memory figures, and one-line refusals for the keys they bring."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache

from test_kvcache import _cache_bytes, _run, _state_bytes

ATTENTION = {"num_attention_heads": 4, "num_key_value_heads": 2}
# One small config per family with both kinds of layer where it has two (a cache of Mamba layers alone
# cannot run in transformers 5.24.0: get_seq_length wants an attention layer; docs/notes/hybrids-a.md).
SMALL = {
    "mamba": {"vocab_size": 64, "hidden_size": 24, "num_hidden_layers": 2, "state_size": 5, "conv_kernel": 3},
    "mamba2": {"vocab_size": 64, "hidden_size": 24, "num_hidden_layers": 2, "state_size": 5, "conv_kernel": 3,
               "num_heads": 6, "head_dim": 8, "n_groups": 2},
    "bamba": {"vocab_size": 64, "hidden_size": 24, "num_hidden_layers": 3, "intermediate_size": 32, **ATTENTION,
              "attn_layer_indices": [1], "mamba_n_heads": 6, "mamba_n_groups": 2, "mamba_d_state": 5,
              "mamba_d_conv": 3},
    "nemotron_h": {"vocab_size": 64, "hidden_size": 24, "hybrid_override_pattern": "M*-E", **ATTENTION,
                   "head_dim": 5, "intermediate_size": 16, "mamba_num_heads": 6, "mamba_head_dim": 3, "n_groups": 2,
                   "ssm_state_size": 5, "conv_kernel": 3, "n_routed_experts": 4, "num_experts_per_tok": 2,
                   "moe_intermediate_size": 8, "moe_shared_expert_intermediate_size": 8},
    "granitemoehybrid": {"vocab_size": 64, "hidden_size": 24, "num_hidden_layers": 3, "intermediate_size": 16,
                         **ATTENTION, "layer_types": ["mamba", "attention", "mamba"], "num_local_experts": 4,
                         "shared_intermediate_size": 8, "mamba_n_heads": 6, "mamba_n_groups": 2,
                         "mamba_d_state": 5, "mamba_d_conv": 3},
    "jamba": {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 4, "intermediate_size": 32, **ATTENTION,
              "attn_layer_period": 2, "attn_layer_offset": 1, "num_experts": 4, "mamba_d_state": 4,
              "mamba_d_conv": 4},
    "falcon_h1": {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2, "intermediate_size": 32, **ATTENTION,
                  "mamba_d_ssm": 24, "mamba_n_heads": 4, "mamba_n_groups": 2, "mamba_d_state": 4, "mamba_d_conv": 4,
                  "mamba_rms_norm": True},
    "lfm2": {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 3, "intermediate_size": 48, **ATTENTION,
             "layer_types": ["conv", "full_attention", "conv"], "conv_L_cache": 3, "block_multiple_of": 8},
}


def _model(config: dict):
    import torch
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    cfg = hf_config(config)
    cfg._experts_implementation = "eager"  # tiny experts: grouped_mm wants 16-byte strides
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(cfg, dtype=torch.float32).eval()


@pytest.mark.parametrize("model_type", sorted(SMALL))
def test_a_hybrids_cache_and_fixed_state_equal_what_transformers_holds(model_type):
    """Keys and values of the attention layers, and the conv and SSM states of the recurrent ones, byte
    for byte as transformers' DynamicCache holds them after a prefill of 5 tokens and 2 decoded."""
    pytest.importorskip("transformers")
    config = {"model_type": model_type, "pad_token_id": 0, **SMALL[model_type]}
    arch = paramledger.load(config)
    cache = _run(_model(config), batch=2, tokens=5, decode_steps=2)
    ours = kv_cache(arch, context=7, batch=2, dtype="fp32")
    assert ours.bytes == _cache_bytes(cache)
    assert ours.state_bytes == _state_bytes(cache) > 0


def test_memory_json_reports_the_recurrent_state_apart(cli):
    """Mamba-Codestral: 64 Mamba-2 layers, each a conv state (8192 + 2 × 8 × 128 channels × 4 taps) and an
    SSM state (128 heads × 64 × 128), at bf16."""
    code, out, _ = cli("memory", "Mamba-Codestral-7B-v0.1", "--context", "1024", "--json")
    report = json.loads(out)
    per_layer = (8192 + 2 * 8 * 128) * 4 + 128 * 64 * 128
    assert report["recurrent_state_values"] == 64 * per_layer
    assert report["recurrent_state_bytes"] == 2 * 64 * per_layer
    assert report["recurrent_state_layers"] == {"recurrent (Mamba-2)": 64}
    assert report["kv_cache_bytes"] == 0
    assert report["total_bytes"] == report["weights_bytes"] + report["recurrent_state_bytes"]


# Bundled real releases of these families, each with the total transformers 5.24.0 builds from the
# bundled config on the meta device (sum of numel over model.parameters(), tied tables once).
RELEASES = [
    ("AI21-Jamba-1.5-Mini", 51_570_323_328),
    ("Mamba-Codestral-7B-v0.1", 7_285_403_648),
    ("mamba-2.8b-hf", 2_768_345_600),
    ("falcon-mamba-7b", 7_272_665_088),
    # nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 (nemotron_h): 23 Mamba-2, 23 MoE (128 routed experts
    # and a shared one), 6 attention layers; 378 tensors.
    ("NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 31_577_937_344),
]


@pytest.mark.parametrize(("name", "total"), RELEASES)
def test_a_bundled_hybrid_release_counts_what_transformers_builds(name, total):
    assert paramledger.inventory(name).total == total


def test_a_hybrid_moes_active_parameters_read_only_the_routed_experts_a_token_uses():
    config = {"model_type": "nemotron_h", **SMALL["nemotron_h"]}
    inv = paramledger.inventory(paramledger.load(config))
    experts = sum(t.count for t in inv.tensors if t.experts)
    assert inv.active == inv.total - experts + experts * 2 // 4  # 2 of 4 experts per token


def test_the_family_table_names_each_mixer_with_its_layers():
    from paramledger.family_table import attention_cell

    assert attention_cell(paramledger.load({"model_type": "mamba2", **SMALL["mamba2"]})) == "Mamba-2"
    cell = attention_cell(paramledger.load({"model_type": "nemotron_h", **SMALL["nemotron_h"]}))
    assert cell == "Mamba-2 on 1 state-space, GQA (2×) on 1 full, no mixer on 2 no mixer"


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "nemotron_h", "hybrid_override_pattern": "M*X-"},
     r"hybrid_override_pattern: 'X' is not one of M, \*, - or E"),
    ({"model_type": "granitemoehybrid", "num_hidden_layers": 3, "layer_types": ["mamba", "attention"]},
     "layer_types: must list one type for each of the 3 layers"),
    ({"model_type": "mamba", "conv_kernel": 0}, "conv_kernel: must be positive, got 0"),
    ({"model_type": "lfm2", "conv_L_cache": 0, "full_attn_idxs": [1]}, "conv_L_cache: must be positive, got 0"),
    ({"model_type": "mamba2", "n_groups": 3}, "n_groups: 3 does not divide the Mamba width 8192"),
    ({"model_type": "jamba", "attn_layer_period": 4, "attn_layer_offset": 4},
     "attn_layer_offset: 4 must be a whole number below attn_layer_period=4"),
    ({"model_type": "bamba", "mamba_d_head": 7}, "mamba_d_head: 7 × mamba_n_heads=128 is not the Mamba width"),
])
def test_bad_hybrid_keys_are_refused_in_one_line_naming_the_key(config, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load(config)
    assert "\n" not in str(caught.value)


def test_mamba_layers_past_the_depth_are_refused():
    with pytest.raises(ArchitectureError, match=r"mamba_layers: layer 4 is outside 0\.\.3"):
        paramledger.load("seed-baseline", num_hidden_layers=4, mamba_layers=[4], mamba_d_state=4, mamba_d_conv=4,
                         mamba_n_heads=8)


def test_a_layer_named_by_two_mixers_is_refused():
    with pytest.raises(ArchitectureError, match=r"conv_layers: layer 1 is in mamba_layers too"):
        paramledger.load("seed-baseline", mamba_layers=[1], conv_layers=[1], conv_L_cache=3, mamba_d_state=4,
                         mamba_d_conv=4, mamba_n_heads=8)


def test_a_design_can_hold_mamba_layers_through_its_flat_keys():
    """A spec's flat keys reach the parts: two Mamba-2 layers of six in the teaching design."""
    plain = paramledger.inventory("seed-baseline")
    mixed = paramledger.inventory(paramledger.load("seed-baseline", mamba_layers=[1, 4], mamba_d_state=16,
                                                   mamba_d_conv=4, mamba_n_heads=8))
    attention = sum(t.count for t in plain.tensors if t.layer == 1 and t.component == "attention")
    inner, conv = 512, 512 + 2 * 16
    mamba = (3 * 8 + conv * 4 + conv) + (inner + conv + 8) * 256 + inner + 256 * inner
    assert mixed.total == plain.total + 2 * (mamba - attention)


def test_sandwich_norms_on_a_family_without_their_names_are_one_line(cli):
    code, out, err = cli("count", "Llama-2-7b-hf", "--set", "norm_placement=sandwich")
    assert code == 2 and not out
    assert err.count("\n") == 1 and "model_type: llama names two tensors alike" in err


def test_every_part_is_made_with_every_field_and_answers_the_protocol():
    """design/flat.py makes parts with tuple.__new__ (no defaults filled in): each must hold all its fields,
    and each kind answers every question of parts/_protocol.py; every family at its class defaults."""
    from paramledger import families
    from paramledger.design.flat import layer_plan
    from paramledger.parts._protocol import Part
    from paramledger.reference import default_config

    questions = [name for name in vars(Part) if not name.startswith("_")]
    kinds = set()
    for model_type in families.supported():
        for layer, _ in layer_plan(paramledger.load(default_config(model_type))).kinds:
            for part in layer.parts:
                kinds.add(type(part).__name__)
                assert len(part) == len(type(part)._fields), (model_type, type(part).__name__)
                assert all(callable(getattr(part, question)) for question in questions), type(part).__name__
    assert {"Attention", "LatentAttention", "GatedDeltaNet", "Mamba", "Mamba2", "ShortConv", "DenseFFN", "Experts",
            "BlockNorms", "Gemma3nExtras"} <= kinds


def test_lora_on_a_mambas_out_proj_is_refused_as_peft_refuses_it(cli):
    """PEFT 0.21.2 refuses LoRA on out_proj and conv1d in Mamba-based models (tuners_utils.py
    _check_lora_target_modules_mamba); all-linear reaches out_proj."""
    code, out, err = cli("count", "mamba-2.8b-hf", "--lora", "r=8,target_modules=all-linear")
    assert code == 2 and not out and err.count("\n") == 1
    assert "Module 'out_proj' is incompatible with Mamba-based models (model_type='mamba')" in err
    code, out, _ = cli("count", "mamba-2.8b-hf", "--lora", "r=8,target_modules=in_proj+x_proj", "--json")
    assert code == 0 and json.loads(out)["trainable"] == 64 * 8 * ((2560 + 2 * 5120) + (5120 + 160 + 32))


def test_dense_layer_indices_on_a_design_without_experts_change_nothing():
    """mlp_only_layers means nothing without num_experts (and goes unchecked): the plan must not index by it."""
    assert paramledger.inventory(paramledger.load("seed-baseline", mlp_only_layers=[6, 99])).total == \
        paramledger.inventory("seed-baseline").total


# Configs whose layer pattern is a period (Jamba's attention and expert periods), an every-layer mixer
# (Mamba, Falcon-Mamba) or a first-k rule (DeepSeek-V3's first_k_dense_replace): transformers builds the
# config at any depth, so `--set num_hidden_layers` must give what it builds at that depth.
@pytest.mark.parametrize("name", ["AI21-Jamba-1.5-Mini", "mamba-2.8b-hf", "falcon-mamba-7b", "DeepSeek-V3"])
@pytest.mark.parametrize("layers", [5, 70])
def test_a_new_depth_repeats_the_layer_pattern_as_transformers_builds_it(name, layers):
    from paramledger import registry
    from paramledger.reference import build_reference

    config = registry.get(name).config
    config.pop("quantization_config", None)
    config["num_hidden_layers"] = layers
    from paramledger.reference import diff

    reference = build_reference(config)
    ours = paramledger.inventory(paramledger.load(name).replace(num_hidden_layers=layers))
    assert diff(ours, reference).matches and ours.total == reference.total
