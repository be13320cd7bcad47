"""Gemma 3n's residual-stream extras in every layer (transformers 5.24.0 Gemma3nTextDecoderLayer):
AltUp's streams, LAuReL's low-rank residual and the per-layer input."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class Gemma3nExtras(NamedTuple):
    hidden_size: int
    altup_num_inputs: int = 0  # AltUp: its output scale, correction and prediction coefficients, router
    laurel_rank: int = 0  # LAuReL: linear_left, linear_right and its norm
    hidden_size_per_layer_input: int = 0  # the per-layer input's gate, projection and norm

    def tensors(self, c: Collector) -> None:
        n, d = c.naming, self.hidden_size
        streams = self.altup_num_inputs
        if streams:
            c.add(n.altup_output_scale, (d,), "ffn")
            c.linear(n.altup_correction_coefs, streams, streams, "router")
            c.linear(n.altup_prediction_coefs, streams * streams, streams, "router")
            c.linear(n.altup_router, streams, d, "router")
            c.norm(n.altup_router_norm, d)
        if self.laurel_rank:
            c.linear(n.laurel_left, self.laurel_rank, d, "ffn")
            c.linear(n.laurel_right, d, self.laurel_rank, "ffn")
            c.norm(n.laurel_norm, d)
        per_layer = self.hidden_size_per_layer_input
        if per_layer:
            c.linear(n.per_layer_input_gate, per_layer, d, "ffn")
            c.linear(n.per_layer_projection, d, per_layer, "ffn")
            c.norm(n.post_per_layer_input_norm, d)

    def attention_flops(self, keys: int) -> int:
        return 0
