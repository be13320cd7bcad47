"""ZAYA's residual scalings part against transformers 5.24.0's ZayaDecoderLayer built alone: the two scalings' tensors
(names, shapes, order) among the layer's.  The part is not wired into designs yet (docs/notes/coverage-set-d.md)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paramledger.naming import LLAMA
from paramledger.parts._collector import Collector
from paramledger.parts.residual_affine import ResidualAffine


@given(hidden=st.sampled_from([4, 8, 12, 16]), layer=st.integers(0, 1))
def test_tensors_are_the_layers_scalings_in_its_order(hidden, layer):
    from transformers import ZayaConfig
    from transformers.models.zaya.modeling_zaya import ZayaDecoderLayer

    config = ZayaConfig(vocab_size=16, hidden_size=hidden, num_hidden_layers=2, num_attention_heads=2,
                        num_key_value_heads=1, head_dim=4, num_experts=2, moe_intermediate_size=4, router_hidden_size=4)
    module = ZayaDecoderLayer(config, layer)
    c = Collector(LLAMA, "rmsnorm")
    part = ResidualAffine(hidden)
    part.tensors(c)
    theirs = [(n, tuple(p.shape)) for n, p in module.named_parameters()
              if n.startswith((part.attn_path + ".", part.ffn_path + "."))]
    assert [(t.name, t.shape) for t in c.tensors] == theirs
    assert len(theirs) == 8
