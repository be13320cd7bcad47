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


@st.composite
def ernie(draw) -> dict:
    """ErnieConfig: BERT's keys; task_type_vocab_size changes nothing without use_task_id (refused)."""
    config = draw(bert())
    config.update(task_type_vocab_size=draw(st.integers(0, 4)), use_task_id=draw(st.booleans()))
    return config


@st.composite
def distilbert(draw) -> dict:
    """DistilBertConfig: BERT's sizes under its own names (dim, n_layers, n_heads, hidden_dim, activation), or
    Hugging Face's where its attribute_map takes them; sinusoidal positions fill the table, which stays a weight."""
    config = draw(bert())
    sizes = {"dim": config.pop("hidden_size"), "n_layers": config.pop("num_hidden_layers"),
             "n_heads": config.pop("num_attention_heads")}
    if draw(st.booleans()):
        sizes = dict(zip(("hidden_size", "num_hidden_layers", "num_attention_heads"), sizes.values()))
    for key in ("type_vocab_size", "is_decoder", "hidden_dropout_prob", "attention_probs_dropout_prob"):
        config.pop(key)
    config.update(sizes, hidden_dim=config.pop("intermediate_size"), activation=config.pop("hidden_act"),
                  sinusoidal_pos_embds=draw(st.booleans()))
    return config


@st.composite
def mpnet(draw) -> dict:
    """MPNetConfig: BERT's sizes without a token-type table, and the encoder's relative-position buckets."""
    config = draw(bert())
    for key in ("type_vocab_size", "is_decoder"):
        config.pop(key)
    # MPNetEmbeddings pads its position table at row 1 whatever pad_token_id says: at least two rows
    config.update(relative_attention_num_buckets=draw(st.integers(1, 40)),
                  max_position_embeddings=draw(st.integers(2, 64)))
    return config


@st.composite
def electra(draw) -> dict:
    """ElectraConfig: BERT's keys and the tables' own width (equal to hidden_size: no projection)."""
    config = draw(bert())
    config["embedding_size"] = draw(st.sampled_from([config["hidden_size"], 1, 2, 3, 8, 16]))
    return config


@st.composite
def big_bird(draw) -> dict:
    """BigBirdConfig: BERT's keys, q/k/v biases by use_bias, either attention (the same projections)."""
    config = draw(bert())
    config.update(use_bias=draw(st.booleans()),
                  attention_type=draw(st.sampled_from(["block_sparse", "original_full"])))
    return config


# RoBERTa's code (families/roberta.py) and Megatron-BERT's read BertConfig's keys: BERT's strategy, each under
# its own model_type
ROBERTA_TYPES = ("roberta", "xlm-roberta", "camembert", "data2vec-text", "roberta-prelayernorm", "xlm-roberta-xl",
                 "megatron-bert")

CONFIGS_H: dict[str, st.SearchStrategy] = {"bert": _typed("bert", bert()),
                                           **{model_type: _typed(model_type, bert()) for model_type in ROBERTA_TYPES},
                                           "ernie": _typed("ernie", ernie()),
                                           "big_bird": _typed("big_bird", big_bird()),
                                           "electra": _typed("electra", electra())}
CONFIGS_H.update({"distilbert": _typed("distilbert", distilbert()),
                  "yoso": _typed("yoso", bert()), "mra": _typed("mra", bert()),
                  "mpnet": _typed("mpnet", mpnet())})  # the masked-LM-only types (families' MASKED_LM_ONLY)
