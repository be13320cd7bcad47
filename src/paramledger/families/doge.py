"""Doge (SmallDoge): Llama's block with a dynamic attention mask, learned residual scales and, with is_moe,
a cross-domain mixture of experts (transformers 5.24.0 models/doge/modeling_doge.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

# DogeDecoderLayer registers input_residual and post_attention_residual on the layer itself (first in
# named_parameters), then its norms and modules; DogeAttention its A before its projections, dt_proj
# between v_proj and o_proj.
NAMING = Naming(layer_order=("input_residual", "post_attention_residual", "input_layernorm", "self_attn.A",
                             "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.dt_proj",
                             "self_attn.o_proj", "self_attn.q_norm", "self_attn.k_norm", "post_attention_layernorm",
                             "mlp"))


def cdmoe(config: Mapping[str, Any]) -> dict[str, Any]:
    """DogeDecoderLayer: DogeCDMoE in every layer when is_moe, else DogeMLP (num_experts then unread)."""
    if not config.get("is_moe"):
        return {"num_experts": 0, "num_experts_per_tok": 0, "expert_embeddings": False}
    return {"num_experts": rules.positive("num_experts", config.get("num_experts")),
            "num_experts_per_tok": rules.positive("num_experts_per_tok", config.get("num_experts_per_tok")),
            "expert_embeddings": True}


FAMILIES = [
    Family(
        model_type="doge",
        causal_lm_class="DogeForCausalLM",
        source="transformers 5.24.0 models/doge/configuration_doge.py",
        naming=NAMING,
        # DogeAttention reads head_dim where a config gives one (getattr), else hidden_size / heads.
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")},
        defaults={"vocab_size": 32768, "hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 32,
                  "num_attention_heads": 8, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False, "sliding_window": None, "is_moe": False, "num_experts": 16384,
                  "num_experts_per_tok": 64},
        # one bias flag for q, k, v, dt_proj and o; RMSNorm(head_dim) on q and on k
        switches={**LLAMA_SWITCHES, "qk_norm": "head", "attention_dynamic_mask": True, "residual_scales": True},
        count_neutral=frozenset({"keep_window_size", "is_moe", "num_experts", "num_experts_per_tok", "norm_topk_prob",
                                 "router_aux_loss_coef", "output_router_logits"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_all, cdmoe),
    ),
]
