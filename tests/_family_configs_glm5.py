"""Hypothesis strategies: random small configs for GLM-5-Next whole (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_g import glm4v_vision
from hypothesis import strategies as st

booleans = st.booleans()
KINDS = ("linear_attention", "indexed_attention", "full_attention")


@st.composite
def glm5_next_text(draw) -> dict:
    """Glm5NextTextConfig: GLM-5's MLA (no RoPE: qk_rope_head_dim 0 or left out; KV heads = heads) and experts
    (num_local_experts or n_routed_experts), the k-pool indexer (index_topk a multiple of index_kpool, at least the
    24 tokens the slow checks run), the KDA sizes flat or in linear_attn_config, the hyper-connections' streams;
    layer_types, mlp_layer_types and the indexer modes (types, pattern, freq/offset) drawn or left to the class.
    The first indexed layer runs its own indexer (a shared one would reuse none)."""
    heads, layers = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    experts = draw(st.integers(1, 6))
    vocab = draw(st.integers(4, 300))
    pool = draw(st.integers(1, 4))
    config = {
        "model_type": "glm5_next_text", "vocab_size": vocab, "hidden_size": heads * draw(st.integers(1, 8)),
        "num_hidden_layers": layers, "num_attention_heads": heads, "num_key_value_heads": heads,
        "intermediate_size": draw(st.integers(1, 32)), "moe_intermediate_size": draw(st.integers(1, 16)),
        draw(st.sampled_from(["n_routed_experts", "num_local_experts"])): experts,
        "num_experts_per_tok": draw(st.integers(1, experts)), "n_shared_experts": draw(st.integers(1, 2)),
        "kv_lora_rank": draw(st.integers(1, 16)), "q_lora_rank": draw(st.integers(1, 16)),
        "v_head_dim": draw(st.integers(1, 8)), "qk_nope_head_dim": draw(st.integers(1, 8)),
        "attention_bias": draw(booleans), "tie_word_embeddings": draw(booleans),
        "pad_token_id": draw(st.one_of(st.none(), st.integers(0, vocab - 1))),
        "index_n_heads": draw(st.integers(1, 4)), "index_head_dim": draw(st.integers(1, 8)),
        "index_kpool": pool, "index_topk": pool * draw(st.integers(-(-24 // pool), 64 // pool)),
        "hc_mult": draw(st.integers(1, 3)),
    }
    if draw(booleans):
        config["qk_rope_head_dim"] = 0
    kda = {"linear_num_heads": draw(st.integers(1, 3)), "linear_head_dim": draw(st.sampled_from([2, 4, 8])),
           "linear_conv_kernel_dim": draw(st.integers(2, 4))}
    if draw(booleans):
        config.update(kda)
    else:
        config["linear_attn_config"] = {"num_heads": kda["linear_num_heads"], "head_dim": kda["linear_head_dim"],
                                        "short_conv_kernel_size": kda["linear_conv_kernel_dim"]}
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(KINDS), min_size=layers, max_size=layers))
        types = config["layer_types"]
    else:
        types = ["linear_attention" if i % 4 != 3 else "indexed_attention" for i in range(layers)]
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    how = draw(st.sampled_from(["default", "freq", "pattern", "types"]))
    first = next((i for i, kind in enumerate(types) if kind != "linear_attention"), None)
    if how == "freq" and (first is None or first >= 1):  # layer first runs its own: max(first - offset + 1, 0) = 0
        config.update({"index_topk_freq": draw(st.integers(1, 3)),
                       "index_skip_topk_offset": draw(st.integers(1 + (first or 0), 3 + (first or 0)))})
    elif how in ("pattern", "types"):
        kinds = draw(st.lists(st.sampled_from("FS"), min_size=layers, max_size=layers))
        if first is not None:
            kinds[first] = "F"
        if how == "pattern":
            config["index_topk_pattern"] = "".join(kinds)
        else:
            config["indexer_types"] = ["full" if kind == "F" else "shared" for kind in kinds]
    return config


@st.composite
def glm5_next_vision(draw) -> dict:
    """Glm5NextVisionConfig: GLM-OCR's tower keys (GLM-4.1V's grid) and the merger's projection_intermediate_size."""
    vision = draw(glm4v_vision())
    return {**vision, "model_type": "glm5_next_vision", "projection_intermediate_size": draw(st.integers(1, 32))}


@st.composite
def glm5_next(draw) -> dict:
    config = {"model_type": "glm5_next", "text_config": draw(glm5_next_text()), "vision_config": draw(glm5_next_vision())}
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_GLM5: dict[str, st.SearchStrategy] = {"glm5_next": glm5_next()}
