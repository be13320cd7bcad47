"""LongCat-Flash's routed experts with zero-compute experts (transformers 5.24.0 modeling_longcat_flash.py
LongcatFlashMoE, lines 208-222, with LongcatFlashExperts, lines 158-206, and LongcatFlashTopkRouter, lines 130-156).  The
router scores n_routed_experts + zero_expert_num experts; a token routed to one of the zero_expert_num extra ones passes
through unchanged (nn.Identity).  As transformers builds it, gate_up_proj still has a slice for every scored expert,
zero experts included, while down_proj has one per computing expert; with n_routed_experts 0 neither exists.  The
experts are registered before the router.

Not yet wired into designs (docs/notes/coverage-set-d.md lists the keys and names it needs);
tests/test_part_zero_experts.py checks it against LongcatFlashMoE built alone."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import BufferCollector, Collector
from ._protocol import part


@part
class ZeroComputeExperts(NamedTuple):
    hidden_size: int
    num_experts: int  # n_routed_experts: the experts that compute
    zero_experts: int  # zero_expert_num: scored, routed to, computing nothing
    expert_size: int  # expert_ffn_hidden_size
    router_bias: bool = False  # router_bias (read with getattr: not a LongcatFlashConfig field)
    path: str = "mlp"  # the block's path in its layer (a Naming field once wired)

    @property
    def scored(self) -> int:
        return self.num_experts + self.zero_experts

    def tensors(self, c: Collector) -> None:
        path, d, m, scored = self.path + ".", self.hidden_size, self.expert_size, self.scored
        if self.num_experts:
            c.add(path + "experts.gate_up_proj", (scored, 2 * m, d), "experts", experts=scored)  # zero experts' too
            c.add(path + "experts.down_proj", (self.num_experts, d, m), "experts", experts=self.num_experts)
        c.linear(path + "router.classifier", scored, d, "router", None, self.router_bias)

    def buffers(self, c: BufferCollector) -> None:
        """The score correction over every scored expert, at the model's dtype."""
        c.buffer(self.path + ".router.e_score_correction_bias", (self.scored,))
