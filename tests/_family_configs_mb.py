"""Hypothesis strategies: random small configs for the families of set MB (MobileBERT, LUKE), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from _family_configs_h import bert
from hypothesis import strategies as st

CONFIGS_MB: dict[str, st.SearchStrategy] = {}


@st.composite
def mobilebert(draw) -> dict:
    """MobileBertConfig: BERT's keys (pad_token_id 0 inside the small vocabulary), a token table no wider than the
    layers (the head's dense is hidden_size - embedding_size rows: 0 at equal widths), the 3-gram input on or off,
    the bottleneck switches (a bottleneck at least as wide as the heads), one to three FFNs, NoNorm or LayerNorm."""
    config = draw(bert())
    config.pop("is_decoder")
    heads, hidden = config["num_attention_heads"], config["hidden_size"]
    config.update({"embedding_size": draw(st.integers(1, hidden)), "trigram_input": draw(booleans),
                   "use_bottleneck": draw(booleans), "intra_bottleneck_size": heads * draw(st.integers(1, 4)),
                   "use_bottleneck_attention": draw(booleans), "key_query_shared_bottleneck": draw(booleans),
                   "num_feedforward_networks": draw(st.integers(1, 3)),
                   "normalization_type": draw(st.sampled_from(["no_norm", "layer_norm"]))})
    return config


@st.composite
def luke(draw) -> dict:
    """LukeConfig: BERT's keys (heads divide the width: LukeSelfAttention refuses others), an entity vocabulary of
    at least one row (its table's padding_idx is 0), its width the layers' (no entity_embedding_dense) or another,
    the entity-aware queries on or off, tying (the entity decoder and the LM head's bias only)."""
    config = draw(bert())
    config.pop("is_decoder")
    hidden = config["hidden_size"]
    config.update({"entity_vocab_size": draw(st.integers(1, 60)),
                   "entity_emb_size": draw(st.one_of(st.just(hidden), st.integers(1, 24))),
                   "use_entity_aware_attention": draw(booleans)})
    return config


CONFIGS_MB.update({"mobilebert": _typed("mobilebert", mobilebert()), "luke": _typed("luke", luke())})
