"""Hypothesis strategies: random small configs for set FU's encoder (issue "Encoders and encoder-decoders"), typed
here in FunnelConfig's own keys (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def funnel(draw) -> dict:
    """FunnelConfig: one to three blocks (a block of 0 layers builds an empty list), block_repeats as many or left
    to the class, 0 to 2 decoder layers, d_head free of d_model / n_head, both pooling and attention kinds, d_model
    and n_head or their attribute_map names (hidden_size, num_attention_heads)."""
    blocks = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3))
    decoder = draw(st.integers(0 if sum(blocks) else 1, 2))
    config = {"model_type": "funnel", "vocab_size": draw(st.integers(4, 300)), "block_sizes": blocks,
              "num_decoder_layers": decoder, "d_model": draw(st.integers(1, 24)), "n_head": draw(st.integers(1, 4)),
              "d_head": draw(st.integers(1, 8)), "d_inner": draw(st.integers(1, 48)),
              "pooling_type": draw(st.sampled_from(["mean", "max"])),
              "attention_type": draw(st.sampled_from(["relative_shift", "factorized"])),
              "tie_word_embeddings": draw(booleans)}
    for key, alias in (("d_model", "hidden_size"), ("n_head", "num_attention_heads")):  # attribute_map's names
        if draw(booleans):
            config[alias] = config.pop(key)
    if draw(booleans):
        config["block_repeats"] = draw(st.lists(st.integers(1, 3), min_size=len(blocks), max_size=len(blocks)))
    return config


CONFIGS_FU = {"funnel": funnel()}
