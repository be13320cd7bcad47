"""Hypothesis strategies: random small configs for the hybrid families of set B.

jamba, falcon_h1, zamba, zamba2, lfm2, lfm2_moe, as transformers 5.24.0 reads them (docs/notes/hybrids-b.md
is the spec).  The style is tests/_family_configs.py's: each strategy spells the keys the way the family's
config class does and draws every switch it has: biases (mamba_conv_bias / mamba_proj_bias, projectors_bias,
attention_bias, mlp_bias, add_bias_linear, conv_bias), tying, heads and KV heads, an explicit head_dim where the
attention reads getattr(config, "head_dim", ...), the layer patterns (Jamba's attention and expert periods and
offsets, Zamba's layers_block_type or its period/offset default, LFM2's layer_types or full_attn_idxs), Zamba2's
shared blocks (num_mem_blocks, use_shared_attention_adapter, adapter_rank, use_mem_rope), the experts (Jamba's
num_experts = 1 turns every layer dense; LFM2-MoE's num_dense_layers, use_expert_bias) and LFM2's FFN width
rule (block_auto_adjust_ff_dim, block_ffn_dim_multiplier, block_multiple_of).  Keys that change no count
(the Falcon-H1 multipliers, mamba_chunk_size, use_conv_bias in zamba2, routed_scaling_factor, norm_topk_prob,
use_mem_rope) are drawn too, so a family table that wrongly reads them fails.

Every drawn config builds on the meta device in transformers 5.24.0 (not every one runs a forward pass: see
the notes' last section).  Two traps are avoided on purpose (see the
notes): a Zamba config with tie_word_embeddings true and exactly one hybrid layer raises ValueError in
get_expanded_tied_weights_keys, and Lfm2MoeConfig cannot build without layer_types.  Sizes stay tiny:
vocab <= 300, hidden <= 64, layers <= 6.
"""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
multiplier = st.floats(0.125, 4.0, allow_nan=False, allow_infinity=False)


def _typed(model_type: str, strategy: st.SearchStrategy) -> st.SearchStrategy:
    return strategy.map(lambda config: {"model_type": model_type, "pad_token_id": 0, **config})


def _divisors(n: int, limit: int | None = None) -> list[int]:
    return [d for d in range(1, (limit or n) + 1) if n % d == 0]


