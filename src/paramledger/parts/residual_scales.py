"""Doge's learned residual scales (transformers 5.24.0 modeling_doge.py DogeDecoderLayer): one hidden-size
vector weighting the residual around the attention (input_residual) and one around the FFN
(post_attention_residual).  Per-channel gains on the residual stream, counted with the norms."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class ResidualScales(NamedTuple):
    hidden_size: int

    def tensors(self, c: Collector) -> None:
        n, d = c.naming, self.hidden_size
        c.add(n.attn_residual_scale, (d,), "norm")
        c.add(n.ffn_residual_scale, (d,), "norm")
