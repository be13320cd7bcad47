"""Hypothesis strategies: random small configs for the families of set I, typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

from paramledger.families import cpmant as cpmant_family
from paramledger.families import hy_v4 as hy_v4_family
from paramledger.families import xlnet as xlnet_family
from paramledger.parts import MIXER_MODULES

booleans = st.booleans()


@st.composite
def recurrent_gemma(draw) -> dict:
    """RecurrentGemmaConfig: block_types of either kind, repeated through the depth; KV heads dividing the heads
    (its validate_architecture), lru_width a multiple of the heads (RecurrentGemmaRglru's blocks) or unset."""
    heads = draw(st.sampled_from([1, 2, 3, 4]))
    config = {"model_type": "recurrent_gemma", "pad_token_id": 0, "vocab_size": draw(st.integers(4, 300)),
              "num_hidden_layers": draw(st.integers(1, 6)), "num_attention_heads": heads,
              "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8])),
              "intermediate_size": draw(st.integers(2, 96)),
              "block_types": draw(st.lists(st.sampled_from(["recurrent", "attention"]), min_size=1, max_size=3)),
              "conv1d_width": draw(st.integers(1, 5)), "attention_window_size": draw(st.integers(1, 32)),
              "attention_bias": draw(booleans), "tie_word_embeddings": draw(booleans)}
    if draw(booleans):
        config["num_key_value_heads"] = draw(st.sampled_from([k for k in (1, 2, 3, 4) if heads % k == 0]))
    if draw(booleans):
        config["lru_width"] = heads * draw(st.sampled_from([1, 2, 5, 8]))
    return config


def rwkv() -> st.SearchStrategy:
    """RwkvConfig: attention_hidden_size and intermediate_size unset (hidden_size, 4 × hidden_size) or their own.
    At least two layers and two attention channels: RwkvPreTrainedModel._init_weights divides by
    num_hidden_layers - 1 and attention_hidden_size - 1, so a real model (not the meta device's) is not built with
    fewer (the slow tests build one)."""
    return st.fixed_dictionaries(
        {"model_type": st.just("rwkv"), "vocab_size": st.integers(4, 300), "hidden_size": st.integers(2, 48),
         "num_hidden_layers": st.integers(2, 4), "tie_word_embeddings": booleans},
        optional={"attention_hidden_size": st.integers(2, 48), "intermediate_size": st.integers(1, 96),
                  "context_length": st.integers(1, 64), "rescale_every": st.integers(0, 6)})


@st.composite
def xlstm(draw, weight_mode: str = "single") -> dict:
    """xLSTMConfig: the depth as num_hidden_layers, num_blocks or both (equal: xLSTMCache holds num_hidden_layers
    layers' state, the model runs num_blocks), biases, the mLSTM's and the FFN's width factors and rounding.  Half
    the draws are odd (heads need not divide the widths: the per-head norm is heads × v head), half runnable: widths
    multiples of 64 and of the heads, as xLSTMCache sizes its state.  weight_mode "single" only:
    xLSTMPreTrainedModel._init_weights cannot initialize "fused" (it copies the 2 × heads gate bias into heads rows),
    so a real model is never built with it (the slow tests build one); tests/test_mixers_i.py draws "fused" on the
    meta device."""
    config = {"model_type": "xlstm", "vocab_size": draw(st.integers(4, 300)), "use_bias": draw(booleans),
              "weight_mode": weight_mode, "tie_word_embeddings": draw(booleans)}
    depth = draw(st.integers(1, 4))
    for key in draw(st.sampled_from([("num_hidden_layers",), ("num_blocks",), ("num_hidden_layers", "num_blocks")])):
        config[key] = depth
    if draw(booleans):  # runnable: qk 64 or 128 wide, v 128 or 256
        config.update(hidden_size=draw(st.sampled_from([128, 256])), num_heads=draw(st.sampled_from([1, 2, 4])),
                      qk_dim_factor=0.5, v_dim_factor=1.0)
    else:
        factor = st.sampled_from([0.25, 0.5, 0.75, 1.0, 1.5])
        config.update(hidden_size=draw(st.integers(4, 48)), num_heads=draw(st.integers(1, 4)))
        config.update(draw(st.fixed_dictionaries({}, optional={"qk_dim_factor": factor, "v_dim_factor": factor})))
    config.update(draw(st.fixed_dictionaries({}, optional={
        "ffn_proj_factor": st.sampled_from([1.0, 1.3, 2.667]),
        "ffn_round_up_to_multiple_of": st.sampled_from([1, 4, 8, 64]), "add_out_norm": booleans,
        "chunk_size": st.sampled_from([4, 64])})))
    return config


@st.composite
def beam(draw) -> dict:
    """BeamConfig: KV heads dividing the heads (its validate_architecture), head_dim its own, layer_types and
    mlp_layer_types given or left to the class, experts that split into n_group groups of at least two
    (BeamTopKRouter takes each group's top two) with topk_group <= n_group and top-k within what those groups hold."""
    heads = draw(st.sampled_from([1, 2, 4]))
    layers = draw(st.integers(1, 8))
    groups = draw(st.sampled_from([1, 2]))
    experts = groups * draw(st.integers(2, 4))
    config = {"model_type": "beam", "vocab_size": draw(st.integers(4, 300)), "hidden_size": draw(st.integers(2, 40)),
              "intermediate_size": draw(st.integers(1, 64)), "num_hidden_layers": layers,
              "num_attention_heads": heads, "head_dim": draw(st.sampled_from([2, 4, 8])),
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "moe_intermediate_size": draw(st.integers(1, 32)), "num_experts": experts, "n_group": groups,
              "topk_group": draw(st.integers(1, groups)), "num_experts_per_tok": draw(st.integers(1, 2)),
              "sliding_window": draw(st.integers(1, 16)), "attention_bias": draw(booleans),
              "tie_word_embeddings": draw(booleans)}
    kinds = st.sampled_from(["full_attention", "sliding_attention"])
    if draw(booleans):
        config["layer_types"] = draw(st.lists(kinds, min_size=layers, max_size=layers))
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    return config


@st.composite
def dsa_sizes(draw, depth: st.SearchStrategy) -> dict:
    """DeepSeek-V3.2's sizes as A.X-K2's and HY-V4's configs spell them: MHA (KV heads are the heads), q_lora_rank
    always set, routed and shared experts, the indexer's width at least qk_rope_head_dim (it ropes) and index_topk at
    least the 24 tokens the slow checks run."""
    heads = draw(st.sampled_from([1, 2, 4]))
    experts = draw(st.integers(1, 8))
    rope = draw(st.sampled_from([2, 4, 8]))
    return {"vocab_size": draw(st.integers(4, 300)), "num_hidden_layers": draw(depth), "num_attention_heads": heads,
            "num_key_value_heads": heads, "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
            "intermediate_size": draw(st.integers(1, 96)), "q_lora_rank": draw(st.integers(1, 24)),
            "kv_lora_rank": draw(st.integers(1, 24)), "qk_nope_head_dim": draw(st.integers(1, 16)),
            "qk_rope_head_dim": rope, "v_head_dim": draw(st.integers(1, 16)), "attention_bias": draw(booleans),
            "n_routed_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
            "moe_intermediate_size": draw(st.integers(1, 32)), "n_shared_experts": draw(st.integers(1, 2)),
            "index_n_heads": draw(st.integers(1, 4)), "index_head_dim": draw(st.integers(rope, 16)),
            "index_topk": draw(st.integers(24, 64)), "tie_word_embeddings": draw(booleans)}


@st.composite
def axk2(draw) -> dict:
    """AXK2Config: DeepSeek-V3.2's sizes (q_lora_rank always set: its validate_architecture), the gates' rank, the
    dense layers by mlp_layer_types or the legacy first_k_dense_replace / moe_layer_freq, n_group and topk_group
    both unset or both set (they must be set together), the indexer's width at least qk_rope_head_dim (it ropes) and
    index_topk at least the 24 tokens the slow checks run."""
    config = {"model_type": "axk2", **draw(dsa_sizes(st.integers(1, 4))), "gated_norm_rank": draw(st.integers(1, 8))}
    layers = config["num_hidden_layers"]
    if draw(booleans):
        config.update(n_group=1, topk_group=1)
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    else:
        config.update(draw(st.fixed_dictionaries({}, optional={"first_k_dense_replace": st.integers(0, layers),
                                                               "moe_layer_freq": st.integers(1, 3)})))
    return config


def cpmant() -> st.SearchStrategy:
    """CpmAntConfig: every size its own (dim_head need not divide hidden_size), the prompt rows, segments and
    relative-bias buckets; tie_word_embeddings drawn though the head is never tied."""
    return st.fixed_dictionaries(
        {"model_type": st.just("cpmant"), "vocab_size": st.integers(4, 300), "hidden_size": st.integers(2, 48),
         "num_hidden_layers": st.integers(1, 4), "num_attention_heads": st.integers(1, 4),
         "dim_head": st.integers(1, 16), "dim_ff": st.integers(1, 96), "tie_word_embeddings": booleans},
        optional={"prompt_types": st.integers(0, 4), "prompt_length": st.integers(0, 8),
                  "segment_types": st.integers(1, 6), "position_bias_num_buckets": st.integers(1, 64),
                  "position_bias_max_distance": st.integers(1, 128)})


@st.composite
def moshi(draw) -> dict:
    """MoshiConfig's text decoder: heads dividing the width (MoshiAttention refuses others), head_dim its own or
    unset, KV heads dividing the heads, an even ffn_dim (its validate_architecture), the window; tie_word_embeddings
    drawn though the head is never tied."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {"model_type": "moshi", "vocab_size": draw(st.integers(4, 300)),
              "num_hidden_layers": draw(st.integers(1, 4)), "num_attention_heads": heads,
              "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "ffn_dim": 2 * draw(st.integers(1, 48)), "sliding_window": draw(st.integers(1, 64)),
              "tie_word_embeddings": draw(booleans)}
    if draw(booleans):
        config["head_dim"] = draw(st.sampled_from([2, 4, 8]))
    return config


@st.composite
def xlnet(draw) -> dict:
    """XLNetConfig: heads dividing d_model (its validate_architecture), d_head given as d_model // n_head or left
    to the class, the feed-forward's width and the tying."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {"model_type": "xlnet", "vocab_size": draw(st.integers(4, 300)), "n_layer": draw(st.integers(1, 4)),
              "n_head": heads, "d_model": heads * draw(st.sampled_from([2, 4, 8])),
              "d_inner": draw(st.integers(1, 96)),
              "tie_word_embeddings": draw(booleans)}
    if draw(booleans):
        config["d_head"] = config["d_model"] // heads
    return config


