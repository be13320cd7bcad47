"""Hypothesis strategies: random small configs for the encoders of issue #17 (masked-LM families), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed, bert_generation
from hypothesis import strategies as st


@st.composite
def bert(draw) -> dict:
    """BertConfig: BertGeneration's sizes (its strategy) and a token-type table of any rows (0: an empty one, as
    BertEmbeddings builds it); is_decoder changes no tensor."""
    config = draw(bert_generation())
    config.update({"type_vocab_size": draw(st.integers(0, 4)), "is_decoder": draw(st.booleans()),
                   "tie_word_embeddings": draw(st.booleans())})
    return config


# RoBERTa's code (families/roberta.py) reads BertConfig's keys: BERT's strategy, each under its own model_type
ROBERTA_TYPES = ("roberta", "data2vec-text", "roberta-prelayernorm", "xlm-roberta-xl")

CONFIGS_H: dict[str, st.SearchStrategy] = {"bert": _typed("bert", bert()),
                                           **{model_type: _typed(model_type, bert()) for model_type in ROBERTA_TYPES}}
