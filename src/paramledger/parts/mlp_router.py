"""ZAYA's routed experts behind an MLP router (transformers 5.24.0 modeling_zaya.py ZayaSparseMoeBlock, lines 612-634,
with ZayaRouter, lines 509-571, ZayaRouterMLP, lines 493-506, and ZayaExperts, lines 573-610).  The router projects the
hidden state down to router_hidden_size, adds the previous layer's router state (scaled, from layer 1 on), and scores
num_experts + 1 classes through a norm and a two-layer GELU MLP: the extra class is a skip expert that computes nothing.

Not yet wired into designs (docs/notes/coverage-set-d.md lists the keys and names it needs);
tests/test_part_mlp_router.py checks it against ZayaSparseMoeBlock built alone."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import BufferCollector, Collector
from ._protocol import part


@part
class MlpRoutedExperts(NamedTuple):
    hidden_size: int
    num_experts: int  # num_experts (the router scores one more: the skip expert)
    expert_size: int  # moe_intermediate_size
    router_hidden_size: int  # router_hidden_size
    carries_router_state: bool = True  # every layer but the first scales the previous layer's router state in
    path: str = "mlp"  # the block's path in its layer (a Naming field once wired)

    def tensors(self, c: Collector) -> None:
        gate, d, r, e = self.path + ".gate.", self.hidden_size, self.router_hidden_size, self.num_experts
        if self.carries_router_state:  # the router's own parameter, before its children
            c.add(gate + "router_states_scale", (r,), "router")
        c.linear(gate + "down_proj", r, d, "router", None, True)
        c.add(gate + "router_mlp.norm.weight", (r,), "router")  # ZayaRMSNorm, whatever the block norms
        c.linear(gate + "router_mlp.fc1", r, r, "router", None, True)
        c.linear(gate + "router_mlp.fc2", r, r, "router", None, True)
        c.linear(gate + "router_mlp.out_proj", e + 1, r, "router")
        experts = self.path + ".experts."
        c.add(experts + "gate_up_proj", (e, 2 * self.expert_size, d), "experts", experts=e)  # (experts, 2m, hidden)
        c.add(experts + "down_proj", (e, d, self.expert_size), "experts", experts=e)  # (experts, hidden, m)

    def buffers(self, c: BufferCollector) -> None:
        """The routing offsets of the experts and the skip expert, float32 whatever the model's dtype."""
        c.buffer(self.path + ".gate.balancing_biases", (self.num_experts + 1,), "float32")
