"""Hypothesis strategies: random small configs for set RF's encoder (reformer, issues #15 and #17), typed here in
ReformerConfig's own keys (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def reformer(draw) -> dict:
    """ReformerConfig: one to four layers of either attention kind, attention_head_size free of hidden / heads, axial
    encodings (two axes whose dims sum to hidden_size, their product the position count) or a plain table, the
    decoder (ReformerModelWithLMHead: no later chunks) or not (ReformerForMaskedLM), tie_word_embeddings either way."""
    hidden = draw(st.integers(2, 24))
    first = draw(st.integers(1, hidden - 1))
    rows, columns = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    axial = draw(booleans)
    decoder = draw(booleans)
    config = {"model_type": "reformer", "vocab_size": draw(st.integers(4, 300)), "hidden_size": hidden,
              "num_attention_heads": draw(st.integers(1, 4)), "attention_head_size": draw(st.integers(1, 8)),
              "feed_forward_size": draw(st.integers(1, 48)),
              "attn_layers": draw(st.lists(st.sampled_from(["local", "lsh"]), min_size=1, max_size=4)),
              "axial_pos_embds": axial, "is_decoder": decoder, "tie_word_embeddings": draw(booleans),
              "max_position_embeddings": rows * columns if axial else draw(st.integers(1, 64))}
    if axial:
        config.update(axial_pos_shape=[rows, columns], axial_pos_embds_dim=[first, hidden - first])
    if not decoder and draw(booleans):  # the masked LM may look at later chunks
        config.update(local_num_chunks_after=draw(st.integers(0, 2)), lsh_num_chunks_after=draw(st.integers(0, 2)))
    return config


CONFIGS_RF = {"reformer": reformer()}
