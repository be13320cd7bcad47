"""Set HR: Qwen4-Exp's text decoder (qwen4_exp_text, without PLE) beyond tests/test_families.py's tensor-by-tensor
check against transformers 5.24.0: the cache (keys, values, the QSA indexer's raw key, the DeltaNet's state) and the
FLOPs of a decoded token (the indexer's block scores among them) against a real forward pass of a small random model,
and the refusals the family adds (one line naming the key, exit status 2)."""

from __future__ import annotations

import json

import pytest
from _family_configs_hr import qwen4_exp_text
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_compute import conv_fallback_flops
from test_kvcache import _cache_bytes, _state_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.compute import forward_flops_per_token
from paramledger.kvcache import kv_cache

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"model_type": "qwen4_exp_text", "vocab_size": 10, "hidden_size": 8, "num_hidden_layers": 2,
         "layer_types": ["linear_attention", "indexed_attention"], "num_attention_heads": 2, "num_key_value_heads": 1,
         "head_dim": 4, "linear_num_key_heads": 2, "linear_num_value_heads": 2, "linear_key_head_dim": 4,
         "linear_value_head_dim": 4, "moe_intermediate_size": 4, "shared_expert_intermediate_size": 4,
         "num_experts": 3, "num_experts_per_tok": 2, "hc_count": 2, "hc_lowrank": 3, "indexer_n_heads": 2,
         "indexer_kv_heads": 1, "indexer_head_dim": 4, "indexer_budget": 4, "indexer_compress_ratio": 2}


def _model(config: dict):
    hf = transformers.Qwen4ExpTextConfig(**{key: value for key, value in config.items() if key != "model_type"})
    torch.manual_seed(0)
    return transformers.AutoModelForCausalLM.from_config(hf, attn_implementation="eager",
                                                         experts_implementation="eager").eval().requires_grad_(False)


def _measured(config: dict, tokens: int) -> tuple[int, int, int]:
    """Bytes of keys and values (and indexer keys), bytes of fixed state after a prefill of ``tokens`` tokens (two
    sequences), and FlopCounterMode's FLOPs of one token decoded after tokens - 1 (one sequence)."""
    from torch.utils.flop_counter import FlopCounterMode

    model = _model(config)
    ids = torch.randint(0, config["vocab_size"], (2, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(ids, use_cache=True).cache
        prompt = model(ids[:1, :-1], use_cache=True).cache
        with FlopCounterMode(display=False) as counter:
            model(ids[:1, -1:], cache=prompt, use_cache=True)
    return _cache_bytes(cache), _state_bytes(cache), counter.get_total_flops()


def _ours(config: dict, tokens: int) -> tuple[int, int, int]:
    arch = paramledger.load(config)
    cache = kv_cache(arch, tokens, 2, "fp32")
    flops = forward_flops_per_token(paramledger.inventory(arch), tokens).total + conv_fallback_flops(arch)
    return cache.bytes, cache.state_bytes, flops


@pytest.mark.parametrize("tokens", [3, 5, 9, 12])  # 1, 2, 4 and 6 whole blocks of 2 keys; the budget is 4 tokens
def test_the_cache_and_flops_equal_what_transformers_holds_and_counts(tokens):
    """Keys, values and the indexer's raw key a token (DynamicIndexedLayer), the DeltaNet's conv and recurrent state;
    the indexer's heads scored against every whole block of compressed keys (2 × 2 heads × 4 per block)."""
    assert _ours(SMALL, tokens) == _measured(SMALL, tokens)


def test_the_defaults_count_as_transformers_builds_them():
    """The class defaults with the QSA sizes reference.DEFAULTS_NEED gives (docs/notes/coverage-set-c.md's figure)."""
    from paramledger.reference import default_config

    assert paramledger.inventory(paramledger.load(default_config("qwen4_exp_text"))).total == 67_410_763_392


@pytest.mark.slow  # a real model per example
@settings(max_examples=15, deadline=None)
@given(config=qwen4_exp_text(), data=st.data())
def test_the_cache_and_flops_on_random_configs_equal_transformers(config, data):
    tokens = data.draw(st.integers(2, 12), label="tokens")
    try:
        measured = _measured(config, tokens)
    except (RuntimeError, TypeError, ValueError, IndexError, StopIteration):
        assume(False)  # configs transformers builds but cannot run (every layer linear: no attention to date the cache)
    assert _ours(config, tokens) == measured


@pytest.mark.parametrize(("changes", "message"), [
    ({"ple_layer_ids": [2], "eos_token_id": 1},  # (PLE is counted: tests/test_decoders_qx.py)
     "^config: ple_layer_ids: layer 2 is not a linear_attention layer"),
    ({"indexer_kv_heads": 2}, "^config: indexer_kv_heads: must be 1 \\(Qwen4-Exp's QSA\\), got 2$"),
    ({"indexer_budget": 5}, "^config: indexer_budget: 5 is not a multiple of indexer_compress_ratio=2$"),
    ({"indexer_head_dim": None}, "^config: indexer_head_dim: is required with the other QSA indexer sizes"),
    ({"indexer_head_dim": 2}, "^config: indexer_head_dim: 2 is narrower than the rotary's 4 channels"),
    ({"indexer_n_heads": 0}, "^config: indexer_n_heads: must be a positive whole number, got 0$"),
    ({key: None for key in ("indexer_n_heads", "indexer_kv_heads", "indexer_head_dim", "indexer_budget",
                            "indexer_compress_ratio")},
     "^config: indexer_n_heads: missing \\(required: transformers 5.24.0 cannot build this family without it\\)$"),
    ({"hc_count": 1}, "^config: hc_count: must be more than 1, got 1$"),
    ({"hc_lowrank": 0}, "hc_lowrank"),
    ({"layer_types": ["linear_attention", "sliding_attention"]}, "^config: layer_types: 'sliding_attention' is not "
                                                                 "linear_attention or indexed_attention"),
    ({"layer_types": ["linear_attention"]}, "^config: layer_types: must list one entry for each of the 2 layers"),
])
def test_bad_keys_are_refused_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load({**SMALL, **changes})


def test_a_design_without_the_hyper_connections_rank_is_refused():
    with pytest.raises(ArchitectureError, match="^config: hc_lowrank: is required with the other"):
        paramledger.load(SMALL).replace(hc_lowrank=None)


def test_the_cli_refuses_in_one_line_with_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SMALL, "ple_layer_ids": [1]}))  # (no eos_token_id for the n-gram context)
    status, out, err = cli("count", str(path))
    assert status == 2 and out == ""
    assert err.strip().endswith("must be set with ple_layer_ids (transformers 5.24.0 refuses none)")
    assert err.count("\n") == 1
