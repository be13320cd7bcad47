"""Hypothesis strategies: random small configs for the families of set P (masked-LM encoders), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

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
