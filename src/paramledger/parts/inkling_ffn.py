"""Inkling's FFNs (transformers 5.24.0 modeling_inkling.py lines 277-418), placed by design/flat.py where a design
sets global_scale_ffn (parts/inkling_sconv.py declares the key):
- dense (InklingMLP): Llama's gate, up and down, after its own (1,) global_scale (a module's own parameter comes
  before its children's in named_parameters());
- routed (InklingMoE): the router (InklingTopkRouter) scores the routed and the shared experts alike, one
  (num_experts + n_shared_experts, hidden) weight, with a (1,) global_scale (float32) and a (num_experts,) float32
  e_score_correction_bias buffer; the routed experts fused in 3-D (gate_up_proj, down_proj); the shared experts 3-D
  too (InklingSharedExperts: gate_proj, up_proj (n_shared, moe_intermediate_size, hidden), down_proj (n_shared,
  hidden, moe_intermediate_size)), every one run for every token."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import BufferCollector, Collector
from ._protocol import part


@part
class InklingFFN(NamedTuple):
    hidden_size: int
    ffn_size: int  # intermediate_size (the dense MLP's)
    num_experts: int  # n_routed_experts; 0: the dense MLP
    expert_size: int  # moe_intermediate_size: the routed and shared experts' width
    n_shared: int  # n_shared_experts

    def tensors(self, c: Collector) -> None:
        d, e = self.hidden_size, self.num_experts
        if not e:
            c.add("mlp.global_scale", (1,), "ffn")
            for path, shape in (("gate_proj", (self.ffn_size, d)), ("up_proj", (self.ffn_size, d)),
                                ("down_proj", (d, self.ffn_size))):
                c.add(f"mlp.{path}.weight", shape, "ffn")
            return
        m, shared = self.expert_size, self.n_shared
        c.add("mlp.gate.weight", (e + shared, d), "router")  # (routed + shared experts, hidden)
        c.add("mlp.gate.global_scale", (1,), "router")
        c.add("mlp.experts.gate_up_proj", (e, 2 * m, d), "experts", experts=e)
        c.add("mlp.experts.down_proj", (e, d, m), "experts", experts=e)
        c.add("mlp.shared_experts.gate_proj", (shared, m, d), "shared_experts")
        c.add("mlp.shared_experts.up_proj", (shared, m, d), "shared_experts")
        c.add("mlp.shared_experts.down_proj", (shared, d, m), "shared_experts")

    def buffers(self, c: BufferCollector) -> None:
        if self.num_experts:  # InklingTopkRouter's score correction, kept in float32 (_keep_in_fp32_modules_strict)
            c.buffer("mlp.gate.e_score_correction_bias", (self.num_experts,), "float32")
