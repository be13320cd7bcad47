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
def minimax(draw) -> dict:
    """Mixtral's keys, lightning layers where layer_types says "linear_attention" (or MiniMaxConfig's pattern),
    block_size (the lightning buffers' size) and the six residual factors (no parameters)."""
    heads = draw(st.sampled_from([1, 2, 4, 8]))
    layers = draw(st.integers(1, 6))
    experts = draw(st.integers(1, 4))
    config = {
        "vocab_size": draw(st.integers(4, 300)),
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4, 8) if heads % k == 0])),
        "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
        "head_dim": draw(st.one_of(st.none(), st.sampled_from([2, 4, 8]))),
        "intermediate_size": draw(st.integers(1, 64)),
        "num_local_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)),
        "tie_word_embeddings": draw(booleans),
        "sliding_window": draw(st.one_of(st.none(), st.integers(1, 64))),
        "block_size": draw(st.integers(1, 16)),
        "router_jitter_noise": draw(st.sampled_from([0.0, 0.01])),
        **{f"{which}_{factor}_factor": draw(st.sampled_from([1, 0.5]))
           for which in ("full_attn", "linear_attn", "mlp") for factor in ("alpha", "beta")},
    }
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from([LINEAR, FULL]), min_size=layers, max_size=layers))
    return config


@st.composite
def bert_generation(draw) -> dict:
    """BERT's sizes (heads divide the width: BertGenerationSelfAttention refuses others), learned positions,
    tying; is_decoder (the causal mask and the cache only), dropouts and the activation change no count."""
    heads = draw(st.sampled_from([1, 2, 4, 8]))
    return {
        "vocab_size": draw(st.integers(4, 300)),
        "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
        "num_hidden_layers": draw(st.integers(1, 6)),
        "num_attention_heads": heads,
        "intermediate_size": draw(st.integers(1, 64)),
        "max_position_embeddings": draw(st.integers(1, 64)),
        "tie_word_embeddings": draw(booleans),
        "is_decoder": True,  # False: no cache at all (BertGenerationEncoder caches only as a decoder)
        "hidden_act": draw(st.sampled_from(["gelu", "relu"])),
        "hidden_dropout_prob": draw(st.sampled_from([0.0, 0.1])),
        "attention_probs_dropout_prob": draw(st.sampled_from([0.0, 0.1])),
    }


_STRATEGIES = {"minimax": minimax, "bert-generation": bert_generation}
# A family registered only once its mixer is listed in MIXER_MODULES (minimax: lightning) gets its strategy then.
CONFIGS_D: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items() if families.get(model_type)}
