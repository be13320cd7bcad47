"""Hypothesis strategies: random small configs for set HR's decoders (issue "Every CausalLM type transformers
ships"), typed here.  Each spells the keys the way the family's config class does (tests/_family_configs.py's
style)."""

from __future__ import annotations

from hypothesis import strategies as st

from paramledger import families

booleans = st.booleans()


@st.composite
def hrm_text(draw) -> dict:
    """HrmTextConfig: heads dividing the width (validate_architecture) and a head_dim of their own, each stack's
    depth as a first construction gives it (num_hidden_layers) or as a saved config does (num_layers_per_stack
    beside the inflated num_hidden_layers), the cycles (cache and FLOPs only; 0 builds: a stack that never runs),
    the attention's and FFN's biases, tying, and the keys that change no tensor (prefix_lm, embedding_scale,
    L_bp_cycles)."""
    heads = draw(st.sampled_from([1, 2, 4]))
    depth, high, low = draw(st.integers(1, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 3))
    config = {"model_type": "hrm_text", "vocab_size": draw(st.integers(4, 300)), "num_attention_heads": heads,
              "hidden_size": heads * draw(st.sampled_from([2, 4, 8])), "head_dim": draw(st.sampled_from([2, 4, 8])),
              "intermediate_size": draw(st.integers(1, 32)), "H_cycles": high, "L_cycles": low,
              "tie_word_embeddings": draw(booleans), "attention_bias": draw(booleans), "mlp_bias": draw(booleans),
              "prefix_lm": draw(booleans), "embedding_scale": draw(st.sampled_from([None, 2.0])),
              "L_bp_cycles": draw(st.sampled_from([None, [1], [2, 1]]))}
    if draw(booleans):  # a saved config: both, num_hidden_layers the cache's slots
        config.update(num_layers_per_stack=depth, num_hidden_layers=depth * high * (low + 1))
    else:
        config["num_hidden_layers"] = depth
    return config


@st.composite
def qwen4_exp_text(draw) -> dict:
    """Qwen4ExpTextConfig without PLE: layers linear or indexed by layer_types given (either spelling of the indexed
    kind), by full_attention_interval or by default; the DeltaNet's sizes; routed experts with the shared expert; the
    hyper-connections' streams and rank; the QSA indexer's sizes where some layer is indexed (its head at least the
    rotary's width, the budget whole blocks), sometimes a partial rotary; biases and tying."""
    heads = draw(st.sampled_from([1, 2, 4]))
    head_dim, layers = draw(st.sampled_from([2, 4, 8])), draw(st.integers(1, 5))
    key_heads = draw(st.sampled_from([1, 2]))
    count = draw(st.integers(1, 6))
    config = {"model_type": "qwen4_exp_text", "vocab_size": draw(st.integers(4, 300)), "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "hidden_size": draw(st.sampled_from([4, 8, 16])), "head_dim": head_dim, "num_hidden_layers": layers,
              "tie_word_embeddings": draw(booleans), "attention_bias": draw(booleans),
              "linear_num_key_heads": key_heads, "linear_num_value_heads": key_heads * draw(st.sampled_from([1, 2])),
              "linear_key_head_dim": draw(st.sampled_from([2, 4, 8])),
              "linear_value_head_dim": draw(st.sampled_from([2, 4, 8])),
              "linear_conv_kernel_dim": draw(st.integers(1, 4)),
              "num_experts": count, "num_experts_per_tok": draw(st.integers(1, count)),
              "moe_intermediate_size": draw(st.integers(1, 16)),
              "shared_expert_intermediate_size": draw(st.integers(1, 16)),
              "hc_count": draw(st.integers(2, 4)), "hc_lowrank": draw(st.integers(1, 8))}
    style = draw(st.sampled_from(["given", "interval", "default"]))
    if style == "given":
        config["layer_types"] = draw(st.lists(st.sampled_from(["linear_attention", "indexed_attention",
                                                               "full_attention"]), min_size=layers, max_size=layers))
    elif style == "interval":
        config["full_attention_interval"] = draw(st.integers(1, 4))
    factor = draw(st.sampled_from([None, 0.5]))
    if factor is not None:
        config["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": factor}
    ratio = draw(st.integers(1, 3))
    config.update({"indexer_n_heads": draw(st.integers(1, 3)), "indexer_kv_heads": 1,
                   "indexer_head_dim": head_dim * draw(st.sampled_from([1, 2])),
                   "indexer_compress_ratio": ratio, "indexer_budget": ratio * draw(st.integers(1, 3))})
    return config


_STRATEGIES = {"hrm_text": hrm_text, "qwen4_exp_text": qwen4_exp_text}
CONFIGS_HR: dict[str, st.SearchStrategy] = {model_type: strategy() for model_type, strategy in _STRATEGIES.items()
                                            if families.get(model_type)}
