"""The KV cache against the seed's figures and against transformers' own cache.

For every family a tiny random model (real weights on the CPU, torch.manual_seed) runs a
real forward pass with use_cache=True; the bytes its cache tensors hold, summed over
layers, must equal ours, below and above the sliding window, and after decoding steps.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import paramledger
from paramledger import families
from paramledger._exceptions import OptionError
from paramledger.kvcache import BROADCAST_KV_HEADS, MASK_ONLY_WINDOWS, MLA_LAYOUTS, kv_cache, kv_values_per_token

WINDOW = 8  # tiny sliding window: 5 tokens stay below it, 13 go past it

# Tiny configs, written with each family's own config.json keys.
_DECODER = dict(vocab_size=96, hidden_size=64, intermediate_size=80, num_hidden_layers=4, num_attention_heads=4,
                max_position_embeddings=64)
_LINEAR = dict(linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=8, linear_value_head_dim=12,
               linear_conv_kernel_dim=3)
TINY_CONFIGS = {
    "llama": dict(_DECODER, model_type="llama", num_key_value_heads=2),
    "llama-head-dim": dict(_DECODER, model_type="llama", num_key_value_heads=1, head_dim=24),
    "mistral-sliding": dict(_DECODER, model_type="mistral", num_key_value_heads=2, head_dim=24,
                            sliding_window=WINDOW),
    "mixtral": dict(_DECODER, model_type="mixtral", num_key_value_heads=2, num_local_experts=4,
                    num_experts_per_tok=2),
    "mixtral-sliding": dict(_DECODER, model_type="mixtral", num_key_value_heads=2, num_local_experts=4,
                            num_experts_per_tok=2, sliding_window=WINDOW),
    "qwen2": dict(_DECODER, model_type="qwen2", num_key_value_heads=2),
    "qwen2-sliding": dict(_DECODER, model_type="qwen2", num_key_value_heads=2, use_sliding_window=True,
                          sliding_window=WINDOW, max_window_layers=2),
    "qwen2_moe": dict(_DECODER, model_type="qwen2_moe", num_key_value_heads=2, num_experts=4,
                      num_experts_per_tok=2, moe_intermediate_size=32, shared_expert_intermediate_size=48),
    "qwen2_moe-sliding": dict(_DECODER, model_type="qwen2_moe", num_key_value_heads=2, num_experts=4,
                              num_experts_per_tok=2, moe_intermediate_size=32, shared_expert_intermediate_size=48,
                              use_sliding_window=True, sliding_window=WINDOW, max_window_layers=3),
    "qwen3": dict(_DECODER, model_type="qwen3", num_key_value_heads=2, head_dim=32),
    "qwen3-sliding": dict(_DECODER, model_type="qwen3", num_key_value_heads=2, head_dim=32,
                          use_sliding_window=True, sliding_window=WINDOW, max_window_layers=1),
    "qwen3_moe": dict(_DECODER, model_type="qwen3_moe", num_key_value_heads=2, head_dim=32, num_experts=4,
                      num_experts_per_tok=2, moe_intermediate_size=32),
    "gemma": dict(_DECODER, model_type="gemma", num_key_value_heads=1, head_dim=32),
    "gemma2-hybrid": dict(_DECODER, model_type="gemma2", num_key_value_heads=2, head_dim=32,
                          sliding_window=WINDOW),
    "gemma3_text-hybrid": dict(_DECODER, model_type="gemma3_text", num_hidden_layers=7, num_key_value_heads=2,
                               head_dim=32, sliding_window=WINDOW),
    # Gemma 4: full layers twice as wide with one KV head each and values from the keys, the last two
    # layers sharing keys and values (double-width FFN there), per-layer inputs; and the MoE block.
    "gemma4_text-hybrid": dict(_DECODER, model_type="gemma4_text", num_hidden_layers=6, num_key_value_heads=2,
                               head_dim=16, global_head_dim=32, num_global_key_value_heads=1, attention_k_eq_v=True,
                               sliding_window=WINDOW, layer_types=["sliding_attention", "full_attention"] * 3,
                               num_kv_shared_layers=2, use_double_wide_mlp=True, hidden_size_per_layer_input=8,
                               vocab_size_per_layer_input=96),
    "gemma4_text-moe-hybrid": dict(_DECODER, model_type="gemma4_text", num_key_value_heads=2, head_dim=16,
                                   global_head_dim=32, sliding_window=WINDOW, hidden_size_per_layer_input=0,
                                   layer_types=["sliding_attention", "sliding_attention", "full_attention",
                                                "full_attention"], enable_moe_block=True, num_experts=4,
                                   top_k_experts=2, moe_intermediate_size=32, attention_bias=True),
    "phi3-sliding": dict(_DECODER, model_type="phi3", num_key_value_heads=2, sliding_window=WINDOW,
                         pad_token_id=0, bos_token_id=1, eos_token_id=2),
    "olmo": dict(_DECODER, model_type="olmo", num_key_value_heads=2),
    "olmo2": dict(_DECODER, model_type="olmo2", num_key_value_heads=2),
    "gpt_oss-sliding": dict(_DECODER, model_type="gpt_oss", num_key_value_heads=2, head_dim=16,
                            num_local_experts=4, num_experts_per_tok=2, sliding_window=WINDOW),
    "deepseek_v3-mla": dict(_DECODER, model_type="deepseek_v3", num_key_value_heads=4, moe_intermediate_size=32,
                            n_routed_experts=4, num_experts_per_tok=2, n_shared_experts=1, n_group=1,
                            topk_group=1, first_k_dense_replace=1, kv_lora_rank=32, q_lora_rank=48,
                            qk_rope_head_dim=8, qk_nope_head_dim=16, v_head_dim=24),
    # Qwen3-Next and Qwen3.5: three Gated DeltaNet layers (value heads twice the key heads), then a full one
    "qwen3_next-linear": dict(_DECODER, model_type="qwen3_next", num_key_value_heads=2, head_dim=16, num_experts=4,
                              num_experts_per_tok=2, moe_intermediate_size=32, shared_expert_intermediate_size=48,
                              decoder_sparse_step=2, **_LINEAR),
    "qwen3_5_text-linear": dict(_DECODER, model_type="qwen3_5_text", num_key_value_heads=2, head_dim=16, **_LINEAR),
    "qwen3_5_moe_text-linear": dict(_DECODER, model_type="qwen3_5_moe_text", num_key_value_heads=1, head_dim=16,
                                    num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32,
                                    shared_expert_intermediate_size=48, attention_bias=True,
                                    layer_types=["linear_attention", "full_attention"] * 2, **_LINEAR),
    "gpt2": dict(model_type="gpt2", vocab_size=96, n_embd=64, n_layer=3, n_head=4, n_positions=64),
    "gpt_neox": dict(model_type="gpt_neox", vocab_size=96, hidden_size=64, intermediate_size=80,
                     num_hidden_layers=3, num_attention_heads=4, max_position_embeddings=64),
}


def _architecture(name: str):
    config = TINY_CONFIGS[name]
    if families.get(config["model_type"]) is None:
        pytest.skip(f"family {config['model_type']} not supported by paramledger yet")
    return paramledger.load(config)


_MODELS: dict[tuple[str, bool], object] = {}


def _model(name: str, eager: bool = False):
    """The transformers model for a tiny config, built once per test session.  ``eager``: eager
    attention and eager experts, so every matmul is an op torch's FlopCounterMode counts."""
    if (name, eager) not in _MODELS:
        torch = pytest.importorskip("torch")
        from transformers import AutoConfig, AutoModelForCausalLM

        config = dict(TINY_CONFIGS[name])
        config = AutoConfig.for_model(config.pop("model_type"), **config)
        torch.manual_seed(0)
        if eager:
            model = AutoModelForCausalLM.from_config(config, attn_implementation="eager",
                                                     experts_implementation="eager")
        else:
            model = AutoModelForCausalLM.from_config(config).eval()
        _MODELS[name, eager] = model
    return _MODELS[name, eager]


