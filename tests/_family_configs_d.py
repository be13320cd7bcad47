"""Hypothesis strategies: random small configs for the decoder families of set D (issue #15).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style)
and is typed here already (model_type set).  Every switch the config has is drawn, keys that change no
count too; sizes stay tiny (vocab <= 300, hidden <= 64, layers <= 6).  docs/notes/coverage-set-d.md has
what each transformers class builds."""

from __future__ import annotations

from hypothesis import strategies as st

from paramledger import families

booleans = st.booleans()
LINEAR, FULL = "linear_attention", "full_attention"


def _typed(model_type: str, strategy: st.SearchStrategy) -> st.SearchStrategy:
    return strategy.map(lambda config: {"model_type": model_type, "pad_token_id": 0, **config})


@st.composite
def _sizes(draw, kv: bool = True, head_dim: st.SearchStrategy | None = None) -> dict:
    """vocab, heads (and KV heads dividing them), a width the heads divide, tying; ``head_dim`` drawn when given."""
    heads = draw(st.sampled_from([1, 2, 4, 8]))
    config = {"vocab_size": draw(st.integers(4, 300)), "num_attention_heads": heads,
              "hidden_size": heads * draw(st.sampled_from([2, 4, 8])), "tie_word_embeddings": draw(booleans)}
    if kv:
        config["num_key_value_heads"] = draw(st.sampled_from([k for k in (1, 2, 4, 8) if heads % k == 0]))
    if head_dim is not None:
        config["head_dim"] = draw(head_dim)
    return config


@st.composite
def minimax(draw) -> dict:
    """Mixtral's keys, lightning layers where layer_types says "linear_attention" (or MiniMaxConfig's pattern),
    block_size (the lightning buffers' size) and the six residual factors (no parameters)."""
    config = draw(_sizes(head_dim=st.one_of(st.none(), st.sampled_from([2, 4, 8]))))
    layers, experts = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    config.update({
        "num_hidden_layers": layers,
        "intermediate_size": draw(st.integers(1, 64)),
        "num_local_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)),
        "sliding_window": draw(st.one_of(st.none(), st.integers(1, 64))),
        "block_size": draw(st.integers(1, 16)),
        "router_jitter_noise": draw(st.sampled_from([0.0, 0.01])),
        **{f"{which}_{factor}_factor": draw(st.sampled_from([1, 0.5]))
           for which in ("full_attn", "linear_attn", "mlp") for factor in ("alpha", "beta")},
    })
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from([LINEAR, FULL]), min_size=layers, max_size=layers))
    return config


@st.composite
def bert_generation(draw) -> dict:
    """BERT's sizes (heads divide the width: BertGenerationSelfAttention refuses others), learned positions,
    tying; is_decoder (the causal mask and the cache only), dropouts and the activation change no count."""
    config = draw(_sizes(kv=False))
    config.update({
        "num_hidden_layers": draw(st.integers(1, 6)),
        "intermediate_size": draw(st.integers(1, 64)),
        "max_position_embeddings": draw(st.integers(1, 64)),
        "is_decoder": True,  # False: no cache at all (BertGenerationEncoder caches only as a decoder)
        "hidden_act": draw(st.sampled_from(["gelu", "relu"])),
        "hidden_dropout_prob": draw(st.sampled_from([0.0, 0.1])),
        "attention_probs_dropout_prob": draw(st.sampled_from([0.0, 0.1])),
    })
    return config


@st.composite
def zaya(draw) -> dict:
    """CCA attention (both kernels; head_dim even: two value halves), the MLP router over num_experts + a skip
    expert (top-1 only: ZayaConfig refuses others), biases, the head's bias, hybrid and sliding layers."""
    config = draw(_sizes(head_dim=st.sampled_from([4, 8])))  # RoPE turns half of it: an even number of channels
    layers = draw(st.integers(1, 4))
    config.update({
        "num_hidden_layers": layers,
        "moe_intermediate_size": draw(st.integers(1, 32)),
        "num_experts": draw(st.integers(1, 4)),
        "num_experts_per_tok": 1,
        "router_hidden_size": draw(st.integers(1, 16)),
        "cca_time0": draw(st.integers(1, 3)),
        "cca_time1": draw(st.integers(1, 3)),
        "attention_bias": draw(booleans),
        "lm_head_bias": draw(booleans),
        "hidden_act": draw(st.sampled_from(["silu", "gelu"])),
    })
    if draw(booleans):  # "hybrid_sliding" needs a window (validate_architecture)
        config["layer_types"] = draw(st.lists(st.sampled_from(["hybrid", "hybrid_sliding"]), min_size=layers,
                                              max_size=layers))
        config["sliding_window"] = draw(st.integers(1, 64))
    return config


@st.composite
def dory(draw) -> dict:
    """nGPT on the sphere: an input, a recurrent and an output section adding up to the layers, loops and the
    recurrent cache mode (KV cache and FLOPs only), sliding and full layers, biases."""
    config = draw(_sizes(head_dim=st.sampled_from([2, 4, 8])))
    inputs, recurrent, outputs = draw(st.integers(0, 2)), draw(st.integers(0, 2)), draw(st.integers(0, 2))
    layers = max(inputs + recurrent + outputs, 1)
    config.update({
        "num_hidden_layers": layers, "n_input_layers": inputs, "n_output_layers": outputs,
        "n_recurrent_layers": layers - inputs - outputs,
        "n_recurrent_loops": draw(st.integers(1, 3)),
        "recurrent_kv_cache_mode": draw(st.sampled_from(["per_loop", "last_loop"])),
        "intermediate_size": draw(st.integers(1, 32)),
        "attention_bias": draw(booleans),
        "mlp_bias": draw(booleans),
        "sliding_window": draw(st.integers(1, 64)),
        "ngpt_alpha_init": draw(st.sampled_from([0.05, 0.1])),
    })
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(["sliding_attention", FULL]), min_size=layers,
                                              max_size=layers))
    return config


