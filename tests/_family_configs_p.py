"""Hypothesis strategies: random small configs for the families of set P (masked-LM encoders), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

import math

from _family_configs_d import _typed, booleans
from _family_configs_h import bert
from hypothesis import strategies as st

CONFIGS_P: dict[str, st.SearchStrategy] = {}


@st.composite
def fnet(draw) -> dict:
    """FNetConfig: BERT's keys without heads (the Fourier transform has none); the TPU path stays off (its DFT
    buffers are not listed: docs/notes/encoders-p.md)."""
    config = draw(bert())
    for key in ("num_attention_heads", "is_decoder", "attention_probs_dropout_prob"):
        config.pop(key)
    config.update(use_tpu_fourier_optimizations=False, tpu_short_seq_length=draw(st.integers(1, 64)),
                  hidden_act=draw(st.sampled_from(["gelu_new", "relu"])))
    return config


CONFIGS_P["fnet"] = _typed("fnet", fnet())


@st.composite
def albert(draw) -> dict:
    """AlbertConfig: BERT's sizes with the tables' own width (equal to hidden_size or not), the shared groups (the
    layers that hold tensors) and the steps run through them (any number: no tensor of their own), one layer a
    group."""
    config = draw(bert())
    config.pop("is_decoder")
    config.update(embedding_size=draw(st.sampled_from([config["hidden_size"], 1, 3, 8])),
                  num_hidden_groups=draw(st.integers(1, 4)), num_hidden_layers=draw(st.integers(1, 12)),
                  inner_group_num=1, classifier_dropout_prob=draw(st.sampled_from([0.0, 0.1])))
    return config


CONFIGS_P["albert"] = _typed("albert", albert())


@st.composite
def roformer(draw) -> dict:
    """RoFormerConfig: BERT's keys, the tables' own width (equal to hidden_size or not; unset: hidden_size), the
    rotary values' switch, cross-attention where it is a decoder."""
    config = draw(bert())
    config.update(embedding_size=draw(st.sampled_from([None, config["hidden_size"], 1, 3, 8])),
                  rotary_value=draw(booleans))
    config["add_cross_attention"] = config["is_decoder"] and draw(booleans)
    return config


@st.composite
def deberta(draw) -> dict:
    """DebertaConfig: BERT's sizes, token types only for type_vocab_size > 0, a position table only with
    position_biased_input, relative attention (its table's rows by max_relative_positions, its projections by
    pos_att_type as a string or a list), talking heads, the tables as wide as the layers (given or not)."""
    config = draw(bert())
    config.pop("is_decoder")
    config.update(type_vocab_size=draw(st.integers(0, 3)), position_biased_input=draw(booleans),
                  relative_attention=draw(booleans), talking_head=draw(booleans), legacy=True,
                  pos_att_type=draw(st.sampled_from([None, "p2c|c2p", "c2p", ["p2c"], ["c2p", "p2c"], []])),
                  max_relative_positions=draw(st.sampled_from([-1, 1, 8])))
    if draw(booleans):
        config["embedding_size"] = config["hidden_size"]
    return config


@st.composite
def nystromformer(draw) -> dict:
    """NystromformerConfig: BERT's keys, the values' convolution kernel (odd or even), the landmarks' keys
    (inv_coeff_init_option stays false: NystromformerSelfAttention then indexes the config as a dict, and
    transformers 5.24.0 cannot build the model)."""
    config = draw(bert())
    config.update(conv_kernel_size=draw(st.integers(1, 9)), num_landmarks=draw(st.sampled_from([1, 4, 64])),
                  segment_means_seq_len=draw(st.sampled_from([4, 64])), inv_coeff_init_option=False,
                  add_cross_attention=draw(booleans))
    return config