def _run(model, batch: int, tokens: int, decode_steps: int = 0):
    """Prefill ``tokens`` tokens for ``batch`` sequences, then decode ``decode_steps`` more, one at a time."""
    import torch

    generator = torch.Generator().manual_seed(1)
    ids = torch.randint(0, model.config.get_text_config().vocab_size, (batch, tokens), generator=generator)
    with torch.no_grad():
        out = model(ids, use_cache=True)
        cache = out.cache
        for step in range(decode_steps):
            step_ids = torch.randint(0, model.config.get_text_config().vocab_size, (batch, 1), generator=generator)
            cache = model(step_ids, cache=cache, use_cache=True).cache
    return cache


def _cache_bytes(cache) -> int:
    """Every tensor transformers' cache holds: keys, values and, for DeepSeek-V3.2's lightning
    indexer, the indexer's own keys (DynamicIndexedLayer.indexer_keys); a layer that reuses an
    earlier layer's keys and values (Gemma 3n) holds a slot with none, and a Gated DeltaNet layer
    (LinearAttentionLayer) has no keys at all, only its state (_state_bytes)."""
    if hasattr(cache, "rnn_state"):  # xLSTMCache: a recurrent state per layer, no keys
        return 0
    return sum((0 if getattr(layer, "keys", None) is None  # None: Gemma 3n's shared layers; absent: linear
                else layer.keys.nbytes + (0 if layer.values is layer.keys else layer.values.nbytes))  # K = V: once
               # (a layer reading an earlier one's latent still holds its own indexer's: Mistral Large 4's)
               + (0 if getattr(layer, "indexer_keys", None) is None else layer.indexer_keys.nbytes)
               + _compressor_bytes(layer)
               # the prompt's keys and values a reference window keeps apart from the decoded ones (Unlimited-OCR's)
               + (0 if getattr(layer, "prefill_keys", None) is None
                  else layer.prefill_keys.nbytes + layer.prefill_values.nbytes)
               for layer in cache.layers)


