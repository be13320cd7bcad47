"""Set DV4 (issue #15): DeepSeek-V4 beyond tests/test_families.py's tensor-by-tensor check against transformers
5.24.0: the cache it holds after a real forward pass (a step function of the context: the window's keys, the
compressed entries, the tokens not yet compressed, CSA's overlap), byte for byte, at several lengths, prefilled and
decoded; a decoded token's FLOPs against torch's count; and the refusals of the keys the family reads (one line naming the key, exit status 2)."""

from __future__ import annotations

import pytest
from _family_configs_dv4 import deepseek_v4
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_hybrids import _model
from test_kvcache import _cache_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache

torch = pytest.importorskip("torch")

SLIDING, CSA, HCA = "sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"
V4 = {"model_type": "deepseek_v4", "vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 4,
      "num_attention_heads": 2, "head_dim": 16, "q_lora_rank": 8, "o_groups": 2, "o_lora_rank": 4,
      "n_routed_experts": 3, "num_experts_per_tok": 2, "moe_intermediate_size": 8, "index_n_heads": 2,
      "index_head_dim": 8, "index_topk": 3, "sliding_window": 4, "hc_mult": 2,
      "compress_rates": {CSA: 2, HCA: 3}, "layer_types": [SLIDING, HCA, CSA, CSA]}
BATCH = 2


def _tokens(model, prompt: int, decoded: int = 0):
    """The prompt, then ``decoded`` tokens one at a time, each passing on the cache the model returned."""
    generator = torch.Generator().manual_seed(1)
    cache = None
    with torch.no_grad():
        for length in (prompt,) + (1,) * decoded:
            ids = torch.randint(0, model.config.vocab_size, (BATCH, length), generator=generator)
            cache = model(ids, use_cache=True, cache=cache).cache
    return cache


@pytest.fixture(scope="module")
def v4_model():
    return _model(V4)


@pytest.mark.parametrize("tokens", [1, 2, 3, 4, 5, 6, 7, 9, 13])
def test_the_cache_after_a_prompt_equals_what_transformers_holds(v4_model, tokens):
    """Each layer type at each step of its rates (2 and 3) and around its window (4): below, at and past them."""
    ours = kv_cache(paramledger.load(V4), context=tokens, batch=BATCH, dtype="fp32")
    assert ours.bytes == _cache_bytes(_tokens(v4_model, tokens)) > 0


@pytest.mark.parametrize(("prompt", "decoded"), [(1, 6), (3, 4), (5, 3), (6, 1)])
def test_the_cache_after_decoding_equals_what_transformers_holds(v4_model, prompt, decoded):
    """Decoded one token at a time, windows closing between steps (the overlap carried across calls)."""
    ours = kv_cache(paramledger.load(V4), context=prompt + decoded, batch=BATCH, dtype="fp32")
    assert ours.bytes == _cache_bytes(_tokens(v4_model, prompt, decoded))


@pytest.mark.parametrize("tokens", [1, 2, 7])
def test_a_bf16_models_cache_holds_the_overlap_gate_in_float32(tokens):
    """Loaded at bf16, transformers keeps position_bias in float32 (_keep_in_fp32_modules_strict): CSA's overlap
    gate, the gate plus it, is float32 in the cache; every other value bf16."""
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    config = hf_config(V4)
    config._experts_implementation = "eager"
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16).eval()
    ours = kv_cache(paramledger.load(V4), context=tokens, batch=BATCH, dtype="bf16")
    assert ours.bytes == _cache_bytes(_tokens(model, tokens))


def test_the_cache_is_a_step_function_not_values_per_token():
    """At 9 tokens (window 4: 3 held) per sequence: the sliding layer keeps keys and values of 16 (2 × 16 × 3); the HCA
    layer (rate 3) its keys once (16 × 3), 3 entries and no pending token; each CSA layer (rate 2) its keys, 4 entries,
    one pending token's kv and gate at 2 × 16, the overlap (2 × 2 × 16), and its indexer's at 8 wide."""
    cache = kv_cache(paramledger.load(V4), context=9, batch=1, dtype="fp32")
    sliding, hca = 2 * 16 * 3, 16 * 3 + 3 * 16
    csa = 16 * 3 + (4 * 16 + 2 * 32 + 2 * 2 * 16) + (4 * 8 + 2 * 16 + 2 * 2 * 8)
    assert cache.values == sliding + hca + 2 * csa
    assert cache.values_per_token == 2 * 16 + 3 * 16  # the window's keys alone
    assert "compressed entries" in cache.definition


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=deepseek_v4(), tokens=st.integers(1, 12), decoded=st.integers(0, 2))
def test_the_cache_on_random_configs_equals_what_transformers_holds(config, tokens, decoded):
    # rates of 128 (the legacy ratios') hold nothing at these lengths but their pending tokens: counted all the same
    model = _model(config)
    try:
        cache = _tokens(model, tokens, decoded)
    except (RuntimeError, IndexError):  # a random config transformers builds but cannot run
        assume(False)
    ours = kv_cache(paramledger.load(config), context=tokens + decoded, batch=BATCH, dtype="fp32")
    assert ours.bytes == _cache_bytes(cache)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=deepseek_v4(), context=st.integers(2, 12))