@st.composite
def xmod(draw) -> dict:
    """XmodConfig: BERT's keys, the languages (none, one, several, repeated), the bottleneck's factor (a positive
    width), the adapters' own norm, pre_norm, the keys that choose which norm is read, cross-attention where it is a
    decoder."""
    config = draw(bert())
    config.update(languages=draw(st.lists(st.sampled_from(["en_XX", "de_DE", "ar_AR", "zh_CN"]), max_size=4)),
                  adapter_reduction_factor=draw(st.integers(1, config["hidden_size"])),
                  adapter_layer_norm=draw(booleans), pre_norm=draw(booleans),
                  adapter_reuse_layer_norm=draw(booleans), ln_before_adapter=draw(booleans))
    config["add_cross_attention"] = config["is_decoder"] and draw(booleans)
    return config


@st.composite
def yoso(draw) -> dict:
    """YosoConfig: BERT's keys (set H's strategy) and the values' convolution by conv_window (null: none)."""
    config = draw(bert())
    config["conv_window"] = draw(st.one_of(st.none(), st.integers(1, 9)))
    return config


@st.composite
def convbert(draw) -> dict:
    """ConvBertConfig: ELECTRA's keys (the tables' own width), the attention half's share (any ratio: below one head
    ConvBertSelfAttention keeps one) and the convolution's kernel (odd or even); one FFN group."""
    config = draw(bert())
    config.update(embedding_size=draw(st.sampled_from([config["hidden_size"], 1, 3, 8])),
                  head_ratio=draw(st.integers(1, 9)), conv_kernel_size=draw(st.integers(1, 9)), num_groups=1)
    return config


@st.composite
def squeezebert(draw) -> dict:
    """SqueezeBertConfig: BERT's keys (the tables as wide as the layers) and each conv's groups, a
    divisor of its channels (nn.Conv1d refuses others)."""
    config = draw(bert())
    config.pop("is_decoder")
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    both = math.gcd(hidden, inner)
    for key in ("q_groups", "k_groups", "v_groups", "post_attention_groups"):
        config[key] = draw(st.sampled_from([g for g in range(1, hidden + 1) if hidden % g == 0]))
    for key in ("intermediate_groups", "output_groups"):
        config[key] = draw(st.sampled_from([g for g in range(1, both + 1) if both % g == 0]))
    config["embedding_size"] = hidden  # (unset: 768, which SqueezeBertEncoder asserts equals hidden_size)
    return config


@st.composite
def tapas(draw) -> dict:
    """TapasConfig: BERT's keys with any number of token-type tables (0 rows too) for its one table, the table-QA
    keys that change no tensor, cross-attention where it is a decoder."""
    config = draw(bert())
    config.pop("type_vocab_size")
    config.update(type_vocab_sizes=draw(st.lists(st.integers(0, 12), max_size=8)),
                  num_aggregation_labels=draw(st.integers(0, 4)), max_num_rows=draw(st.integers(1, 64)),
                  select_one_column=draw(booleans))
    config["add_cross_attention"] = config["is_decoder"] and draw(booleans)
    return config


@st.composite
def roc_bert(draw) -> dict:
    """RoCBertConfig: BERT's keys, the pronunciation and shape tables' sizes which of them the map layer
    reads and whether there is one, cross-attention where it is a decoder."""
    config = draw(bert())
    config.update(pronunciation_vocab_size=draw(st.integers(1, 20)), pronunciation_embed_dim=draw(st.integers(1, 16)),
                  shape_vocab_size=draw(st.integers(1, 20)), shape_embed_dim=draw(st.integers(1, 16)),
                  enable_pronunciation=draw(booleans), enable_shape=draw(booleans), concat_input=draw(booleans))
    config["add_cross_attention"] = config["is_decoder"] and draw(booleans)
    return config


# The types docs/notes/encoders-p.patch registered (their parts and families are in it).
REGISTERED = {"roformer": roformer, "deberta": deberta, "nystromformer": nystromformer, "xmod": xmod,
           "convbert": convbert, "squeezebert": squeezebert, "tapas": tapas,
           "roc_bert": roc_bert}
CONFIGS_P.update({model_type: _typed(model_type, strategy()) for model_type, strategy in REGISTERED.items()})
CONFIGS_P["yoso"] = _typed("yoso", yoso())  # the same patch's values convolution: YOSO's conv_window, over set H's