def _compressor_bytes(layer) -> int:
    """DeepSeek-V4's compressing layers (DeepseekV4HCACache, DeepseekV4CSACache): each compressor's and indexer's
    compressed entries, the tokens not yet compressed (kv and gate) and, for CSA, the last window's overlap."""
    states = ("compressed_kv", "buffer_kv", "buffer_gate", "overlap_kv", "overlap_gate")
    return sum(t.nbytes for state in states for t in getattr(layer, state, {}).values() if t is not None)


def _state_bytes(cache) -> int:
    """The fixed states transformers' LinearAttentionLayer holds (Gated DeltaNet: conv_states and
    recurrent_states; xLSTMCache's rnn_state); 0 for a cache with no linear-attention layers."""
    if hasattr(cache, "rnn_state"):
        return sum(t.nbytes for states in cache.rnn_state.values() for t in states)
    held = [state for layer in cache.layers
            for states in (getattr(layer, "conv_states", {}), getattr(layer, "recurrent_states", {}))
            for state in states.values() if state is not None]
    # token ids held as a state (Qwen4-Exp's n-gram context, int64) are counted as values at the cache's dtype
    width = next((state.element_size() for state in held if state.is_floating_point()), 0)
    return sum(state.nbytes if state.is_floating_point() else state.numel() * width for state in held)


@pytest.mark.parametrize("name", sorted(TINY_CONFIGS))
@pytest.mark.parametrize("tokens", [5, WINDOW - 1, WINDOW, 13])
def test_cache_bytes_equal_transformers(name, tokens):
    arch = _architecture(name)
    model = _model(name)
    batch = 2
    cache = _run(model, batch, tokens)
    ours = kv_cache(arch, context=tokens, batch=batch, dtype="fp32")
    if "sliding" in name or "hybrid" in name:
        assert ours.sliding_layers > 0, f"{name}: the family table lost the sliding window"
    assert ours.bytes == _cache_bytes(cache), f"{name}: ours {ours.bytes}, transformers {_cache_bytes(cache)}"
    assert ours.state_bytes == _state_bytes(cache), f"{name}: state {ours.state_bytes}, {_state_bytes(cache)}"
    if "linear" in name:
        assert ours.linear_attention_layers > 0 and ours.state_bytes > 0, f"{name}: the table lost the DeltaNet"


