"""Random small configs for families that needed new architecture fields or builder structure: model_type -> strategy (see _family_configs.py for the shared helpers)."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from _family_configs import booleans, core, mla, routed, window, with_keys

CONFIGS: dict = {}


@st.composite
def falcon(draw) -> dict:
    """Every layout FalconConfig allows and transformers 5.24.0 runs: the old decoder (multi-query
    or not; one shared norm or the sequential block) and the new (num_kv_heads groups, one or two
    branch norms).  The combinations it builds but cannot run are refused (tests/test_structure.py)."""
    config = draw(core(kv=False, head_dim=False, inner="ffn_hidden_size"))
    heads = config["num_attention_heads"]
    new = draw(booleans)
    config.update({"new_decoder_architecture": new, "alibi": draw(booleans), "bias": draw(booleans),
                   "multi_query": draw(booleans)})  # ignored by the new decoder
    if new:
        config["num_kv_heads"] = draw(st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0]))
        config["parallel_attn"] = True
        config["num_ln_in_parallel_attn"] = draw(st.sampled_from([None, 1, 2]))
    else:
        config["parallel_attn"] = parallel = draw(booleans)
        # a sequential block ignores num_ln_in_parallel_attn; a parallel one runs only with one norm
        config["num_ln_in_parallel_attn"] = draw(st.sampled_from([None, 1, 3] if parallel else [None, 1, 2]))
        if not config["multi_query"] and draw(booleans):
            config["num_kv_heads"] = heads
    if draw(booleans):
        config["ffn_hidden_size"] = None  # 4 × hidden_size
    return config


CONFIGS["falcon"] = falcon()
# use_qk_norm (Command R+): per-head LayerNorm weights; the other keys as cohere's in _family_configs.
CONFIGS["cohere"] = with_keys(core(), attention_bias=booleans, use_qk_norm=booleans)
# qk_layernorm (StableLM 2 12B): one LayerNorm per head in a ModuleList.
CONFIGS["stablelm"] = with_keys(core(head_dim=False), use_qkv_bias=booleans, use_parallel_residual=booleans,
                                qk_layernorm=booleans)


@st.composite
def ernie4_5_moe(draw) -> dict:
    """Sparse layers by start/end/interval, shared experts (or none), use_bias everywhere but the experts."""
    config = draw(core())
    layers = config["num_hidden_layers"]
    experts = draw(st.integers(1, 8))
    config.update({"moe_num_experts": experts, "moe_k": draw(st.integers(1, experts)),
                   "moe_intermediate_size": draw(st.integers(1, 32)),
                   "moe_num_shared_experts": draw(st.integers(0, 2)), "use_bias": draw(booleans),
                   "moe_layer_start_index": draw(st.integers(0, layers)),
                   "moe_layer_end_index": draw(st.sampled_from([-1, *range(layers)])),
                   "moe_layer_interval": draw(st.integers(1, 3))})
    return config


CONFIGS["ernie4_5_moe"] = ernie4_5_moe()


@st.composite
def cohere2_moe(draw) -> dict:
    """A dense prefix (first_k_dense_replace or mlp_layer_types) of its own width, routed and shared
    experts, the sliding pattern of the prefix and of the rest, RMSNorm or LayerNorm."""
    config = draw(core())
    layers = config["num_hidden_layers"]
    experts = draw(st.integers(1, 8))
    config.update({"num_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
                   "num_shared_experts": draw(st.integers(0, 2)), "attention_bias": draw(booleans),
                   "first_k_dense_replace": draw(st.integers(0, layers)),
                   "prefix_dense_intermediate_size": draw(st.one_of(st.none(), st.integers(1, 32))),
                   "sliding_window": draw(window), "sliding_window_pattern": draw(st.integers(1, 4)),
                   "prefix_dense_sliding_window_pattern": draw(st.integers(1, 3)),
                   "rms_norm_eps": draw(st.sampled_from([None, 1e-6]))})
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    return config


CONFIGS["cohere2_moe"] = cohere2_moe()


@st.composite
def axk1(draw) -> dict:
    """DeepSeek-V3's latent attention (q_lora_rank always set) and experts, dense layers by
    mlp_layer_types or by the legacy first_k_dense_replace / moe_layer_freq."""
    config = {**draw(core(head_dim=False)), **draw(mla()), **draw(routed("n_routed_experts",
                                                                       shared_key="n_shared_experts", groups=True))}
    layers = config["num_hidden_layers"]
    config["q_lora_rank"] = draw(st.integers(1, 24))
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    else:
        config.update({"first_k_dense_replace": draw(st.integers(0, layers)),
                       "moe_layer_freq": draw(st.integers(1, 3))})
    return config


CONFIGS["axk1"] = axk1()


@st.composite
def mimo_v2_flash(draw) -> dict:
    """Narrow value heads, sliding layers with twice the KV heads (which must still divide the heads)
    and sinks, a dense/sparse pattern; layer_types and mlp_layer_types given or left to the class."""
    config = draw(core())
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    pairs = [k for k in (1, 2, 3, 4) if heads % (2 * k) == 0]
    assume(pairs)
    experts = draw(st.integers(1, 8))
    config.update({"num_key_value_heads": draw(st.sampled_from(pairs)), "v_head_dim": draw(st.integers(1, 16)),
                   "n_routed_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
                   "moe_intermediate_size": draw(st.integers(1, 32)), "attention_bias": draw(booleans),
                   "n_group": 1, "topk_group": 1})
    if draw(booleans):
        config["sliding_window"] = draw(st.integers(1, 64))
    else:
        config["sliding_window_size"] = draw(st.integers(1, 64))
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(["full_attention", "sliding_attention"]),
                                              min_size=layers, max_size=layers))
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    return config


CONFIGS["mimo_v2_flash"] = mimo_v2_flash()
