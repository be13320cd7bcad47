"""Set "ink" (issue #15): Inkling's text decoder beyond tests/test_families.py's tensor-by-tensor check against
transformers 5.24.0: the keys, values and short-conv states its cache holds after a real forward pass of a small
random model, byte for byte, and the refusals of the keys the family adds (one line naming the key, exit status 2)."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_ink import inkling2_loop_text, inkling2_text, inkling_text
from hypothesis import assume, given, settings
from test_hybrids import _model
from test_kvcache import _cache_bytes, _state_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache

torch = pytest.importorskip("torch")

BATCH = 2
DROP = object()  # a key left out of the config
# full and sliding layers at their own sizes, dense and routed FFNs, a window shorter than the prompt
INKLING = {"model_type": "inkling_text", "pad_token_id": 0, "vocab_size": 64, "hidden_size": 16,
           "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 4,
           "swa_num_attention_heads": 2, "swa_num_key_value_heads": 1, "swa_head_dim": 6, "sliding_window_size": 4,
           "d_rel": 3, "rel_extent": 7, "conv_kernel_size": 3, "intermediate_size": 20, "moe_intermediate_size": 6,
           "n_routed_experts": 3, "n_shared_experts": 1, "num_experts_per_tok": 2,
           "mlp_layer_types": ["dense", "sparse", "sparse", "dense"],
           "layer_types": ["hybrid_sliding", "hybrid", "hybrid_sliding", "hybrid"]}


def _decode(model, prompt: int, decoded: int):
    """The prompt, then ``decoded`` tokens one at a time, each passing on the cache the model returned."""
    generator = torch.Generator().manual_seed(1)
    cache = None
    with torch.no_grad():
        for length in (prompt,) + (1,) * decoded:
            ids = torch.randint(0, model.config.vocab_size, (BATCH, length), generator=generator)
            cache = model(ids, use_cache=True, cache=cache).cache
    return cache


def _ours(config: dict, tokens: int):
    return kv_cache(paramledger.load(config), context=tokens, batch=BATCH, dtype="fp32")


@pytest.mark.parametrize(("prompt", "decoded"), [(2, 0), (3, 0), (6, 0), (5, 2), (2, 5)])
def test_inklings_cache_and_conv_states_equal_what_transformers_holds(prompt, decoded):
    """Keys and values (the sliding layers' within the window: LinearAttentionAndSlidingWindowAttentionLayer), and
    the four short convs' last conv_kernel_size inputs per layer (conv_states: k and v, then both sublayers')."""
    cache = _decode(_model(INKLING), prompt, decoded)
    ours = _ours(INKLING, prompt + decoded)
    assert ours.sliding_layers == 2
    assert ours.bytes == _cache_bytes(cache) > 0
    # k and v convs over each layer's kv heads × head_dim, attn and mlp convs over hidden, 3 taps, float32
    assert ours.state_bytes == _state_bytes(cache) == BATCH * 3 * 4 * (2 * (6 + 6 + 8 + 8) + 4 * 2 * 16)


@settings(max_examples=10, deadline=None)
@given(config=inkling_text())
def test_inklings_cache_on_random_configs_equals_what_transformers_holds(config):
    # transformers 5.24.0 builds but cannot run a router over no shared expert (InklingTopkRouter's sink), and a
    # window of 1 keeps every token there ([-0:]; paramledger holds none, what it means: kvcache.py's docstring)
    window = "sliding_window" if "sliding_window" in config else "sliding_window_size"
    config = {"model_type": "inkling_text", "pad_token_id": 0, **config,
              "n_shared_experts": max(1, config["n_shared_experts"]), window: max(2, config[window])}
    tokens = 5
    cache = _decode(_model(config), tokens, 2)
    ours = _ours(config, tokens + 2)
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))


@pytest.mark.parametrize(("changes", "message"), [
    ({"layer_types": ["hybrid", "full", "hybrid", "hybrid"]},
     r"layer_types: must list 'hybrid' or 'hybrid_sliding' for each of the 4 layers, got \['hybrid', 'full'"),
    ({"mlp_layer_types": ["dense"]}, r"mlp_layer_types: must list 'dense' or 'sparse' for each of the 4 layers"),
    ({"layer_types": None, "local_layer_ids": "x"}, r"local_layer_ids: must list layer indices, got 'x'"),
    ({"mlp_layer_types": None, "dense_mlp_idx": -1}, r"dense_mlp_idx: must be a whole number of 0 or more, got -1"),
    ({"n_routed_experts": 0}, r"n_routed_experts: must be a whole number of 1 or more, got 0"),
    ({"n_routed_experts": DROP, "num_local_experts": 0}, r"num_local_experts: must be a whole number of 1 or more"),
    ({"swa_num_attention_heads": 0}, r"swa_num_attention_heads: must be positive, got 0"),
    ({"swa_num_key_value_heads": 3, "swa_num_attention_heads": 4},
     r"swa_num_key_value_heads: 3 does not divide inkling_swa_num_attention_heads=4"),
    ({"swa_head_dim": None}, r"swa_head_dim: required with inkling_sliding_layers"),
    ({"d_rel": 0}, r"d_rel: must be positive, got 0"),
    ({"rel_extent": 0}, r"rel_extent: must be positive, got 0"),
    ({"conv_kernel_size": 0}, r"conv_kernel_size: must be positive, got 0"),
    ({"conv_kernel_size": None}, r"conv_kernel_size: required with "),
    ({"sliding_window_size": None}, r"sliding_window_size: required with inkling_sliding_layers"),
])
def test_bad_inkling_keys_are_refused_in_one_line_naming_the_key(changes, message):
    config = {key: value for key, value in {**INKLING, **changes}.items() if value is not DROP}
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load(config)
    assert "\n" not in str(caught.value)


def test_a_bad_inkling_key_exits_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({**INKLING, "d_rel": 0}), "d_rel: must be positive, got 0")


@pytest.mark.parametrize(("fields", "message"), [
    ({"d_rel": 2}, r"d_rel: set without inkling_attention_layers or inkling_sliding_layers"),
    ({"inkling_swa_head_dim": 2}, r"inkling_swa_head_dim: set without inkling_sliding_layers"),
    ({"inkling_attention_layers": (0,), "d_rel": 2, "rel_extent": 3},
     r"sconv_kernel_size: required with Inkling's attention layers"),
    ({"inkling_attention_layers": (0,), "d_rel": 2, "sconv_kernel_size": 2}, r"rel_extent: required with "),
])
def test_the_flat_keys_are_refused_alone_in_one_line(fields, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.Architecture.from_mapping({"vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
                                               "num_attention_heads": 2, **fields})


def test_the_mtp_layers_and_the_unpadded_head_change_no_count():
    """InklingForCausalLM builds no MTP layers (model.mtp.* is ignored on load) and keeps vocab_size head rows
    (unpadded_vocab_size drops logits only); its head is never tied, whatever tie_word_embeddings says."""
    plain = paramledger.inventory(paramledger.load(INKLING)).total
    extra = {"num_mtp_layers": 2, "mtp_local_layer_ids": [0], "unpadded_vocab_size": 60, "tie_word_embeddings": True}
    assert paramledger.inventory(paramledger.load({**INKLING, **extra})).total == plain


def test_a_config_spelled_as_the_release_spells_it_is_understood_whole():
    """The keys of thinkingmachines' text_config that transformers never reads (use_sconv, use_embed_norm, q_bias, ...)
    describe what it builds: understood, no note, and the count still transformers' (checkpoint spellings of the
    window, the kernel, the context and the dense width)."""
    from test_families import assert_matches_reference

    config = {key: value for key, value in INKLING.items() if key not in ("layer_types", "mlp_layer_types",
                                                                        "moe_intermediate_size")}
    config.update(local_layer_ids=[0, 2], dense_mlp_idx=1, dense_intermediate_size=24, model_max_length=64,
                  use_embed_norm=True, use_sconv=True, use_global_scale=True, use_gate_bias=True, q_bias=False,
                  o_bias=False, gate_activation="sigmoid", norm_after_topk=True, shared_expert_sink=True,
                  route_scale=8.0, logits_mup_width_multiplier=16.0, log_scaling_n_floor=128000,
                  final_logit_softcapping=None, torch_dtype="bfloat16")
    assert not [note for note in paramledger.load(config).notes if "use_" in note or "_bias" in note]
    assert_matches_reference(config)
    refused = paramledger.load({**config, "use_sconv": False}).notes  # a checkpoint transformers would not build
    assert [note for note in refused if "use_sconv" in note]


def test_the_conv_states_float32_at_a_16_bit_dtype_is_said_on_every_count():
    """transformers keeps the four convs' states in float32 at bfloat16 (twice what kv_cache prices at bf16): the
    count says so rather than price it."""
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    cfg = hf_config(INKLING)
    cfg._experts_implementation = "eager"
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16).eval()
    with torch.no_grad():
        cache = model(torch.randint(0, 64, (BATCH, 5)), use_cache=True).cache
    ours = kv_cache(paramledger.load(INKLING), context=5, batch=BATCH, dtype="bf16")
    assert ours.bytes == _cache_bytes(cache)
    assert 2 * ours.state_bytes == _state_bytes(cache)
    assert any("float32" in note for note in paramledger.load(INKLING).notes)


# Inkling 2: full layers with dynamic k/v convs, sliding ones with plain ones, layer 0 full, a head of 60 rows
INKLING2 = {"model_type": "inkling2_text", "pad_token_id": 0, "eos_token_id": 1, "vocab_size": 64,
            "unpadded_vocab_size": 60, "hidden_size": 16, "num_hidden_layers": 4, "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 4, "swa_num_attention_heads": 2, "swa_num_key_value_heads": 1,
            "swa_head_dim": 6, "sliding_window_size": 4, "d_rel": 3, "rel_extent": 7, "conv_kernel_size": 3,
            "intermediate_size": 6, "n_routed_experts": 3, "num_experts_per_tok": 2,
            "layer_types": ["hybrid", "hybrid_sliding", "hybrid_sliding", "hybrid"]}


@pytest.mark.parametrize(("prompt", "decoded"), [(2, 0), (6, 0), (5, 2), (2, 5)])
def test_inkling2s_cache_and_conv_states_equal_what_transformers_holds(prompt, decoded):
    cache = _decode(_model(INKLING2), prompt, decoded)
    ours = _ours(INKLING2, prompt + decoded)
    assert ours.sliding_layers == 2
    assert ours.bytes == _cache_bytes(cache) > 0
    assert ours.state_bytes == _state_bytes(cache) == BATCH * 3 * 4 * (2 * (6 + 6 + 8 + 8) + 4 * 2 * 16)


@settings(max_examples=10, deadline=None)
@given(config=inkling2_text())
def test_inkling2s_cache_on_random_configs_equals_what_transformers_holds(config):
    # a window of 1 keeps every token in transformers 5.24.0 ([-0:]; paramledger holds none, what it means); token
    # ids within the head's rows
    window = "sliding_window" if "sliding_window" in config else "sliding_window_size"
    config = {"model_type": "inkling2_text", "pad_token_id": 0, "eos_token_id": 0, **config,
              window: max(2, config[window])}
    config["vocab_size"] = config["unpadded_vocab_size"]
    cache = _decode(_model(config), 5, 2)
    ours = _ours(config, 7)
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))


@pytest.mark.parametrize(("changes", "message"), [
    ({"layer_types": ["hybrid", "full", "hybrid", "hybrid"]},
     r"layer_types: must list 'hybrid' or 'hybrid_sliding' for each of the 4 layers"),
    ({"n_routed_experts": 0}, r"n_routed_experts: must be a whole number of 1 or more, got 0"),
    ({"swa_num_key_value_heads": 3, "swa_num_attention_heads": 4},
     r"swa_num_key_value_heads: 3 does not divide inkling_swa_num_attention_heads=4"),
    ({"swa_head_dim": None}, r"swa_head_dim: required with "),
    ({"d_rel": 0}, r"d_rel: must be positive, got 0"),
    ({"conv_kernel_size": None}, r"conv_kernel_size: required with Inkling 2's layers"),
    ({"sliding_window_size": None}, r"sliding_window_size: required with Inkling 2's sliding layers"),
    ({"unpadded_vocab_size": 0}, r"unpadded_vocab_size: must be positive, got 0"),
])
def test_bad_inkling2_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**INKLING2, **changes})
    assert "\n" not in str(caught.value)


def test_a_bad_inkling2_key_exits_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({**INKLING2, "n_routed_experts": 0}), "n_routed_experts: must be a whole")


@pytest.mark.parametrize(("fields", "message"), [
    ({"inkling2_first_layers": (1,), "num_hidden_layers": 2, "d_rel": 2, "rel_extent": 2, "sconv_kernel_size": 2,
      "num_experts": 2, "num_experts_per_tok": 1}, r"inkling2_first_layers: must be \[0\] \(layer 0 alone .*, got \[1\]"),
    ({"inkling2_full_layers": (0,)}, r"sconv_kernel_size: required with Inkling 2's layers"),
    ({"inkling2_full_layers": (0,), "sconv_kernel_size": 2, "d_rel": 2, "rel_extent": 2},
     r"num_experts: required with Inkling 2's layers"),
])
def test_inkling2s_flat_keys_are_refused_alone_in_one_line(fields, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.Architecture.from_mapping({"vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
                                               "num_attention_heads": 2, **fields})


# Inkling 2 Loop: layers 1 and 2 (both sliding) looped twice, each pass a cache layer of its own
INKLING2_LOOP = {**INKLING2, "model_type": "inkling2_loop_text", "n_layers_per_attn_res_block": 1,
                 "loop_layer_index_start": 1, "loop_layer_index_end": 3, "loop_num_passes": 2, "loop_gate_rank": 5}


@pytest.mark.parametrize(("prompt", "decoded"), [(2, 0), (6, 0), (5, 2)])
def test_inkling2_loops_cache_holds_each_pass_as_transformers_does(prompt, decoded):
    cache = _decode(_model(INKLING2_LOOP), prompt, decoded)
    ours = _ours(INKLING2_LOOP, prompt + decoded)
    assert len(cache.layers) == 6  # Inkling2LoopTextConfig.total_num_hidden_layers: 4 + (2 - 1) × 2
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))
    # per sequence: the 4 layers' conv states and the looped two's again, 3 taps, float32
    assert ours.state_bytes == BATCH * 3 * 4 * (2 * (6 + 6 + 8 + 8) + 4 * 2 * 16 + 2 * (2 * 6 + 2 * 16))


@settings(max_examples=10, deadline=None)
@given(config=inkling2_loop_text())
def test_inkling2_loops_cache_on_random_configs_equals_what_transformers_holds(config):
    # looped layers past the last build (message_input.query keeps their rows) but cannot run (an IndexError)
    end = config.get("loop_config", config).get("core_end", config.get("loop_layer_index_end"))
    assume(end <= config["num_hidden_layers"])
    window = "sliding_window" if "sliding_window" in config else "sliding_window_size"
    config = {"model_type": "inkling2_loop_text", "pad_token_id": 0, "eos_token_id": 0, **config,
              window: max(2, config[window])}
    config["vocab_size"] = config["unpadded_vocab_size"]
    cache = _decode(_model(config), 5, 2)
    ours = _ours(config, 7)
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))


@pytest.mark.parametrize(("changes", "message"), [
    ({"loop_num_passes": 0}, r"loop_num_passes: must be a whole number of 1 or more, got 0 \(Inkling2LoopTextConfig"),
    ({"loop_layer_index_start": 0}, r"loop_layer_index_start: must be a whole number of 1 or more, got 0"),
    ({"n_layers_per_attn_res_block": 2}, r"loop_layer_index_start: 1 is not a multiple of n_layers_per_attn_res_"),
    ({"loop_layer_index_end": 0}, r"loop_layer_index_end: 0 is before loop_layer_index_start=1"),
    ({"loop_config": {"gate_rank": 0}}, r"loop_config.gate_rank: must be a whole number of 1 or more, got 0"),
    ({"loop_config": [1]}, r"loop_config: must be a JSON object"),
])
def test_bad_inkling2_loop_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**INKLING2_LOOP, **changes})
    assert "\n" not in str(caught.value)


def test_a_bad_inkling2_loop_key_exits_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({**INKLING2_LOOP, "loop_num_passes": 0}),
                       "loop_num_passes: must be a whole number of 1 or more, got 0")