@st.composite
def _heads(draw, *, head_dim_key: bool = True) -> dict:
    """hidden_size a multiple of the heads, KV heads dividing them, sometimes an explicit head_dim."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
        "hidden_size": heads * draw(st.sampled_from([2, 4, 8, 16])),
    }
    if head_dim_key and draw(booleans):
        # None of these config classes declares head_dim, but their attention reads
        # getattr(config, "head_dim", hidden_size // num_attention_heads): the key changes q/k/v/o.
        config["head_dim"] = draw(st.sampled_from([2, 4, 8, 16]))
    return config


# --------------------------------------------------------------------------- Jamba
@st.composite
def jamba(draw) -> dict:
    config = draw(_heads())
    layers = draw(st.integers(1, 6))
    attn_period = draw(st.integers(1, 4))
    expert_period = draw(st.integers(1, 4))
    experts = draw(st.integers(1, 4))  # 1: layers_num_experts is all ones, every FFN a dense JambaMLP
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "intermediate_size": draw(st.integers(1, 64)),
        "attn_layer_period": attn_period,
        "attn_layer_offset": draw(st.integers(0, attn_period - 1)),  # JambaConfig: offset < period
        "expert_layer_period": expert_period,
        "expert_layer_offset": draw(st.integers(0, expert_period - 1)),
        "num_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)),
        "mamba_d_state": draw(st.integers(1, 16)),
        "mamba_d_conv": draw(st.integers(2, 4)),
        "mamba_expand": draw(st.integers(1, 3)),
        "mamba_dt_rank": draw(st.one_of(st.just("auto"), st.integers(1, 8))),  # auto: ceil(hidden / 16)
        "mamba_conv_bias": draw(booleans),
        "mamba_proj_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
    })
    return config


# --------------------------------------------------------------------------- Falcon-H1
@st.composite
def falcon_h1(draw) -> dict:
    config = draw(_heads())
    hidden = config["hidden_size"]
    expand = draw(st.integers(1, 2))
    d_ssm = draw(st.one_of(st.none(), st.sampled_from([8, 12, 16, 24, 32, 48])))
    inner = expand * hidden if d_ssm is None else d_ssm  # mamba_d_ssm None: mamba_expand × hidden_size
    heads = draw(st.sampled_from(_divisors(inner, 16)))
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": draw(st.integers(1, 4)),
        "intermediate_size": draw(st.integers(1, 64)),
        "mamba_d_ssm": d_ssm,
        "mamba_expand": expand,
        "mamba_n_heads": heads,
        "mamba_n_groups": draw(st.sampled_from(_divisors(heads))),
        "mamba_d_state": draw(st.integers(1, 16)),
        "mamba_d_conv": draw(st.integers(2, 4)),
        "mamba_chunk_size": draw(st.sampled_from([4, 8, 16])),
        "mamba_conv_bias": draw(booleans),
        "mamba_proj_bias": draw(booleans),  # in_proj only
        "projectors_bias": draw(booleans),  # the mixer's out_proj
        "mamba_rms_norm": draw(booleans),  # adds mamba.norm.weight (mamba_d_ssm wide)
        "mamba_norm_before_gate": draw(booleans),
        "attention_bias": draw(booleans),
        "mlp_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
        # plain floats: no tensor (mup_vector is a non-persistent buffer built from ssm_multipliers)
        "embedding_multiplier": draw(multiplier), "lm_head_multiplier": draw(multiplier),
        "key_multiplier": draw(multiplier), "attention_in_multiplier": draw(multiplier),
        "attention_out_multiplier": draw(multiplier), "ssm_in_multiplier": draw(multiplier),
        "ssm_out_multiplier": draw(multiplier),
        "mlp_multipliers": draw(st.lists(multiplier, min_size=2, max_size=2)),
        "ssm_multipliers": draw(st.lists(multiplier, min_size=5, max_size=5)),
    })
    if draw(booleans):  # else "auto": inner // mamba_n_heads (the config insists on that value anyway)
        config["mamba_d_head"] = inner // heads
    return config


# --------------------------------------------------------------------------- Zamba
def _zamba_default_hybrids(layers: int, period: int, offset: int) -> int:
    """ZambaConfig.__post_init__: ['mamba', 'mamba', 'hybrid'] then i % period == offset for i < layers - 3."""
    pattern = ["m", "m", "h"] + ["h" if i % period == offset else "m" for i in range(layers - 3)]
    return pattern[:layers].count("h") if layers >= 3 else pattern[:3].count("h")


@st.composite
def zamba(draw) -> dict:
    heads = draw(st.sampled_from([1, 2, 4]))
    hidden = heads * draw(st.sampled_from([2, 4, 8, 16]))
    expand = draw(st.integers(1, 2))
    layers = draw(st.integers(3, 6))
    config = {
        "vocab_size": draw(st.integers(4, 300)),
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
        "intermediate_size": draw(st.integers(1, 64)),
        "n_mamba_heads": draw(st.sampled_from(_divisors(expand * hidden, 4))),
        "mamba_expand": expand,
        "mamba_d_state": draw(st.integers(1, 16)),
        "mamba_d_conv": draw(st.integers(2, 4)),
        "mamba_dt_rank": draw(st.one_of(st.just("auto"), st.integers(1, 8))),
        "mamba_conv_bias": draw(booleans),
        "mamba_proj_bias": draw(booleans),
    }
    if draw(booleans):  # default 2 × hidden_size // num_attention_heads
        config["attention_head_dim"] = draw(st.sampled_from([2, 4, 8, 16]))
    if draw(booleans):
        kinds = draw(st.lists(st.sampled_from(["mamba", "hybrid"]), min_size=layers, max_size=layers))
        config["layers_block_type"] = kinds
        hybrids = kinds.count("hybrid")
    else:  # the default pattern from attn_layer_period / attn_layer_offset
        period = draw(st.integers(1, 4))
        offset = draw(st.integers(0, period - 1))
        config.update({"attn_layer_period": period, "attn_layer_offset": offset})
        hybrids = _zamba_default_hybrids(layers, period, offset)
    # transformers 5.24.0 cannot tie a single shared block (nothing matches the target regex: ValueError)
    config["tie_word_embeddings"] = draw(booleans) if hybrids != 1 else False
    return config


# --------------------------------------------------------------------------- Zamba2
@st.composite
def zamba2(draw) -> dict:
    heads = draw(st.sampled_from([1, 2, 4]))
    hidden = heads * draw(st.sampled_from([2, 4, 8, 16]))  # attention_head_dim = 2 × hidden // heads
    expand = draw(st.integers(1, 2))
    mamba_heads = draw(st.sampled_from(_divisors(expand * hidden, 8)))
    layers = draw(st.integers(1, 6))
    config = {
        "vocab_size": draw(st.integers(4, 300)),
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
        "intermediate_size": draw(st.one_of(st.none(), st.integers(1, 64))),  # None: 4 × hidden_size
        "mamba_expand": expand,
        "n_mamba_heads": mamba_heads,
        "mamba_ngroups": draw(st.sampled_from(_divisors(mamba_heads))),
        "mamba_d_state": draw(st.integers(1, 16)),
        "mamba_d_conv": draw(st.integers(2, 4)),
        "chunk_size": draw(st.sampled_from([4, 8, 16])),
        "use_conv_bias": draw(booleans),  # read by nothing that makes a tensor: conv1d always has a bias
        "add_bias_linear": draw(booleans),
        "layers_block_type": draw(st.lists(st.sampled_from(["mamba", "hybrid"]), min_size=layers, max_size=layers)),
        "num_mem_blocks": draw(st.integers(1, 2)),
        "use_shared_attention_adapter": draw(booleans),
        "adapter_rank": draw(st.integers(1, 8)),
        "use_mem_rope": draw(booleans),
        "tie_word_embeddings": draw(booleans),
    }
    return config


# --------------------------------------------------------------------------- LFM2
@st.composite
def _lfm2_layers(draw, layers: int, *, idxs: bool) -> dict:
    kinds = draw(st.lists(st.sampled_from(["conv", "full_attention"]), min_size=layers, max_size=layers))
    if idxs and draw(booleans):  # the first checkpoints' spelling: Lfm2Config turns it into layer_types
        return {"full_attn_idxs": [i for i, kind in enumerate(kinds) if kind == "full_attention"]}
    return {"layer_types": kinds}


@st.composite
def lfm2(draw) -> dict:
    config = draw(_heads())
    layers = draw(st.integers(1, 6))
    width = draw(st.integers(1, 96))
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "conv_bias": draw(booleans),
        "conv_L_cache": draw(st.integers(2, 4)),
        "block_auto_adjust_ff_dim": draw(booleans),
        # None would skip the rounding in Lfm2MLP, but the strict field (float | int) refuses it
        "block_ffn_dim_multiplier": draw(st.sampled_from([0.5, 1.0, 1.5, 2])),
        "block_multiple_of": draw(st.sampled_from([1, 8, 16, 32])),
        **draw(_lfm2_layers(layers, idxs=True)),
    })
    # the legacy spellings Lfm2Config.__post_init__ pops: block_ff_dim -> intermediate_size, tie_embedding
    config["block_ff_dim" if draw(booleans) else "intermediate_size"] = width
    config["tie_embedding" if draw(booleans) else "tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def lfm2_moe(draw) -> dict:
    config = draw(_heads())
    layers = draw(st.integers(1, 6))
    experts = draw(st.integers(1, 8))
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "intermediate_size": draw(st.integers(1, 64)),
        "moe_intermediate_size": draw(st.integers(1, 32)),
        "num_dense_layers": draw(st.integers(0, layers)),
        "num_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)),
        "use_expert_bias": draw(booleans),  # a buffer (expert_bias), never a parameter
        "norm_topk_prob": draw(booleans),
        "routed_scaling_factor": draw(st.sampled_from([1.0, 2.5])),
        "conv_bias": draw(booleans),
        "conv_L_cache": draw(st.integers(2, 4)),
        # Lfm2MoeConfig does not read full_attn_idxs, and builds nothing without layer_types
        **draw(_lfm2_layers(layers, idxs=False)),
    })
    config["tie_embedding" if draw(booleans) else "tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_B: dict[str, st.SearchStrategy] = {
    "jamba": _typed("jamba", jamba()),
    "falcon_h1": _typed("falcon_h1", falcon_h1()),
    "zamba": _typed("zamba", zamba()),
    "zamba2": _typed("zamba2", zamba2()),
    "lfm2": _typed("lfm2", lfm2()),
    "lfm2_moe": _typed("lfm2_moe", lfm2_moe()),
}
