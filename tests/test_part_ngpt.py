"""Dory's nGPT scales part against transformers 5.24.0's DoryAttention and DoryMLP built alone: the parameters each
module holds itself (not in a child Linear), names, shapes and order.  The part is not wired into designs yet
(docs/notes/coverage-set-d.md)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paramledger.naming import LLAMA
from paramledger.parts._collector import Collector
from paramledger.parts.ngpt import NgptScales


@st.composite
def sizes(draw) -> dict:
    heads = draw(st.sampled_from([1, 2, 4]))
    return {"num_attention_heads": heads, "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4)
                                                                                       if heads % k == 0])),
            "head_dim": draw(st.sampled_from([2, 4, 6])), "hidden_size": draw(st.sampled_from([8, 16])),
            "intermediate_size": draw(st.integers(1, 24)), "attention_bias": draw(st.booleans()),
            "mlp_bias": draw(st.booleans())}


def _own(prefix: str, module) -> list[tuple[str, tuple[int, ...]]]:
    return [(prefix + name, tuple(p.shape)) for name, p in module.named_parameters(recurse=False)]


@given(drawn=sizes())
def test_tensors_are_what_the_attention_and_the_ffn_hold_themselves(drawn):
    from transformers import DoryConfig
    from transformers.models.dory.modeling_dory import DoryAttention, DoryMLP

    config = DoryConfig(vocab_size=16, num_hidden_layers=3, n_input_layers=1, n_output_layers=1, **drawn)
    attention, ffn = DoryAttention(config, 0), DoryMLP(config)
    c = Collector(LLAMA, "rmsnorm")
    NgptScales(config.num_attention_heads * config.head_dim, config.intermediate_size).tensors(c)
    assert [(t.name, t.shape) for t in c.tensors] == _own("self_attn.", attention) + _own("mlp.", ffn)
    # and they come first in each module: its own parameters before its children's
    assert next(attention.named_parameters())[0] == "sqk" and next(ffn.named_parameters())[0] == "suv_gate"
