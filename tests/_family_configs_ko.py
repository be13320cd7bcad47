"""Hypothesis strategies: random small configs for the whole multimodal families of set KO (issue #16: Kosmos-2),
typed here.  Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_l import whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def kosmos2_text(draw) -> dict:
    """Kosmos2TextConfig, its own key names: heads dividing embed_dim (KosmosTextAttention refuses the rest), at
    least 4 wide (the sinusoid divides by embed_dim / 2 - 1), the table's rows, tying, the pad row either way."""
    heads = draw(st.integers(1, 4))
    config = {"vocab_size": draw(st.integers(4, 300)), "embed_dim": heads * draw(st.integers(1, 6)),
              "attention_heads": heads, "layers": draw(st.integers(1, 3)), "ffn_dim": draw(st.integers(1, 32)),
              "max_position_embeddings": draw(st.integers(1, 64)), "tie_word_embeddings": draw(booleans),
              "scale_embedding": draw(booleans), "pad_token_id": draw(st.sampled_from([None, 0, 1, 3]))}
    if config["embed_dim"] < 4:
        config["embed_dim"] = 4 * heads
    return config


CONFIGS_KO: dict[str, st.SearchStrategy] = {
    "kosmos-2": whole("kosmos-2", "kosmos_2_text_model", kosmos2_text(), vit("kosmos_2_vision_model"),
                      latent_query_num=st.integers(1, 8)),
}
