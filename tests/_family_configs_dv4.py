"""Hypothesis strategies: random small configs for set DV4's decoder (issue #15), typed here.

Each spells the keys the way DeepseekV4Config does (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

from paramledger.parts import MIXER_MODULES

booleans = st.booleans()
TYPES = ["sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"]


@st.composite
def deepseek_v4(draw) -> dict:
    """DeepseekV4Config: one K = V head of head_dim (its rotated share even, so the interleaved rotary pairs up,
    and within index_head_dim, which the indexer ropes too), o_groups dividing heads × head_dim, routed experts with
    top-k at most their number; layer_types drawn (or the legacy compress_ratios, or left to the class), their
    rates small (or the class's 4 and 128), mlp_layer_types drawn (or num_hash_layers, or the class's three), the
    streams, the shared expert's bias, tying."""
    heads = draw(st.sampled_from([1, 2, 4]))
    head_dim = draw(st.sampled_from([8, 16, 32]))
    factor = draw(st.sampled_from([None, 0.25, 0.5]))
    rope = int(head_dim * (factor if factor is not None else 0.125))
    layers = draw(st.integers(1, 5))
    experts = draw(st.integers(1, 6))
    groups = draw(st.sampled_from([g for g in (1, 2, 4) if heads * head_dim % g == 0]))
    config = {"model_type": "deepseek_v4", "vocab_size": draw(st.integers(8, 200)), "num_hidden_layers": layers,
              "hidden_size": draw(st.sampled_from([8, 16, 24, 32])), "num_attention_heads": heads,
              "head_dim": head_dim, "q_lora_rank": draw(st.integers(1, 24)), "o_groups": groups,
              "o_lora_rank": draw(st.integers(1, 12)), "n_routed_experts": experts,
              "num_experts_per_tok": draw(st.integers(1, experts)), "moe_intermediate_size": draw(st.integers(1, 24)),
              "index_n_heads": draw(st.integers(1, 4)), "index_head_dim": draw(st.sampled_from(
                  [d for d in (4, 8, 16) if d >= rope] or [rope])),
              "index_topk": draw(st.integers(1, 8)), "sliding_window": draw(st.integers(2, 8)),
              "hc_mult": draw(st.integers(1, 4)), "mlp_bias": draw(booleans), "tie_word_embeddings": draw(booleans),
              "n_shared_experts": draw(st.integers(0, 2))}
    if factor is not None:
        config["partial_rotary_factor"] = factor
    which = draw(st.sampled_from(["types", "ratios", "default"]))
    if which == "types":
        config["layer_types"] = draw(st.lists(st.sampled_from(TYPES), min_size=layers, max_size=layers + 1))
    elif which == "ratios":  # the released configs' form: one ratio a layer, more entries than layers allowed
        config["compress_ratios"] = draw(st.lists(st.sampled_from([0, 4, 128]), min_size=layers,
                                                  max_size=layers + 2))
    if which != "ratios" and draw(booleans):
        config["compress_rates"] = {"compressed_sparse_attention": draw(st.integers(1, 4)),
                                    "heavily_compressed_attention": draw(st.integers(1, 8))}
    routing = draw(st.sampled_from(["types", "hash", "default"]))
    if routing == "types":
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["hash_moe", "moe"]), min_size=layers,
                                                  max_size=layers))
    elif routing == "hash":
        config["num_hash_layers"] = draw(st.integers(0, layers + 1))
    return config


CONFIGS_DV4: dict[str, st.SearchStrategy] = {}
if "shared_kv_attention" in MIXER_MODULES:
    CONFIGS_DV4["deepseek_v4"] = deepseek_v4()
