"""ERNIE 4.5 VL's modality-isolated experts (transformers 5.24.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py
Ernie4_5_VLMoeMoeBlock, Ernie4_5_VLMoeSparseMoeBlock, Ernie4_5_VLMoeMoeTopKRouter, Ernie4_5_VLMoeMoeExperts).

ERNIE 4.5 MoE's sparse block (parts/experts.py), except: two routed sets side by side, ``mlp.text_moe`` run on text
tokens and ``mlp.vision_moe`` on image and video tokens, each its own router (gate.weight (experts, hidden), its
learned moe_statics.e_score_correction_bias (1, experts)) and its own fused experts (gate_up_proj (experts,
2 × width, hidden), down_proj (experts, hidden, width)) at moe_intermediate_size[0] and [1]; then the shared experts
(one gated MLP moe_intermediate_size[0] × moe_num_shared_experts wide, biased by use_bias).

A token reads one set: the count's active figure is a text token's (the shared experts, num_experts_per_tok of the
text experts, no vision expert): ``text_token_share``."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from .._expert_shares import expert_share
from ._collector import Collector
from ._protocol import part
from .ffn import dense

if TYPE_CHECKING:
    from ..inventory import Tensor

TEXT, VISION = "mlp.text_moe.", "mlp.vision_moe."


@part
class ModalityExperts(NamedTuple):
    hidden_size: int
    num_experts: int  # moe_num_experts
    text_size: int  # moe_intermediate_size[0]
    vision_size: int  # moe_intermediate_size[1]
    shared_size: int  # moe_intermediate_size[0] × moe_num_shared_experts; 0: none
    shared_bias: bool  # use_bias

    def tensors(self, c: Collector) -> None:
        hidden, e = self.hidden_size, self.num_experts
        for base, width in ((TEXT, self.text_size), (VISION, self.vision_size)):
            c.linear(base + "gate", e, hidden, "router")  # (experts, hidden)
            c.add(base + "gate.moe_statics.e_score_correction_bias", (1, e), "router")
            c.add(base + "experts.gate_up_proj", (e, 2 * width, hidden), "experts", experts=e)
            c.add(base + "experts.down_proj", (e, hidden, width), "experts", experts=e)
        if self.shared_size:
            dense(c, hidden, self.shared_size, True, self.shared_bias, "mlp.shared_experts.gate_proj",
                  "mlp.shared_experts.up_proj", "mlp.shared_experts.down_proj", "shared_experts")


def text_token_share(t: Tensor) -> int | Fraction:
    """One expert's share of ``t`` for a text token (Inventory.active, compute.matmul_parameters): 0 for a vision
    expert's tensor, which no text token reads."""
    return 0 if VISION in t.name else expert_share(t)
