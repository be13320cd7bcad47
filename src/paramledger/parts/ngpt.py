"""Dory's nGPT scales (transformers 5.24.0 modeling_dory.py): on the unit sphere every norm is an L2 norm without
parameters, and the learned gains move into per-channel scales instead: sqk on the queries after RoPE and s_gate inside
the output gate, one per query channel (DoryAttention, lines 227-228), and suv_gate and suv_up on the FFN's gate and up
activations, one per intermediate channel (DoryMLP, lines 303-304).  Each is its module's own parameter, so it comes
before that module's projections in named_parameters().  The head's per-token logit_scale (DoryLMHead, line 367) and
the per-layer interpolation rates lambda_1, lambda_2 (ResidualScales' two vectors, renamed) are not here.

Not yet wired into designs (docs/notes/coverage-set-d.md lists the keys and names it needs);
tests/test_part_ngpt.py checks it against DoryAttention and DoryMLP built alone."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class NgptScales(NamedTuple):
    query_channels: int  # num_attention_heads × head_dim
    ffn_channels: int  # intermediate_size
    attn_path: str = "self_attn"  # the attention's path in its layer (Naming fields once wired)
    ffn_path: str = "mlp"

    def tensors(self, c: Collector) -> None:
        attn, ffn = self.attn_path + ".", self.ffn_path + "."
        c.add(attn + "sqk", (self.query_channels,), "attention")
        c.add(attn + "s_gate", (self.query_channels,), "attention")
        c.add(ffn + "suv_gate", (self.ffn_channels,), "ffn")
        c.add(ffn + "suv_up", (self.ffn_channels,), "ffn")
