"""The dense FFN, gated (SwiGLU/GeGLU: gate, up, down) or not (up, down) (LlamaMLP and kin)."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class DenseFFN(NamedTuple):
    hidden_size: int
    intermediate_size: int  # this layer's (intermediate_size_per_layer)
    gated: bool = False  # mlp_gated
    bias: bool = False  # mlp_bias
    sub_norm: bool = False  # ffn_sub_norm: on the inner activations, before down_proj (BitNet)
    learned_activation: bool = False  # xIELU's alpha_p and alpha_n (hidden_act "xielu")
    down_bias: bool = False  # mlp_down_bias: a bias on down alone (GteMLP)

    def tensors(self, c: Collector) -> None:
        n = c.naming
        up = n.up if self.gated or n.up_ungated is None else n.up_ungated
        dense(c, self.hidden_size, self.intermediate_size, self.gated, self.bias, n.gate, up, n.down, "ffn",
              n.gate_up, self.down_bias)
        if self.sub_norm:
            c.norm(n.ffn_sub_norm, self.intermediate_size)
        if self.learned_activation:
            c.add(n.act + ".alpha_p", (1,), "ffn")
            c.add(n.act + ".alpha_n", (1,), "ffn")

    def buffers(self, c: Collector) -> None:
        if self.learned_activation:  # XIELUActivation: beta and eps, 0-D buffers at the model's dtype
            c.buffer(c.naming.act + ".beta", ())
            c.buffer(c.naming.act + ".eps", ())


def dense(c: Collector, hidden: int, size: int, gated: bool, bias: bool, gate: str, up: str, down: str,
          component: str, fused_gate_up: str | None = None, down_bias: bool = False) -> None:
    """gate and up (or one fused gate_up of 2 × size rows), then down; up and down when not gated."""
    if gated and fused_gate_up is not None:
        c.linear(fused_gate_up, 2 * size, hidden, component, None, bias)
    elif gated:
        c.linear(gate, size, hidden, component, None, bias)
        c.linear(up, size, hidden, component, None, bias)
    else:
        c.linear(up, size, hidden, component, None, bias)
    c.linear(down, hidden, size, component, None, bias or down_bias)
