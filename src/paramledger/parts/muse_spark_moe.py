"""Muse Spark's MoE block and residual gates (transformers 5.24.0 models/muse_spark/modular_muse_spark.py
MuseSparkMoE, MuseSparkExperts, MuseSparkTopkRouter, MuseSparkResidualGate, MuseSparkTextDecoderLayer).

The block differs from DeepseekV3MoE: the router reads the hidden state (mlp.gate.weight, experts × hidden, kept in
float32), then the experts run in a latent of moe_hidden_size: pre_expert_proj into it (bias-free), its centered
RMSNorm, the fused experts (gate_up_proj (experts, 2 × moe_intermediate, latent), down_proj (experts, latent,
moe_intermediate)) with one post_expert_norm shared by all of them, and post_expert_proj back (bias-free), in that
registration order; no shared expert.  The router's e_score_correction_bias is a persistent float32 buffer.

The residual gates: each sublayer's output is mixed into the residual by a learned (hidden,) gate
(post_attention_residual_gate.gate, post_feedforward_residual_gate.gate), registered after the layer's norms; the
post-attention norm holds no weight (with_scale=False), so the only post-norm with one is post_feedforward_layernorm,
emitted here after the pre-norms (the family's norm_placement is "pre")."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class LatentExperts(NamedTuple):
    hidden_size: int
    num_experts: int  # num_local_experts
    expert_size: int  # moe_intermediate_size
    latent_size: int  # moe_hidden_size

    def tensors(self, c: Collector) -> None:
        hidden, e, m, latent = self.hidden_size, self.num_experts, self.expert_size, self.latent_size
        c.linear("mlp.gate", e, hidden, "router")  # (experts, hidden)
        c.linear("mlp.pre_expert_proj", latent, hidden, "experts")  # (latent, hidden)
        c.norm("mlp.pre_expert_norm", latent)
        c.add("mlp.experts.gate_up_proj", (e, 2 * m, latent), "experts", experts=e)
        c.add("mlp.experts.down_proj", (e, latent, m), "experts", experts=e)
        c.norm("mlp.experts.post_expert_norm", latent)
        c.linear("mlp.post_expert_proj", hidden, latent, "experts")  # (hidden, latent)

    def buffers(self, c: Collector) -> None:
        c.buffer("mlp.gate.e_score_correction_bias", (self.num_experts,), "float32")


@part
class ResidualGates(NamedTuple):
    hidden_size: int

    def tensors(self, c: Collector) -> None:
        c.norm("post_feedforward_layernorm", self.hidden_size)  # MuseSparkTextInputScaledRMSNorm
        for path in ("post_attention_residual_gate.gate", "post_feedforward_residual_gate.gate"):
            c.add(path, (self.hidden_size,), "norm")  # (hidden,), float32