@pytest.mark.parametrize("name", ["mistral-sliding", "gemma2-hybrid", "gpt_oss-sliding", "llama", "qwen3_next-linear"])
def test_cache_bytes_after_decoding_steps(name):
    arch = _architecture(name)
    cache = _run(_model(name), batch=3, tokens=6, decode_steps=5)  # 6 + 5 = 11 tokens, past the window
    assert kv_cache(arch, context=11, batch=3, dtype="fp32").bytes == _cache_bytes(cache)
    assert kv_cache(arch, context=11, batch=3, dtype="fp32").state_bytes == _state_bytes(cache)


def test_linear_attention_layers_hold_a_fixed_state():
    """Qwen3-Next: 3 Gated DeltaNet layers cache no keys or values, each a state of conv_dim × kernel
    + value heads × key head × value head per sequence, whatever the context; the full layer caches."""
    arch = _architecture("qwen3_next-linear")
    short, long = kv_cache(arch, 5, 2, "fp32"), kv_cache(arch, 500, 2, "fp32")
    per_layer = (2 * 2 * 8 + 4 * 12) * 3 + 4 * 8 * 12  # conv over q, k, v; the recurrent state
    assert short.state_values == long.state_values == 2 * 3 * per_layer
    assert kv_values_per_token(arch) == 2 * (16 + 16)  # the one full-attention layer
    assert short.tokens_held() == {"full_attention": {"layers": 1, "tokens": 5}}
    assert "3 linear-attention (Gated DeltaNet) layers cache no keys or values" in short.definition
    assert "reuse an earlier layer" not in short.definition


def test_cache_bytes_at_bf16_equal_transformers():
    import torch

    arch = _architecture("gemma2-hybrid")
    model = _model("gemma2-hybrid").to(torch.bfloat16)
    try:
        cache = _run(model, batch=2, tokens=13)
    finally:
        model.to(torch.float32)
    assert kv_cache(arch, context=13, batch=2, dtype="bf16").bytes == _cache_bytes(cache)


def test_mla_layouts_equal_transformers():
    """Latent: what transformers 5.24.0's DynamicCache holds; decompressed: what its expand_kv rebuilds per layer."""
    arch = _architecture("deepseek_v3-mla")
    model = _model("deepseek_v3-mla")
    cache = _run(model, batch=2, tokens=9)
    assert kv_cache(arch, 9, 2, "fp32", mla_layout="latent").bytes == _cache_bytes(cache)
    decompressed = 0
    for layer, cached in zip(model.model.layers, cache.layers):
        keys, values = layer.self_attn.expand_kv(cached.keys, cached.values)
        decompressed += keys.nbytes + values.nbytes
    assert kv_cache(arch, 9, 2, "fp32", mla_layout="decompressed").bytes == decompressed
    # per layer: 32 + 8 latent values against 4 heads × (16 + 8 + 24) decompressed
    assert kv_values_per_token(arch) == 4 * (32 + 8)
    assert kv_values_per_token(arch, "decompressed") == 4 * 4 * (16 + 8 + 24)


# Gemma4AssistantForCausalLM drafts from its target model's cache: its forward needs the target's shared_kv_states
ASSISTANT_ALONE = ("gemma4_assistant runs only beside its target model (its forward reads the target's "
                   "shared_kv_states); tests/test_decoders_q.py checks it caches nothing of its own")


