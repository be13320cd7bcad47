"""Lara-Mini: Qwen3.5-MoE's Gated DeltaNet layers beside self-attention layers that are full or sliding, every
FFN routed experts with an ungated shared expert (transformers 5.24.0 modular_lara_mini.py, modeling_lara_mini.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import _rules as rules
from ._family import derived_from
from ._tables import ROUTING_KEYS
from .lfm3 import attention_pattern
from .qwen3_next import FAMILIES as QWEN3_NEXT_FAMILIES
from .qwen3_next import LINEAR, LINEAR_KEYS, MOE_NAMING, QWEN3_5_LINEAR

TF = "transformers 5.24.0 models/lara_mini/configuration_lara_mini.py"
QWEN3_5_MOE = next(family for family in QWEN3_NEXT_FAMILIES if family.model_type == "qwen3_5_moe_text")
# LaraMiniConfig.__post_init__'s released pattern, repeated over the layers.
PATTERN = (LINEAR, rules.SLIDING, LINEAR, rules.FULL, rules.SLIDING)


def lara_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """LaraMiniConfig: layer_types as given, else PATTERN[i % 5]; "linear_attention" layers run the Gated DeltaNet,
    the others Qwen3 attention, within sliding_window on the "sliding_attention" ones (LaraMiniAttention);
    the DeltaNet's sizes mean something only when some layer is linear."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if types is None:
        types = [PATTERN[i % len(PATTERN)] for i in range(layers)]
    out = attention_pattern(config, types, LINEAR, "LaraMiniModel")
    out["linear_attention_layers"] = tuple(i for i, kind in enumerate(types) if kind == LINEAR)
    if not out["linear_attention_layers"]:
        out.update(dict.fromkeys(LINEAR_KEYS))
    return out


# Lara-Mini = Qwen3.5-MoE except: sliding attention layers beside the full ones (a period-5 pattern), no output
# gate on the attention (LaraMiniAttention is Qwen3Attention), the shared expert added without a gate
# (LaraMiniSparseMoeBlock), the fused experts registered before the router, RoPE over all of head_dim, tied
# embeddings.
FAMILIES = [
    derived_from(
        QWEN3_5_MOE, model_type="lara_mini", causal_lm_class="LaraMiniForCausalLM", source=TF,
        naming=dataclasses.replace(MOE_NAMING, layer_order=(
            *QWEN3_5_LINEAR, "linear_attn", "self_attn", "mlp.experts", "mlp.gate", "mlp.shared_expert")),
        defaults={"vocab_size": 151936, "hidden_size": 1024, "num_hidden_layers": 34, "num_attention_heads": 16,
                  "num_key_value_heads": 4, "hidden_act": "silu", "max_position_embeddings": 131072,
                  "tie_word_embeddings": True, "attention_bias": False, "head_dim": 128,
                  "linear_conv_kernel_dim": 4, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
                  "linear_num_key_heads": 8, "linear_num_value_heads": 16, "moe_intermediate_size": 512,
                  "shared_expert_intermediate_size": 512, "num_experts_per_tok": 4, "num_experts": 128,
                  "layer_types": None, "sliding_window": 512},
        switches={key: value for key, value in QWEN3_5_MOE.switches.items()
                  if key not in ("attention_output_gate", "shared_expert_gate")},
        count_neutral=ROUTING_KEYS,  # none of Qwen3.5's mtp_* or full_attention_interval: LaraMiniConfig has none
        expects={},
        derive=(rules.output_bias_follows("attention_bias"), lara_layers)),
]