@st.composite
def modernbert_decoder(draw) -> dict:
    """Every bias switch (norms, attention, FFN, the head's dense, the decoder), tying, the local window (halved
    into sliding_window) and the global-layer period; activations and special token ids change no count."""
    config = draw(_sizes(kv=False))
    config.update({
        "num_hidden_layers": draw(st.integers(1, 6)),
        "intermediate_size": draw(st.integers(1, 32)),
        **{key: draw(booleans) for key in ("norm_bias", "attention_bias", "mlp_bias", "decoder_bias",
                                           "classifier_bias")},
        "local_attention": draw(st.sampled_from([2, 4, 8, 16, 64])),
        "global_attn_every_n_layers": draw(st.integers(1, 3)),
        "hidden_activation": draw(st.sampled_from(["gelu", "silu"])),
        "classifier_activation": draw(st.sampled_from(["gelu", "relu"])),
        **dict.fromkeys(("bos_token_id", "eos_token_id", "cls_token_id", "sep_token_id"), 0),
    })
    return config


@st.composite
def hrm_text(draw) -> dict:
    """Two stacks of num_hidden_layers (read as layers per stack: the config then inflates it to the cache
    slots), the cycles (cache and FLOPs only), the gated attention's and the FFN's biases, tying."""
    config = draw(_sizes(kv=False, head_dim=st.sampled_from([2, 4, 8])))
    config.update({
        "num_hidden_layers": draw(st.integers(1, 3)),
        "intermediate_size": draw(st.integers(1, 32)),
        "H_cycles": draw(st.integers(1, 3)),
        "L_cycles": draw(st.integers(1, 3)),
        "attention_bias": draw(booleans),
        "mlp_bias": draw(booleans),
        "prefix_lm": draw(booleans),
        "embedding_scale": draw(st.sampled_from([None, 2.0])),
    })
    return config


@st.composite
def longcat_flash(draw) -> dict:
    """Two MLA sublayers and two FFNs per layer, the shortcut MoE with zero-compute experts beside at least one
    computing one (with none the class builds the router alone but cannot run), top-2 or more (LongcatFlashExperts
    squeezes the top-k axis away at top-1 and fails), the attention biases and the router's; head_dim is the rotary
    width, which the forward pass needs equal to qk_rope_head_dim."""
    config = draw(_sizes(kv=False))
    computing = draw(st.integers(1, 4))
    zero = draw(st.integers(0 if computing > 1 else 1, 2))
    scored = computing + zero
    rope = draw(st.sampled_from([2, 4]))
    config.update({
        "num_layers": draw(st.integers(1, 2)),
        "ffn_hidden_size": draw(st.integers(1, 32)),
        "q_lora_rank": draw(st.integers(1, 16)),
        "kv_lora_rank": draw(st.integers(1, 16)),
        "qk_nope_head_dim": draw(st.integers(1, 8)),
        "qk_rope_head_dim": rope, "head_dim": rope,
        "v_head_dim": draw(st.integers(1, 8)),
        "n_routed_experts": computing, "zero_expert_num": zero,
        "moe_topk": draw(st.integers(2, scored)),
        "expert_ffn_hidden_size": draw(st.integers(1, 16)),
        "attention_bias": draw(booleans),
        "router_bias": draw(booleans),
        "routed_scaling_factor": draw(st.sampled_from([1.0, 6.0])),
    })
    return config


@st.composite
def gemma4_assistant(draw) -> dict:
    """A Gemma 4 text decoder every layer of which reads the main model's keys and values (no per-layer inputs, no
    MoE block, no double-wide FFN: the class refuses them), the backbone width its projections map from and to,
    and the ordered embeddings' centroids (a count of them dividing the vocabulary)."""
    text = draw(_sizes(head_dim=st.sampled_from([2, 4, 8])))
    layers = draw(st.integers(1, 4))
    centroids = draw(st.sampled_from([1, 2, 4]))
    text.update({
        "model_type": "gemma4_text", "num_hidden_layers": layers, "intermediate_size": draw(st.integers(1, 32)),
        "vocab_size": centroids * draw(st.integers(1, 64)), "global_head_dim": draw(st.sampled_from([2, 4, 8])),
        "sliding_window": draw(st.integers(1, 64)), "hidden_size_per_layer_input": 0,
        "vocab_size_per_layer_input": 0, "layer_types": draw(st.lists(st.sampled_from(["sliding_attention", FULL]),
                                                                      min_size=layers, max_size=layers)),
    })
    tie = text.pop("tie_word_embeddings")
    return {"text_config": text, "tie_word_embeddings": tie, "backbone_hidden_size": draw(st.integers(1, 32)),
            "use_ordered_embeddings": draw(booleans), "num_centroids": centroids,
            "centroid_intermediate_top_k": draw(st.integers(1, centroids))}


_STRATEGIES = {"minimax": minimax, "bert-generation": bert_generation, "zaya": zaya, "dory": dory,
               "modernbert-decoder": modernbert_decoder, "hrm_text": hrm_text, "longcat_flash": longcat_flash,
               "gemma4_assistant": gemma4_assistant}
# Each strategy is written ahead of its family (docs/notes/coverage-set-d.md says what each still needs); a family
# that is not registered yet (minimax until MIXER_MODULES lists lightning, ...) gets its strategy once it is.
CONFIGS_D: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items() if families.get(model_type)}