@pytest.mark.slow  # a real model per example for every family: minutes on two cores
@pytest.mark.parametrize("model_type", families.supported())
# Random configs transformers builds but cannot run are filtered (assume): DeepSeek-V2 draws many.
@settings(max_examples=2, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_random_configs_of_every_family_cache_what_transformers_caches(model_type, data):
    """The families' random small configs (tests/_family_configs.py), a real forward pass each."""
    from _family_configs import draw_runnable_model

    from paramledger.kvcache import NO_CACHE

    if model_type in ("pi0", "diffusion_gemma"):  # a cache refused in one line (PI0's prefix and cropped action
        # chunks, DiffusionGemma's prompt re-read over each canvas), nothing to compare
        pytest.skip(f"{model_type}: {NO_CACHE[model_type]}")
    if model_type == "idefics":  # IdeficsModel.forward refuses a prompt without images: run with them in
        pytest.skip("idefics needs images to run: tests/test_multimodal_idefics.py checks its cache with them")
    if model_type == "gemma4_assistant":
        pytest.skip(ASSISTANT_ALONE)

    arch, model, longest = draw_runnable_model(model_type, data)
    tokens, batch = data.draw(st.integers(1, longest), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    try:
        cache = _run(model, batch, tokens)
    except (RuntimeError, TypeError, ValueError, IndexError):
        # Random configs transformers builds but cannot run (layer_types naming sliding layers with
        # no sliding_window; DeepSeek routing with no num_experts_per_tok): nothing to measure.
        assume(False)
    except AttributeError:
        pytest.skip(f"transformers keeps no KV cache for {model_type}")
    if model_type in MASK_ONLY_WINDOWS:
        arch = arch.replace(sliding_window=None, layer_types=())  # transformers keeps every token
    if model_type in BROADCAST_KV_HEADS and getattr(model.config, "new_decoder_architecture", False):
        arch = arch.replace(num_key_value_heads=None)  # transformers caches every query head's keys and values
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)
    assert kv_cache(arch, tokens, batch, "fp32").state_bytes == _state_bytes(cache)


# ----------------------------------------------------------------- seed 002
def test_seed_kv_figures_mha():
    arch = paramledger.load("seed-1.1b", num_key_value_heads=16)
    cache = kv_cache(arch, context=8192, batch=1, dtype="fp16")
    assert cache.values_per_token == 98_304
    assert cache.bytes_per_token == 196_608
    assert cache.bytes == 1_610_612_736


def test_seed_kv_figures_gqa():
    arch = paramledger.load("seed-1.1b")
    assert arch.num_key_value_heads == 4
    assert kv_values_per_token(arch) == 24_576
    assert kv_cache(arch, 1, 1, "fp16").bytes_per_token == 49_152


def test_seed_kv_figures_through_the_cli(cli):
    import json

    status, out, err = cli("memory", "seed-1.1b", "--set", "num_key_value_heads=16", "--kv-dtype", "fp16",
                           "--context", "8192", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert (data["kv_values_per_token"], data["kv_bytes_per_token"], data["kv_cache_bytes"]) == (
        98_304, 196_608, 1_610_612_736)
    status, out, _ = cli("memory", "seed-1.1b", "--json")
    assert json.loads(out)["kv_values_per_token"] == 24_576


# ----------------------------------------------------------------- properties
def _design(heads, group, head_dim, layers, window, sliding_every):
    layer_types = tuple("sliding_attention" if sliding_every and i % sliding_every == 0 else "full_attention"
                        for i in range(layers))
    return paramledger.Architecture.from_mapping(dict(
        vocab_size=64, hidden_size=heads * head_dim, num_hidden_layers=layers, num_attention_heads=heads,
        num_key_value_heads=heads // group, head_dim=head_dim, sliding_window=window,
        layer_types=layer_types if window else ()))


designs = st.builds(
    _design, heads=st.sampled_from([1, 2, 4, 8, 16]), group=st.just(1), head_dim=st.integers(1, 64),
    layers=st.integers(1, 6),
    window=st.one_of(st.none(), st.integers(2, 40)), sliding_every=st.integers(0, 3),
)


@given(arch=designs, context=st.integers(1, 200), batch=st.integers(1, 8), factor=st.integers(2, 5))
def test_linear_in_batch(arch, context, batch, factor):
    assert kv_cache(arch, context, batch * factor).bytes == factor * kv_cache(arch, context, batch).bytes


@given(arch=designs, context=st.integers(1, 200))
def test_linear_in_context_below_the_window_then_flat(arch, context):
    per_token = kv_cache(arch, 1, 1).bytes
    window = arch.sliding_window
    if window is None or context < window:
        assert kv_cache(arch, context, 1).bytes == context * per_token
    # each layer grows by its per-token bytes until its window is full, then stays flat
    step = kv_cache(arch, context + 1, 1).bytes - kv_cache(arch, context, 1).bytes
    full_layers = [l for l in kv_cache(arch, 1, 1).layers if l.window is None or context + 1 <= l.window - 1]
    assert step == sum(l.values_per_token for l in full_layers) * 2
    if window is not None and all(l.window for l in kv_cache(arch, 1, 1).layers):
        assert kv_cache(arch, window + context, 1).bytes == kv_cache(arch, window - 1, 1).bytes


@given(heads=st.sampled_from([2, 4, 8, 16, 32, 64]), head_dim=st.integers(1, 256), layers=st.integers(1, 40),
       context=st.integers(1, 4096), data=st.data())
def test_gqa_divides_by_the_group_factor(heads, head_dim, layers, context, data):
    group = data.draw(st.sampled_from([g for g in (1, 2, 4, 8, 16, 32, 64) if heads % g == 0]))
    mha = _design(heads, 1, head_dim, layers, None, 0)
    gqa = mha.replace(num_key_value_heads=heads // group)
    assert kv_cache(mha, context, 1).bytes == group * kv_cache(gqa, context, 1).bytes
    assert kv_values_per_token(mha) == 2 * layers * heads * head_dim


def test_gpt_neo_local_layers_are_windowed_where_transformers_keeps_every_token():
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    config = {"model_type": "gpt_neo", "vocab_size": 50, "hidden_size": 16, "num_layers": 4, "num_heads": 2,
              "attention_types": [[["global", "local"], 2]], "window_size": WINDOW, "max_position_embeddings": 64}
    if families.get("gpt_neo") is None:
        pytest.skip("family gpt_neo not supported by paramledger yet")
    arch = paramledger.load(config)
    values = dict(config)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(AutoConfig.for_model(values.pop("model_type"), **values)).eval()
    cache = _run(model, batch=1, tokens=13)
    ours = kv_cache(arch, 13, 1, "fp32")
    assert ours.sliding_layers == 2 and "by mask only" in ours.definition
    full = kv_cache(arch.replace(sliding_window=None, layer_types=()), 13, 1, "fp32")
    assert full.bytes == _cache_bytes(cache) > ours.bytes
    assert ours.bytes == 2 * 13 * 2 * 16 * 4 + 2 * (WINDOW - 1) * 2 * 16 * 4


def test_tokens_held_by_layer_kind(cli):
    import json

    arch = _architecture("gemma2-hybrid")
    assert kv_cache(arch, 100, 1).tokens_held() == {"sliding_attention": {"layers": 2, "tokens": WINDOW - 1},
                                                    "full_attention": {"layers": 2, "tokens": 100}}
    assert kv_cache(arch, 3, 1).tokens_held()["sliding_attention"]["tokens"] == 3
    status, out, err = cli("memory", "gpt-oss-20b", "--context", "4096", "--json")
    assert status == 0, err
    assert json.loads(out)["kv_tokens_held"] == {"sliding_attention": {"layers": 12, "tokens": 127},
                                                 "full_attention": {"layers": 12, "tokens": 4096}}


def test_the_mla_layouts_are_documented():
    assert set(MLA_LAYOUTS) == {"latent", "decompressed"}


# ----------------------------------------------------------------- refusals
@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(context=0), r"context: must be a whole number of at least 1, got 0"),
    (dict(context=-5), r"context: must be a whole number of at least 1, got -5"),
    (dict(context=8, batch=0), r"batch: must be a whole number of at least 1, got 0"),
    (dict(context=8, dtype="fp17"), r"kv-dtype: unknown dtype 'fp17' \(did you mean 'fp16'\?\)"),
    (dict(context=8, dtype="int4"), r"kv-dtype: int4 is a group-quantized weight format"),
    (dict(context=8, mla_layout="dense"), r"mla-layout: unknown layout 'dense'"),
])
def test_refusals(kwargs, message):
    with pytest.raises(OptionError, match=message):
        kv_cache(paramledger.load("seed-1.1b"), **kwargs)
