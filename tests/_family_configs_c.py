"""Hypothesis strategies: random small configs for the decoder families of set C (issue #15).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style)
and is typed here already (model_type set).  Every switch the config has is drawn, keys that change no
count too; sizes stay tiny (vocab <= 300, hidden <= 64, layers <= 6).  docs/notes/coverage-set-c.md has
what each transformers class builds."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
window = st.one_of(st.none(), st.integers(1, 64))
SLIDING, FULL = "sliding_attention", "full_attention"


def _typed(model_type: str, strategy: st.SearchStrategy) -> st.SearchStrategy:
    # pad_token_id 0: the classes' own (LFM3's 124893) do not fit a small vocabulary.
    return strategy.map(lambda config: {"model_type": model_type, "pad_token_id": 0, **config})


@st.composite
def _attention(draw) -> dict:
    """Heads, KV heads dividing them, a width the heads divide and an explicit head_dim (both classes
    default it to 128 and read it whatever the width)."""
    heads = draw(st.sampled_from([1, 2, 4, 8]))
    return {
        "vocab_size": draw(st.integers(4, 300)),
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4, 8) if heads % k == 0])),
        "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
        "head_dim": draw(st.sampled_from([2, 4, 8, 16])),
        "attention_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
        "sliding_window": draw(window),
    }


@st.composite
def lfm3(draw) -> dict:
    config = draw(_attention())
    layers = draw(st.integers(1, 6))
    config.update({
        "num_hidden_layers": layers,
        "intermediate_size": draw(st.integers(1, 64)),
        "conv_bias": draw(booleans),
        "conv_L_cache": draw(st.integers(2, 7)),
        "use_sandwich_norm": draw(booleans),
        "use_attention_gate": draw(booleans),
        "norm_eps": draw(st.sampled_from([1e-5, 1e-6])),
    })
    if draw(booleans):  # else Lfm3Config's pattern: full at i % 4 == 2, sliding at i % 4 == 0 past 0, conv
        types = draw(st.lists(st.sampled_from(["conv", FULL, SLIDING]), min_size=layers, max_size=layers))
        # paramledger's rotary buffers stand a conv layer as full attention (docs/notes/coverage-set-c.md):
        # with sliding and conv layers but no full one it would list a full_attention pair transformers lacks.
        if SLIDING in types and "conv" in types and FULL not in types:
            types[types.index("conv")] = FULL
        config["layer_types"] = types
    return config


@st.composite
def lara_mini(draw) -> dict:
    config = draw(_attention())
    config["sliding_window"] = draw(st.integers(1, 64))  # LaraMiniConfig's is an int, never null
    layers = draw(st.integers(1, 6))
    key_heads = draw(st.sampled_from([1, 2, 4]))
    experts = draw(st.integers(1, 8))
    config.update({
        "num_hidden_layers": layers,
        "linear_num_key_heads": key_heads,
        "linear_num_value_heads": key_heads * draw(st.integers(1, 3)),  # a multiple: LaraMiniConfig checks it
        "linear_key_head_dim": draw(st.sampled_from([2, 4, 8])),
        "linear_value_head_dim": draw(st.sampled_from([2, 4, 8])),
        "linear_conv_kernel_dim": draw(st.integers(2, 4)),
        "num_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)),
        "moe_intermediate_size": draw(st.integers(1, 32)),
        "shared_expert_intermediate_size": draw(st.integers(1, 32)),
        "norm_topk_prob": draw(booleans),
        "router_aux_loss_coef": draw(st.sampled_from([0.001, 0.01])),
        "output_router_logits": draw(booleans),
    })
    if draw(booleans):  # else LaraMiniConfig's period-5 pattern
        config["layer_types"] = draw(st.lists(st.sampled_from(["linear_attention", FULL, SLIDING]),
                                              min_size=layers, max_size=layers))
    return config


@st.composite
def kimi_linear(draw) -> dict:
    """KimiLinearConfig (families/kimi_linear.py): DeepSeek-V3's MLA and MoE keys (under its attribute_map spellings too) and the KDA sizes,
    flat or in the checkpoints' linear_attn_config; every layer's type and FFN kind drawn or left to the class."""
    heads = draw(st.sampled_from([1, 2, 4]))
    layers = draw(st.integers(1, 6))
    experts = draw(st.integers(1, 8))
    kda = {"linear_num_heads": draw(st.sampled_from([1, 2, 4])), "linear_head_dim": draw(st.sampled_from([2, 4, 8])),
           "linear_conv_kernel_dim": draw(st.integers(2, 4))}
    config = {
        "vocab_size": draw(st.integers(4, 300)),
        "hidden_size": heads * draw(st.sampled_from([2, 4, 8, 16])),
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "intermediate_size": draw(st.integers(1, 64)),
        "moe_intermediate_size": draw(st.integers(1, 32)),
        draw(st.sampled_from(["num_local_experts", "num_experts"])): experts,
        draw(st.sampled_from(["num_experts_per_tok", "num_experts_per_token"])): draw(st.integers(1, experts)),
        draw(st.sampled_from(["n_shared_experts", "num_shared_experts"])): draw(st.integers(1, 2)),
        "n_group": 1, "topk_group": 1,
        "kv_lora_rank": draw(st.integers(1, 16)),
        "q_lora_rank": draw(st.one_of(st.none(), st.integers(1, 16))),
        "qk_rope_head_dim": draw(st.sampled_from([2, 4, 8])),
        "qk_nope_head_dim": draw(st.integers(1, 8)),
        "v_head_dim": draw(st.integers(1, 8)),
        "attention_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),  # KimiLinearForCausalLM never ties (_tied_weights_keys = {})
        "routed_scaling_factor": draw(st.sampled_from([1.0, 2.446])),
        "rms_norm_eps": draw(st.sampled_from([1e-5, 1e-6])),
    }
    types = draw(st.one_of(st.none(), st.lists(st.sampled_from(["linear_attention", FULL]), min_size=layers,
                                               max_size=layers)))
    if draw(booleans):  # the checkpoints' spelling: 1-indexed layer lists and the KDA sizes in one section
        section = {"head_dim": kda["linear_head_dim"], "num_heads": kda["linear_num_heads"],
                   "short_conv_kernel_size": kda["linear_conv_kernel_dim"]}
        if types is not None:
            section["kda_layers"] = [i + 1 for i, kind in enumerate(types) if kind == "linear_attention"]
            section["full_attn_layers"] = [i + 1 for i, kind in enumerate(types) if kind == FULL]
        config["linear_attn_config"] = section
    else:
        config.update(kda)
        if types is not None:
            config["layer_types"] = types
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    elif draw(booleans):
        config["first_k_dense_replace"] = draw(st.integers(0, layers))
    return config


@st.composite
def bailing_hybrid(draw) -> dict:
    """BailingHybridConfig (families/bailing_hybrid.py): Kimi Linear's keys but the KDA sizes read from num_attention_heads, head_dim and
    short_conv_kernel_size, the pattern from layer_group_size, dense layers from first_k_dense_replace."""
    config = draw(kimi_linear())
    for key in ("linear_attn_config", "linear_num_heads", "linear_head_dim", "linear_conv_kernel_dim"):
        config.pop(key, None)
    config["head_dim"] = draw(st.sampled_from([2, 4, 8]))
    config["short_conv_kernel_size"] = draw(st.integers(2, 4))
    config["layer_group_size"] = draw(st.integers(1, 4))
    config["kda_safe_gate"] = draw(booleans)
    config["num_mtp_layers"] = draw(st.integers(0, 2))
    return config


@st.composite
def olmo_hybrid(draw) -> dict:
    """OlmoHybridConfig (families/olmo_hybrid.py): at least one linear and one attention layer (validate_architecture), the DeltaNet's
    sizes given or left to the class (heads → num_attention_heads, key width → 0.75 × hidden / key heads, value
    width → twice that), a head_dim the attention reads with getattr, RoPE on or off (rope_theta null)."""
    heads = draw(st.sampled_from([1, 2, 4]))
    layers = draw(st.integers(2, 6))
    config = {
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "hidden_size": heads * draw(st.sampled_from([4, 8, 16])),
        "intermediate_size": draw(st.integers(1, 64)),
        "attention_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
        "linear_conv_kernel_dim": draw(st.integers(2, 4)),
        "linear_allow_neg_eigval": draw(booleans),
        "linear_a_log_max": draw(st.sampled_from([8.0, 16.0])),
    }
    if draw(booleans):
        config["num_key_value_heads"] = draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0]))
    if draw(booleans):
        config["head_dim"] = draw(st.sampled_from([2, 4, 8]))
    if draw(booleans):
        key_heads = draw(st.sampled_from([1, 2]))
        config["linear_num_key_heads"] = key_heads
        config["linear_num_value_heads"] = key_heads * draw(st.integers(1, 2))
    if draw(booleans):
        config["linear_key_head_dim"] = draw(st.sampled_from([2, 4]))
    if draw(booleans):
        config["linear_value_head_dim"] = draw(st.sampled_from([2, 4, 8]))
    if draw(booleans):
        config["rope_parameters"] = {"rope_type": "default", "rope_theta": draw(st.sampled_from([None, 10000.0]))}
    if draw(booleans):
        types = draw(st.lists(st.sampled_from(["linear_attention", FULL]), min_size=layers, max_size=layers))
        types[0], types[-1] = "linear_attention", FULL  # one of each, as validate_architecture requires
        config["layer_types"] = types
    return config


CONFIGS_C: dict[str, st.SearchStrategy] = {
    "lfm3": _typed("lfm3", lfm3()),
    "lara_mini": _typed("lara_mini", lara_mini()),
    "kimi_linear": _typed("kimi_linear", kimi_linear()),
    "bailing_hybrid": _typed("bailing_hybrid", bailing_hybrid()),
    "olmo_hybrid": _typed("olmo_hybrid", olmo_hybrid()),
}