@st.composite
def hy_v4(draw) -> dict:
    """HYV4Config: DeepSeek-V3.2's sizes (q_lora_rank set), the streams, mlp_layer_types and indexer_types given
    (the first layer "full": a "shared" one reuses an earlier selection) or left to the class, the indexer's width at
    least qk_rope_head_dim and index_topk at least the 24 tokens the slow checks run."""
    config = {"model_type": "hy_v4", "pad_token_id": 0, **draw(dsa_sizes(st.integers(1, 6))),
              "hc_mult": draw(st.integers(1, 4))}
    layers = config["num_hidden_layers"]
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    if draw(booleans):
        config["indexer_types"] = ["full"] + draw(st.lists(st.sampled_from(["full", "shared"]), min_size=layers - 1,
                                                           max_size=layers - 1))
    return config


CONFIGS_I: dict[str, st.SearchStrategy] = {}
if "rglru" in MIXER_MODULES:
    CONFIGS_I["recurrent_gemma"] = recurrent_gemma()
if "rwkv" in MIXER_MODULES:
    CONFIGS_I["rwkv"] = rwkv()
if "xlstm" in MIXER_MODULES:
    CONFIGS_I["xlstm"] = xlstm()
if "gate_bias_attention" in MIXER_MODULES:
    CONFIGS_I["beam"] = beam()
if "gated_norm_mla" in MIXER_MODULES:
    CONFIGS_I["axk2"] = axk2()
if "local_attention" in MIXER_MODULES:
    CONFIGS_I["moshi"] = moshi()
if xlnet_family.FAMILIES:  # once Naming.mask_embedding lands (docs/notes/coverage-set-m.patch)
    CONFIGS_I["xlnet"] = xlnet()
if hy_v4_family.FAMILIES:  # once Naming.hyper_head lands (docs/notes/coverage-set-m.patch)
    CONFIGS_I["hy_v4"] = hy_v4()
if cpmant_family.FAMILIES:  # once Naming.relative_attention_bias_raw lands (docs/notes/coverage-set-m.patch)
    CONFIGS_I["cpmant"] = cpmant()
