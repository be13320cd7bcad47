"""Set HR (issue "Every CausalLM type transformers ships"): HRM-Text beyond tests/test_families.py's tensor-by-tensor
check against transformers 5.24.0: z_L_init frozen where named_parameters() says requires_grad False, the KV cache
(a slot per cycle run) and the FLOPs of a decoded token (every run) against a real forward pass of a small random
model, the stacks' names, and the refusals of the keys the family and the design add (one line naming the key, exit
status 2)."""

from __future__ import annotations

import json

import pytest
from _family_configs_hr import hrm_text
from hypothesis import given, settings
from test_kvcache import _cache_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.compute import forward_flops_per_token
from paramledger.kvcache import kv_cache
from paramledger.naming import StackedLayers

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"model_type": "hrm_text", "vocab_size": 50, "hidden_size": 8, "intermediate_size": 12,
         "num_hidden_layers": 2, "num_attention_heads": 2, "head_dim": 4, "attention_bias": True}
BATCH, TOKENS = 2, 7


def _model(config: dict):
    hf = transformers.HrmTextConfig(**{key: value for key, value in config.items() if key != "model_type"})
    torch.manual_seed(0)
    return transformers.AutoModelForCausalLM.from_config(hf, attn_implementation="eager").eval()


def _cache_and_flops(config: dict) -> tuple[int, int]:
    """Bytes of transformers' DynamicCache after a prefill of TOKENS tokens (BATCH sequences), and the FLOPs
    FlopCounterMode counts for one decoded token after TOKENS - 1 (one sequence)."""
    from torch.utils.flop_counter import FlopCounterMode

    model = _model(config).requires_grad_(False)
    ids = torch.randint(0, config["vocab_size"], (BATCH, TOKENS), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(ids, use_cache=True).cache
        prompt = model(ids[:1, :-1], use_cache=True).cache
        with FlopCounterMode(display=False) as counter:
            model(ids[:1, -1:], cache=prompt, use_cache=True)
    return _cache_bytes(cache), counter.get_total_flops()


def _ours(config: dict) -> tuple[int, int]:
    arch = paramledger.load(config)
    flops = forward_flops_per_token(paramledger.inventory(arch), TOKENS).total
    return kv_cache(arch, TOKENS, BATCH, "fp32").bytes, flops


@pytest.mark.parametrize("changes", [{}, {"H_cycles": 3, "L_cycles": 1, "num_hidden_layers": 3}, {"L_cycles": 0},
                                     {"H_cycles": 0}, {"num_layers_per_stack": 2, "num_hidden_layers": 16}],
                         ids=["defaults", "cycles", "no_L_runs", "no_runs", "saved"])
def test_the_cache_holds_a_slot_per_run_and_the_flops_count_every_run(changes):
    """HrmTextModel.forward: L_module's layers run H_cycles × L_cycles times a token, H_module's H_cycles times,
    each run caching in its own slot (cycle_offset) and multiplying by the layer's weights."""
    config = {**SMALL, **changes}
    assert _ours(config) == _cache_and_flops(config)


def test_the_defaults_cache_128_slots_of_multi_head_keys_and_values():
    """16 layers a stack × 2 H-cycles × (3 L-cycles + 1): 128 slots of 2 × 12 heads × 128."""
    arch = paramledger.load({"model_type": "hrm_text"})
    assert paramledger.inventory(arch).total == 1_447_822_848
    assert kv_cache(arch, 1, 1, "bf16").values_per_token == 128 * 2 * 12 * 128
    assert arch.num_hidden_layers == 32 and arch.layer_passes == (6,) * 16 + (2,) * 16


@pytest.mark.slow  # a real model per example
@settings(max_examples=25, deadline=None)
@given(config=hrm_text())
def test_the_cache_and_flops_on_random_configs_equal_transformers(config):
    assert _ours(config) == _cache_and_flops(config)


@settings(max_examples=25, deadline=None)
@given(config=hrm_text())
def test_z_l_init_is_frozen_as_transformers_registers_it(config):
    """named_parameters() with requires_grad: only model.z_L_init is False, first; it is counted (frozen)."""
    with torch.device("meta"):
        model = _model(config)
    inv = paramledger.inventory(paramledger.load(config))
    assert [(t.name, t.shape, t.frozen) for t in inv.tensors] == [
        (name, tuple(p.shape), not p.requires_grad) for name, p in model.named_parameters()]
    assert inv.frozen == config["hidden_size"]


def test_layers_are_named_in_their_stack():
    layer = StackedLayers(("model.L_module.layers.{i}", "model.H_module.layers.{i}"), 3)
    assert [layer.format(i=i) for i in (0, 2, 3, 5)] == [
        "model.L_module.layers.0", "model.L_module.layers.2", "model.H_module.layers.0", "model.H_module.layers.2"]
    assert (layer + ".").format(i=4) == "model.H_module.layers.1." and layer.partition(".{i}")[0] == (
        "model.L_module.layers")


@pytest.mark.parametrize(("changes", "message"), [
    ({"H_cycles": -1}, "^config: H_cycles: must be a whole number, 0 or more, got -1$"),
    ({"L_cycles": "3"}, "^config: L_cycles: must be a whole number, 0 or more, got '3'$"),
    ({"num_layers_per_stack": 0}, "^config: num_layers_per_stack: must be a positive whole number, got 0$"),
    ({"num_hidden_layers": 6_000_000}, "^config: num_hidden_layers: gives 12,000,000 layers in its two stacks, "
                                       "beyond the bound of 10,000,000"),
])
def test_bad_stack_keys_are_refused_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load({**SMALL, **changes})


@pytest.mark.parametrize(("changes", "message"), [
    ({"layer_passes": (1,)}, "^config: layer_passes: has 1 entries for num_hidden_layers=4 \\(each layer's runs a "
                             "token\\)$"),
    ({"layer_passes": (1, 1, -1, 1)}, "^config: layer_passes: must be zero or more, got -1$"),
    ({"num_experts": 2, "num_experts_per_tok": 1, "moe_intermediate_size": 4},
     "^config: layer_passes: is built for dense FFNs, not with num_experts$"),
    ({"attention_output_gate": "none"}, "^config: biased_gate_attention_layers: needs attention_output_gate "
                                        "per_channel"),
    ({"qk_norm": "head"}, "^config: biased_gate_attention_layers: needs attention_output_gate per_channel, without "
                          "qk_norm"),
])
def test_bad_design_keys_are_refused_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(SMALL).replace(**changes)


def test_the_cli_refuses_in_one_line_with_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SMALL, "L_cycles": -2}))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == ""
    assert err.strip().endswith("L_cycles: must be a whole number, 0 or more, got -2") and err.count("\n") == 1