def test_a_decoded_tokens_flops_on_random_configs_equal_torchs_count(config, context):
    """One token decoded after context - 1: the weights, the window's attention, the streams' comb mixing, the
    attention over every compressed entry and the indexer's scores, as torch's FlopCounterMode counts them."""
    from torch.utils.flop_counter import FlopCounterMode

    from paramledger.compute import forward_flops_per_token

    model = _model(config).requires_grad_(False)
    ids = torch.randint(0, config["vocab_size"], (1, context), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        cache = model(ids[:, :-1], use_cache=True).cache
        with FlopCounterMode(display=False) as counter:
            model(ids[:, -1:], cache=cache, use_cache=True)
    ours = forward_flops_per_token(paramledger.inventory(paramledger.load(config)), context)
    assert counter.get_total_flops() == ours.total


def test_a_config_in_the_releases_legacy_keys_matches_transformers_tensor_by_tensor():
    """The keys the released configs are quoted with (no verbatim config.json found to bundle): per-layer
    compress_ratios, longer than the layers (the MTP layer's), num_hash_layers, qk_rope_head_dim, a flat yarn
    rope_scaling, expert_dtype; at full size, on the meta device."""
    from test_families import assert_matches_reference

    assert_matches_reference({
        "model_type": "deepseek_v4", "compress_ratios": [0, 0] + [4, 128] * 20 + [4, 0], "num_hash_layers": 3,
        "qk_rope_head_dim": 64, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 16, "type": "yarn",
                                                 "original_max_position_embeddings": 65536},
        "expert_dtype": "fp4", "topk_method": "noaux_tc", "compress_rope_theta": 160000,
        "num_nextn_predict_layers": 1})


def test_every_other_family_keeps_values_per_token_times_tokens():
    """The protocol's default: a cache that grows by the token says nothing more (no note, no sequence figure)."""
    cache = kv_cache(paramledger.load("seed-1.1b"), context=100, batch=1, dtype="fp16")
    assert all(layer.sequence_values is None for layer, _ in cache.runs)
    assert cache.values == cache.values_per_token * 100


@pytest.mark.parametrize(("changes", "message"), [
    ({"layer_types": [SLIDING, "full_attention", CSA, CSA]}, r"layer_types: must list one of sliding_attention, "),
    ({"layer_types": [SLIDING]}, r"layer_types: must list .* each of the 4 layers"),
    ({"layer_types": None, "compress_ratios": [0, 8, 4, 4]}, r"compress_ratios: must list 0, 4 or 128 for each "),
    ({"layer_types": None, "compress_ratios": [0, 4]}, r"compress_ratios: must list .* each of the 4 layers"),
    ({"mlp_layer_types": ["moe", "dense", "moe", "moe"]}, r"mlp_layer_types: must list one of hash_moe, moe "),
    ({"num_hash_layers": -1}, r"num_hash_layers: must be a whole number from 0, got -1"),
    ({"compress_rates": {CSA: 2}}, r"compress_rates: gives no rate for the heavily_compressed_attention layers"),
    ({"compress_rates": [2, 3]}, r"compress_rates: must map a layer type to its rate"),
    ({"compress_rates": {CSA: 0, HCA: 3}}, r"compress_rate_csa: must be positive, got 0"),
    ({"sliding_window": None}, r"sliding_window: must be set: every DeepSeek-V4 layer attends within its window"),
    ({"o_groups": 0}, r"o_groups: must be positive, got 0"),
    ({"o_lora_rank": None}, r"o_lora_rank: required with shared_kv_attention_layers"),
    ({"index_head_dim": None}, r"index_head_dim: required with shared_kv_attention_layers"),
    ({"hc_mult": 0}, r"hc_mult: must be positive, got 0"),
    ({"n_routed_experts": 0}, r"num_experts_per_tok: set without num_experts"),
    ({"rope_parameters": {"main": {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.5},
                          "compress": {"rope_type": "default", "rope_theta": 1e4}}},
     r"rope_parameters: the main and compress rotaries turn other shares of head_dim"),
])
def test_bad_deepseek_v4_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**V4, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("fields", "message"), [
    ({"o_groups": 2}, r"o_groups: set without shared_kv_attention_layers"),
    ({"hash_moe_layers": (0,)}, r"hash_moe_layers: set without shared_kv_attention_layers"),
    ({"shared_kv_attention_layers": (0,), "compressed_sparse_attention_layers": (1,), "num_hidden_layers": 2},
     r"compressed_sparse_attention_layers: layer 1 is not a shared_kv_attention layer"),
])
def test_the_flat_keys_are_refused_alone_in_one_line(fields, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.Architecture.from_mapping({"vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
                                               "num_attention_heads": 2, **fields})


def test_fit_refuses_a_compressing_cache_in_one_line(cli, tmp_path):
    """vLLM's paging of values per token is not DeepSeek-V4's cache: fit says so rather than a wrong figure."""
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "deepseek_v4", "num_hidden_layers": 2}')
    code, _, err = cli("fit", str(path), "--gpu", "H100", "--tp", "8")
    assert code == 2 and err.strip().count("\n") == 0 and "compressed entries" in err


def test_a_bad_deepseek_v4_key_exits_2_in_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "deepseek_v4", "compress_ratios": [0, 8]}')
    code, _, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0 and "compress_ratios" in err
