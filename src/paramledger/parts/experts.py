"""Routed experts: the router (with its bias, scales and correction bias as options), the experts as
transformers 5 fuses them into 3-D tensors, shared experts with their gate, and the extras some
families add to the block (transformers 5.24.0 MixtralSparseMoeBlock, DeepseekV3MoE and kin)."""

from __future__ import annotations

from typing import NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import part
from .ffn import dense

EACH_EXPERTS = 16_384
"""The most experts listed a module each (Naming.experts_each: a tensor per expert, where stacked ones are three
tensors whatever their count; docs/limits.md): Switch-C has 2,048; 10^5 took 14 s and 10^6 over a minute."""


@part
class Experts(NamedTuple):
    hidden_size: int
    num_experts: int  # num_experts
    expert_size: int  # moe_intermediate_size
    gated: bool = False  # mlp_gated
    router_bias: bool = False
    router_scales: bool = False  # (hidden,) on the router's input, (num_experts,) on its weights (Gemma 4)
    router_correction_bias: bool = False  # a learned per-expert offset on the routing scores
    shared_size: int = 0  # the shared experts' width (shared_expert_intermediate_size); 0: none
    shared_bias: bool = False  # mlp_bias, on the shared experts
    shared_expert_gate: bool = False  # a (1, hidden) sigmoid gate on the shared expert (Qwen2-MoE)
    output_bias: bool = False  # experts_output_bias: one (hidden,) bias on the block's output (JetMoE)
    output_norm: bool = False  # moe_output_norm (A.X-K1's post_mlp_layernorm)
    # Beside a dense FFN in the same layer, each branch with its own norms (Gemma 4's enable_moe_block):
    # the dense FFN's post-norm, the experts' pre- and post-norm
    beside_dense: bool = False
    latent_size: int | None = None  # moe_latent_size: the experts' input and output width (None: hidden_size)
    score_bias: bool = True  # use_expert_bias: the router's score correction buffer, where the naming has one

    def tensors(self, c: Collector) -> None:
        n, hidden, e, m = c.naming, self.hidden_size, self.num_experts, self.expert_size
        d = self.latent_size or hidden  # what the routed experts read and write
        c.linear(n.router, e, hidden, "router", None, self.router_bias)
        if self.router_scales:  # Gemma4TextRouter: scales its normed input, then each expert's weight
            c.add(n.router_scale, (hidden,), "router")
            c.add(n.router_per_expert_scale, (e,), "router")
        if self.router_correction_bias:
            c.add(n.router_correction_bias, (1, e) if n.router_correction_bias_row else (e,), "router")
        if n.experts_each is not None:  # each expert its own ungated Linear pair, biased by mlp_bias
            if e > EACH_EXPERTS:
                raise ArchitectureError("num_experts", f"{e:,} experts, each a module of its own, are beyond the "
                                        f"{EACH_EXPERTS:,} paramledger lists one by one (docs/limits.md)")
            up, down = n.experts_each  # (every one a whole tensor of one expert: experts=e says of how many)
            for i in range(e):
                for path, shape in ((up.format(e=i), (m, hidden)), (down.format(e=i), (hidden, m))):
                    c.add(path + ".weight", shape, "experts", experts=e)
                    if self.shared_bias:
                        c.add(path + ".bias", shape[:1], "experts", experts=e)
            return
        up_out = 2 * m if self.gated else m
        inputs = ([(n.experts_gate_up, m), (n.experts_up, m)] if n.experts_up is not None and self.gated
                  else [(n.experts_gate_up, up_out)])
        for path, rows in inputs:
            if n.experts_flat:  # experts flattened on the first axis (DBRX)
                shape = (e * rows, d)
            else:
                shape = (e, d, rows) if n.experts_in_out else (e, rows, d)
            c.add(path, shape, "experts", experts=e)
            if n.expert_biases:
                c.add(path + "_bias", (e, rows), "experts", experts=e)
        if n.experts_flat:  # the down projection stored (experts × width, hidden) too: DbrxExpertGLU's w2
            c.add(n.experts_down, (e * m, d), "experts", experts=e)
        elif n.experts_in_out:
            c.add(n.experts_down, (e, m, d), "experts", experts=e)
        else:
            c.add(n.experts_down, (e, d, m), "experts", experts=e)
        if n.expert_biases:
            c.add(n.experts_down + "_bias", (e, d), "experts", experts=e)
        shared, d = self.shared_size, hidden
        if shared and n.shared_expert_gate_up is not None:
            dense(c, d, shared, self.gated, self.shared_bias, "", "", n.shared_expert_down, "shared_experts",
                  n.shared_expert_gate_up)
        elif shared:
            base = n.shared_expert + "."
            dense(c, d, shared, self.gated, self.shared_bias, base + "gate_proj", base + "up_proj",
                  base + "down_proj", "shared_experts")
        if self.latent_size:  # NemotronHMoE: into the latent before the experts, back after
            c.linear(n.moe_latent_in, self.latent_size, d, "experts", None, self.shared_bias)
            c.linear(n.moe_latent_out, d, self.latent_size, "experts", None, self.shared_bias)
        if self.shared_expert_gate:
            c.linear(n.shared_expert_gate, 1, d, "shared_experts")
        if self.output_bias:
            c.add(n.experts_output_bias, (d,), "experts")
        if self.output_norm:
            c.norm(n.moe_output_norm, d)
        if self.beside_dense:
            for path in (n.ffn_post_norm_1, n.ffn_pre_norm_2, n.ffn_post_norm_2):
                c.norm(path, d)

    def buffers(self, c: Collector) -> None:
        # DeepseekV3TopkRouter and kin: the score correction is a buffer, not learned
        if c.naming.router_score_bias is not None and self.score_bias:
            c.buffer(c.naming.router_score_bias, (self.num_experts,), c.naming.router_score_bias_dtype)
