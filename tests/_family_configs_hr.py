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


_STRATEGIES = {"hrm_text": hrm_text}
CONFIGS_HR: dict[str, st.SearchStrategy] = {model_type: strategy() for model_type, strategy in _STRATEGIES.items()
                                            if families.get(model_type)}
