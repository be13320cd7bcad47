"""Hypothesis strategies: random small configs for the state-space and hybrid families (set A).

mamba, falcon_mamba, mamba2, bamba, nemotron_h, granitemoehybrid, as transformers 5.24.0 reads
them (docs/notes/hybrids-a.md is the spec).  The style is tests/_family_configs.py's: each
strategy spells the keys the way the family's config class does and draws every switch it
has: biases (use_bias / use_conv_bias, mamba_proj_bias / mamba_conv_bias, attention_bias,
mlp_bias), tying, SSM groups and heads, the per-layer pattern (including nemotron_h's layers with
no mixer, only an MLP or MoE, and granitemoehybrid's layers without routed experts), routed
and shared experts, latent MoE projections.  Keys that change no count (expand in nemotron_h,
time_step_rank in mamba2, attention_bias in nemotron_h, n_shared_experts, tie_word_embeddings in
nemotron_h, num_nextn_predict_layers) are drawn too, so a family table that wrongly reads them
fails.

Every drawn config builds on the meta device and runs a forward pass on CPU: heads divide the
widths the config classes check (hidden × expand = heads × head_dim), n_groups divides the SSM
heads (the torch path repeats B/C per head group), conv kernels are 2-4, a nemotron_h router
group holds at least two experts (its group score is a top-2 sum).  Sizes stay tiny: vocab ≤ 300,
hidden ≤ 64, layers ≤ 6.
"""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


def _typed(model_type: str, strategy: st.SearchStrategy) -> st.SearchStrategy:
    # pad_token_id 0: some defaults (GraniteMoeHybrid's None, Mamba2's 1) are fine, but keep it in range.
    return strategy.map(lambda config: {"model_type": model_type, "pad_token_id": 0, **config})


def _divisors(n: int, limit: int | None = None) -> list[int]:
    return [d for d in range(1, (limit or n) + 1) if n % d == 0]


# --------------------------------------------------------------------------- Mamba 1 (mamba, falcon_mamba)
@st.composite
def mamba1(draw) -> dict:
    """MambaConfig / FalconMambaConfig: intermediate_size = expand × hidden_size unless the key itself
    is given (an explicit intermediate_size wins: it is set after __post_init__ computes it)."""
    config = {
        "vocab_size": draw(st.integers(4, 300)),
        "hidden_size": draw(st.integers(1, 64)),
        "num_hidden_layers": draw(st.integers(1, 4)),
        "state_size": draw(st.integers(1, 16)),
        "conv_kernel": draw(st.integers(2, 4)),
        "expand": draw(st.integers(1, 3)),
        "use_bias": draw(booleans),
        "use_conv_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
    }
    if draw(booleans):
        config["intermediate_size"] = draw(st.integers(1, 96))  # overrides expand × hidden_size
    rank = draw(st.sampled_from(["absent", "auto", "int"]))
    if rank == "auto":
        config["time_step_rank"] = "auto"  # ceil(hidden_size / 16)
    elif rank == "int":
        config["time_step_rank"] = draw(st.integers(1, 16))
    return config


# --------------------------------------------------------------------------- Mamba 2 mixer keys
@st.composite
def _ssd_heads(draw, hidden: int, expand: int) -> tuple[int, int, int]:
    """(heads, head_dim, groups) with heads × head_dim = expand × hidden and groups | heads."""
    inner = expand * hidden
    heads = draw(st.sampled_from(_divisors(inner, 16)))
    groups = draw(st.sampled_from(_divisors(heads)))
    return heads, inner // heads, groups


@st.composite
def mamba2(draw) -> dict:
    expand = draw(st.integers(1, 2))
    hidden = draw(st.integers(1, 32))
    heads, head_dim, groups = draw(_ssd_heads(hidden, expand))
    return {
        "vocab_size": draw(st.integers(4, 300)),
        "hidden_size": hidden,
        "num_hidden_layers": draw(st.integers(1, 4)),
        "expand": expand,
        "num_heads": heads,
        "head_dim": head_dim,
        "n_groups": groups,
        "state_size": draw(st.integers(1, 16)),
        "conv_kernel": draw(st.integers(2, 4)),
        "chunk_size": draw(st.sampled_from([4, 8, 16])),
        "use_bias": draw(booleans),
        "use_conv_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
        # Mamba2Config resolves it (ceil(hidden / 16)) but Mamba2Mixer never uses it for a shape.
        "time_step_rank": draw(st.one_of(st.just("auto"), st.integers(1, 16))),
    }


