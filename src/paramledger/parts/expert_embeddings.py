"""Doge's cross-domain mixture of experts (transformers 5.24.0 modeling_doge.py DogeCDMoE): a dense gated
FFN every token reads (its shared expert), a product-key router of 2 × ⌊√E⌋ outputs, and E routed experts
that are each one row of two (E, hidden) tables, down_embed and up_embed."""

from __future__ import annotations

from math import isqrt
from typing import NamedTuple

from ._collector import Collector
from ._protocol import part
from .ffn import dense


@part
class ExpertEmbeddings(NamedTuple):
    hidden_size: int
    intermediate_size: int  # the shared expert's width
    num_experts: int
    gated: bool = True  # mlp_gated
    bias: bool = False  # mlp_bias, on the shared expert

    def tensors(self, c: Collector) -> None:
        n, d, e = c.naming, self.hidden_size, self.num_experts
        dense(c, d, self.intermediate_size, self.gated, self.bias, n.gate, n.up, n.down, "shared_experts")
        c.linear(n.expert_router, 2 * isqrt(e), d, "router")  # num_keys = floor(sqrt(num_experts)), twice
        c.add(n.expert_down_embed, (e, d), "experts", experts=e)
        c.add(n.expert_up_embed, (e, d), "experts", experts=e)
