"""Set X (issue #15): the decoders counted here beyond tests/test_families.py's tensor-by-tensor check against
transformers 5.24.0: the cache and fixed state each holds after a real forward pass of a small random model, byte for
byte, and the refusals of the keys the families add (one line naming the key, exit status 2)."""

from __future__ import annotations

import pytest
from _family_configs_x import longcat_flash, zaya
from hypothesis import assume, given, settings
from test_hybrids import _model
from test_kvcache import _cache_bytes, _state_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache

torch = pytest.importorskip("torch")

BATCH, PROMPT, DECODED = 2, 5, 2
ZAYA = {"model_type": "zaya", "pad_token_id": 0, "vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 4, "moe_intermediate_size": 8,
        "num_experts": 3, "router_hidden_size": 6, "cca_time0": 3, "cca_time1": 2}
LONGCAT = {"model_type": "longcat_flash", "vocab_size": 64, "hidden_size": 16, "num_layers": 2,
           "num_attention_heads": 2, "ffn_hidden_size": 24, "q_lora_rank": 6, "kv_lora_rank": 8,
           "qk_nope_head_dim": 4, "qk_rope_head_dim": 2, "head_dim": 2, "v_head_dim": 4, "n_routed_experts": 3,
           "zero_expert_num": 2, "moe_topk": 2, "expert_ffn_hidden_size": 8}
ZAYA_SLIDING = {**ZAYA, "layer_types": ["hybrid", "hybrid_sliding", "hybrid_sliding"], "sliding_window": 3}


def _decode(model):
    """The prompt, then DECODED tokens one at a time, each passing on the cache the model returned."""
    generator = torch.Generator().manual_seed(1)
    cache = None
    with torch.no_grad():
        for length in (PROMPT,) + (1,) * DECODED:
            ids = torch.randint(0, model.config.vocab_size, (BATCH, length), generator=generator)
            cache = model(ids, use_cache=True, cache=cache).cache
    return cache


def _ours(config: dict):
    return kv_cache(paramledger.load(config), context=PROMPT + DECODED, batch=BATCH, dtype="fp32")


@pytest.mark.parametrize("config", [ZAYA, ZAYA_SLIDING], ids=["hybrid", "hybrid_sliding"])
def test_zayas_cache_and_state_equal_what_transformers_holds(config):
    """Every layer's keys and values (the sliding ones within the window: LinearAttentionAndSlidingWindowAttention-
    Layer), and its convolution inputs and delayed value half (conv_states, recurrent_states)."""
    cache = _decode(_model(config))
    ours = _ours(config)
    assert ours.bytes == _cache_bytes(cache) > 0
    assert ours.state_bytes == _state_bytes(cache) > 0


@settings(max_examples=10, deadline=None)
@given(config=zaya())
def test_zayas_cache_on_random_configs_equals_what_transformers_holds(config):
    # a window of 1 keeps every token in transformers 5.24.0 ([-0:]); paramledger holds none, what it means
    # (kvcache.py's docstring)
    assume(config.get("sliding_window") != 1 or "hybrid_sliding" not in config.get("layer_types", ()))
    cache = _decode(_model({"model_type": "zaya", "pad_token_id": 0, **config}))
    ours = _ours({"model_type": "zaya", "pad_token_id": 0, **config})
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))


def test_longcat_flashs_cache_holds_both_sublayers_latents():
    """2 × num_layers cache layers (LongcatFlashConfig.num_hidden_layers), each the latent and the rotary key."""
    cache = _decode(_model(LONGCAT))
    ours = _ours(LONGCAT)
    assert len(cache.layers) == 4
    assert ours.bytes == _cache_bytes(cache) == 4 * BATCH * (PROMPT + DECODED) * (8 + 2) * 4


@settings(max_examples=10, deadline=None)
@given(config=longcat_flash())
def test_longcat_flashs_cache_on_random_configs_equals_what_transformers_holds(config):
    config = {"model_type": "longcat_flash", **config}
    assert _ours(config).bytes == _cache_bytes(_decode(_model(config)))


@pytest.mark.parametrize(("config", "changes", "message"), [
    (LONGCAT, {"qk_head_dim": 7}, r"qk_head_dim: 7 is not qk_nope_head_dim \+ qk_rope_head_dim = 6"),
    (LONGCAT, {"zero_expert_num": -1}, r"zero_expert_num: must be zero or more, got -1"),
    (LONGCAT, {"zero_expert_num": 0, "n_routed_experts": 0}, r"zero_expert_num: 0 beside no routed experts"),
    (LONGCAT, {"num_layers": 0}, r"num_layers: must be a positive whole number, got 0"),
    (LONGCAT, {"num_hidden_layers": 1}, r"num_hidden_layers: must be a whole number of 2 or more"),
    (LONGCAT, {"num_hidden_layers": 10**15}, r"num_hidden_layers: gives 500,000,000,000,000 layers, beyond the "),
    (LONGCAT, {"num_layers": 10**8}, r"num_layers: gives 100,000,000 layers, beyond the bound"),
    (LONGCAT, {"moe_topk": 0}, r"moe_topk: must be a positive whole number, got 0"),
    (LONGCAT, {"kv_lora_rank": None}, r"dual_sublayer_layers: holds multi-head latent attention"),
    (ZAYA, {"num_experts_per_tok": 2}, r"num_experts_per_tok: must be 1 in ZAYA, got 2 \(ZayaConfig"),
    (ZAYA, {"layer_types": ["hybrid", "full_attention", "hybrid"]}, r"layer_types: must list 'hybrid' or "),
    (ZAYA, {"layer_types": ["hybrid"]}, r"layer_types: must list .* each of the 3 layers"),
    (ZAYA, {"layer_types": ["hybrid", "hybrid_sliding", "hybrid"]}, r"sliding_window: required with a "),
    (ZAYA, {"cca_time0": 0}, r"cca_time0: must be positive, got 0"),
    (ZAYA, {"cca": True, "ffn_hidden_size": 16}, r"cca: is a key of ZAYA1's Megatron-style config"),
    (ZAYA, {"cca_time1": "two"}, r"cca_time1: "),
    (ZAYA, {"router_hidden_size": 0}, r"router_hidden_size: must be positive, got 0"),
    (ZAYA, {"num_experts": 0}, r"num_experts_per_tok: set without num_experts"),
    (ZAYA, {"num_key_value_heads": 3}, r"num_key_value_heads: 3 does not divide num_attention_heads=4"),
])
def test_bad_zaya_keys_are_refused_in_one_line_naming_the_key(config, changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**config, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("fields", "message"), [
    ({"cca_time0": 2, "cca_time1": 2}, r"cca_time0: set without cca_layers"),
    ({"cca_time1": 2}, r"cca_time1: set without cca_layers"),
    ({"cca_layers": (0,), "cca_time1": 2}, r"cca_time0: required with cca_layers"),
    ({"router_hidden_size": 4}, r"router_hidden_size: set without num_experts"),
])
def test_the_flat_keys_are_refused_alone_in_one_line(fields, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.Architecture.from_mapping({"vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
                                               "num_attention_heads": 2, **fields})


def test_a_bad_zaya_key_exits_2_in_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "zaya", "cca_time0": 0}')
    code, _, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0 and "cca_time0" in err


@pytest.mark.parametrize(("config", "message"), [
    (LONGCAT, r"dual_sublayer_layers: layer 0 holds an FFN beside the layer's own \(list it "),
])
def test_a_part_holding_its_own_ffns_refuses_a_layer_ffn_beside_them(config, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load(config).replace(layers_without_ffn=(1,))
    assert "\n" not in str(caught.value)