@st.composite
def _mamba_prefixed(draw, hidden: int) -> dict:
    """The mamba_* keys of BambaConfig and GraniteMoeHybridConfig (intermediate = mamba_expand × hidden)."""
    expand = draw(st.integers(1, 2))
    heads, head_dim, groups = draw(_ssd_heads(hidden, expand))
    config = {
        "mamba_expand": expand,
        "mamba_n_heads": heads,
        "mamba_n_groups": groups,
        "mamba_d_state": draw(st.integers(1, 16)),
        "mamba_d_conv": draw(st.integers(2, 4)),
        "mamba_chunk_size": draw(st.sampled_from([4, 8, 16])),
        "mamba_conv_bias": draw(booleans),
        "mamba_proj_bias": draw(booleans),
    }
    if draw(booleans):  # else "auto": mamba_expand × hidden_size // mamba_n_heads
        config["mamba_d_head"] = head_dim
    return config


@st.composite
def _attention(draw, *, head_dim_key: bool = True, head_dims: tuple[int, ...] = (2, 4, 8, 16)) -> dict:
    """Heads, KV heads and (optionally) an explicit head_dim; hidden_size a multiple of the heads."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
        "hidden_size": heads * draw(st.sampled_from(head_dims)),
    }
    if head_dim_key and draw(booleans):
        # Neither BambaConfig nor GraniteMoeHybridConfig declares head_dim, but their attention reads
        # getattr(config, "head_dim", hidden // heads): the key changes q/k/v/o.
        config["head_dim"] = draw(st.sampled_from(head_dims))
    return config


# --------------------------------------------------------------------------- Bamba
@st.composite
def bamba(draw) -> dict:
    # BambaConfig hardcodes partial_rotary_factor 0.5: a head_dim of 4k keeps the rotary channels even
    # (an odd count makes transformers' keys one channel wider than k_proj's output in a forward pass).
    config = draw(_attention(head_dims=(4, 8, 16)))
    layers = draw(st.integers(1, 6))
    config.update(draw(_mamba_prefixed(config["hidden_size"])))
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "intermediate_size": draw(st.integers(1, 96)),
        "attention_bias": draw(booleans),
        "mlp_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
    })
    choice = draw(st.sampled_from(["absent", "none", "list"]))
    if choice == "none":
        config["attn_layer_indices"] = None
    elif choice == "list":
        # An index >= num_hidden_layers is silently ignored by BambaConfig.layers_block_type.
        config["attn_layer_indices"] = draw(st.lists(st.integers(0, layers), unique=True, min_size=1,
                                                     max_size=layers))
    return config


# --------------------------------------------------------------------------- Nemotron-H
NEMOTRON_LETTERS = {"M": "linear_attention", "*": "full_attention", "-": "mlp", "E": "moe"}
NEMOTRON_LEGACY = {"linear_attention": "mamba", "full_attention": "attention"}  # remapped by PreTrainedConfig


@st.composite
def _nemotron_router(draw) -> dict:
    experts = draw(st.integers(2, 8))
    # A group must hold >= 2 experts: NemotronHTopkRouter sums each group's top-2 scores.
    group = draw(st.sampled_from([g for g in _divisors(experts) if experts // g >= 2]))
    topk_group = draw(st.integers(1, group))
    return {"n_routed_experts": experts, "n_group": group, "topk_group": topk_group,
            "num_experts_per_tok": draw(st.integers(1, topk_group * (experts // group)))}


@st.composite
def nemotron_h(draw) -> dict:
    config = draw(_attention(head_dim_key=False))
    config["head_dim"] = draw(st.sampled_from([2, 4, 8, 16]))  # NemotronHConfig declares 128
    letters = draw(st.lists(st.sampled_from("M*-E"), min_size=1, max_size=6))
    spelling = draw(st.sampled_from(["hybrid_override_pattern", "layers_block_type", "legacy"]))
    if spelling == "hybrid_override_pattern":
        config["hybrid_override_pattern"] = "".join(letters)
    else:
        kinds = [NEMOTRON_LETTERS[letter] for letter in letters]
        if spelling == "legacy":
            kinds = [NEMOTRON_LEGACY.get(kind, kind) for kind in kinds]
        config["layers_block_type"] = kinds
    if draw(booleans):  # deprecated and ignored when it disagrees (a warning): the pattern's length wins
        config["num_hidden_layers"] = draw(st.integers(1, 6))
    heads = draw(st.integers(1, 8))
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        # The Mamba2 width is mamba_num_heads × mamba_head_dim, not expand × hidden_size.
        "mamba_num_heads": heads,
        "mamba_head_dim": draw(st.integers(1, 8)),
        "n_groups": draw(st.sampled_from(_divisors(heads))),
        "ssm_state_size": draw(st.integers(1, 16)),
        "conv_kernel": draw(st.integers(2, 4)),
        "chunk_size": draw(st.sampled_from([4, 8, 16])),
        "expand": draw(st.integers(1, 4)),  # read by nothing that has a shape
        "intermediate_size": draw(st.integers(1, 96)),
        "moe_intermediate_size": draw(st.integers(1, 32)),
        "moe_shared_expert_intermediate_size": draw(st.integers(1, 32)),
        "moe_latent_size": draw(st.one_of(st.none(), st.integers(1, 16))),
        "n_shared_experts": draw(st.integers(0, 2)),  # never read: there is always one shared MLP
        "use_bias": draw(booleans),
        "use_conv_bias": draw(booleans),
        "mlp_bias": draw(booleans),
        "attention_bias": draw(booleans),  # never read: q/k/v/o are bias=False
        "tie_word_embeddings": draw(booleans),  # _tied_weights_keys = {}: never tied
        "num_nextn_predict_layers": draw(st.integers(0, 1)),  # MTP layers are not built
    })
    config.update(draw(_nemotron_router()))
    return config


# --------------------------------------------------------------------------- GraniteMoeHybrid
@st.composite
def granitemoehybrid(draw) -> dict:
    config = draw(_attention())
    layers = draw(st.integers(1, 6))
    config.update(draw(_mamba_prefixed(config["hidden_size"])))
    experts = draw(st.integers(0, 8))  # 0: no block_sparse_moe (Granite 4.0 micro / h-micro are dense)
    config.update({
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "num_local_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)) if experts else 0,
        "intermediate_size": draw(st.integers(1, 32)),  # each routed expert's width
        "shared_intermediate_size": draw(st.integers(1, 48)),  # the shared MLP, in every layer
        "attention_bias": draw(booleans),
        "tie_word_embeddings": draw(booleans),
        "position_embedding_type": draw(st.sampled_from([None, "nope", "rope"])),
    })
    spelling = draw(st.sampled_from(["absent", "legacy", "current", "layers_block_type"]))
    if spelling != "absent":  # absent: every layer Mamba
        names = {"legacy": ("mamba", "attention")}.get(spelling, ("linear_attention", "full_attention"))
        key = "layers_block_type" if spelling == "layers_block_type" else "layer_types"
        config[key] = draw(st.lists(st.sampled_from(names), min_size=layers, max_size=layers))
    return config


def runs_with_cache(config: dict) -> bool:
    """Whether transformers 5.24.0 can run ``config`` forward with ``use_cache=True``.

    A bamba, nemotron_h or granitemoehybrid config with no full-attention layer builds (and is
    counted) like any other; BambaConfig's and GraniteMoeHybridConfig's own defaults are all Mamba.
    But its forward pass with a cache fails in create_causal_mask, already at the prefill: the
    DynamicCache holds only LinearAttentionLayer/DummyLayer entries and Cache.get_seq_length raises
    ValueError("`get_seq_length` can only be called on Attention layers ...").  A forward-pass
    test draws from CONFIGS_A and ``assume(runs_with_cache(config))``; it also builds the model
    with ``experts_implementation="eager"`` (the default grouped_mm on CPU wants 16-byte strides,
    which tiny expert widths do not have)."""
    model_type = config["model_type"]
    if model_type in ("mamba", "falcon_mamba", "mamba2"):
        return True
    if model_type == "bamba":
        indices = config.get("attn_layer_indices") or []
        return any(0 <= i < config["num_hidden_layers"] for i in indices)
    if model_type == "nemotron_h":
        kinds = config.get("layers_block_type")
        if kinds is None:
            return "*" in config["hybrid_override_pattern"]
        return any(kind in ("full_attention", "attention") for kind in kinds)
    kinds = config.get("layer_types") or config.get("layers_block_type") or []
    return any(kind in ("full_attention", "attention") for kind in kinds)


CONFIGS_A: dict[str, st.SearchStrategy] = {
    "mamba": _typed("mamba", mamba1()),
    "falcon_mamba": _typed("falcon_mamba", mamba1()),
    "mamba2": _typed("mamba2", mamba2()),
    "bamba": _typed("bamba", bamba()),
    "nemotron_h": _typed("nemotron_h", nemotron_h()),
    "granitemoehybrid": _typed("granitemoehybrid", granitemoehybrid()),
}
