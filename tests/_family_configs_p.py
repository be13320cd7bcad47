"""Hypothesis strategies: random small configs for the families of set P (masked-LM encoders), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed
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
