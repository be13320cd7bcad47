"""Hypothesis strategies: random small configs for Qwen4-Exp (issue "Every CausalLM type transformers ships"), typed
here.  Each spells the keys the way Qwen4ExpTextConfig does."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from _family_configs_l import qwen3_5_vision, whole
from hypothesis import strategies as st

from paramledger import families

LINEAR, INDEXED = "linear_attention", "indexed_attention"


@st.composite
def qwen4_exp_text(draw) -> dict:
    """Qwen4ExpTextConfig: layer types given (indexed or the checkpoints' "full_attention"), by interval or by default;
    the Gated DeltaNet's sizes, the experts, the streams (hc_count > 1), the QSA indexer's five keys wherever an
    attention layer is (validate_architecture: one key head, whole blocks, the index head as wide as the rotary),
    PLE on some linear layers (one-indexed, in any order, repeated) with its n-gram sizes, tying."""
    layers = draw(st.integers(1, 5))
    heads = draw(st.sampled_from([1, 2, 4]))
    head_dim = draw(st.sampled_from([4, 8]))
    config = {"vocab_size": draw(st.integers(4, 200)), "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "hidden_size": draw(st.sampled_from([8, 16])), "head_dim": head_dim, "num_hidden_layers": layers,
              "tie_word_embeddings": draw(booleans), "attention_bias": draw(booleans), "eos_token_id": 1}
    style = draw(st.sampled_from(["given", "interval", "default"]))
    if style == "given":
        types = draw(st.lists(st.sampled_from([LINEAR, INDEXED, "full_attention"]), min_size=layers,
                              max_size=layers))
        config["layer_types"] = types
    else:
        interval = draw(st.integers(1, 4)) if style == "interval" else 4
        if style == "interval":
            config["full_attention_interval"] = interval
        types = [LINEAR if (i + 1) % interval else INDEXED for i in range(layers)]
    key_heads = draw(st.sampled_from([1, 2]))
    count = draw(st.integers(1, 6))
    config.update({
        "linear_num_key_heads": key_heads, "linear_num_value_heads": key_heads * draw(st.sampled_from([1, 2])),
        "linear_key_head_dim": draw(st.sampled_from([2, 4])), "linear_value_head_dim": draw(st.sampled_from([2, 4])),
        "linear_conv_kernel_dim": draw(st.integers(1, 4)),
        "num_experts": count, "num_experts_per_tok": draw(st.integers(1, count)),
        "moe_intermediate_size": draw(st.integers(1, 16)), "shared_expert_intermediate_size": draw(st.integers(1, 16)),
        "hc_count": draw(st.integers(2, 4)), "hc_lowrank": draw(st.integers(1, 12)),
    })
    if draw(booleans):
        config["output_gate_type"] = draw(st.sampled_from(["sigmoid", "silu"]))
    if any(kind != LINEAR for kind in types) or draw(booleans):
        ratio = draw(st.integers(1, 4))
        factor = draw(st.sampled_from([None, 0.5]))
        if factor is not None:
            config["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": factor}
        config.update({"indexer_n_heads": draw(st.integers(1, 3)), "indexer_kv_heads": 1,
                       "indexer_head_dim": head_dim + draw(st.sampled_from([0, 2, 4])),
                       "indexer_budget": ratio * draw(st.integers(1, 3)), "indexer_compress_ratio": ratio})
    linear = [i + 1 for i, kind in enumerate(types) if kind == LINEAR]
    if linear and draw(booleans):
        ngram = draw(st.integers(2, 4))
        per_ngram = draw(st.integers(1, 2))
        ids = draw(st.lists(st.sampled_from(linear), min_size=1, max_size=4))
        config.update({"ple_layer_ids": ids, "ngram_size": ngram, "heads_per_ngram": per_ngram,
                       "ngram_vocab_size_base": draw(st.integers(2, 300)),
                       "make_ngram_vocab_size_divisible_by": draw(st.sampled_from([1, 8, 128])),
                       "ple_conv_kernel_size": draw(st.integers(1, 4))})
        if draw(booleans):
            config["ple_embed_dim"] = (ngram - 1) * per_ngram * draw(st.integers(1, 3))
        else:  # hidden_size, which the heads must divide
            config["heads_per_ngram"] = per_ngram = 1
            config["ngram_size"] = ngram = draw(st.sampled_from([2, 3, 5]))
            config["hidden_size"] = 8 * (ngram - 1) if ngram != 2 else config["hidden_size"]
    return config


# qwen4_exp_text's own strategy is tests/_family_configs_hr.py's (no PLE); this one, with PLE, draws the whole
# model's text_config here and the decoder alone in tests/test_decoders_qx.py
PLE_TEXT = _typed("qwen4_exp_text", qwen4_exp_text())
CONFIGS_QX: dict[str, st.SearchStrategy] = {}
# Qwen4ExpConfig, the whole model: the text decoder's config above, Qwen3.5-MoE's vision tower under its own name
if families.get("qwen4_exp"):
    CONFIGS_QX["qwen4_exp"] = whole("qwen4_exp", "qwen4_exp_text", qwen4_exp_text().map(lambda text: {
        "pad_token_id": 0, **text}), qwen3_5_vision("qwen4_exp_vision"))
