"""Bailing-Hybrid (Ling 3): Kimi Linear's layout with Bailing's full-rank KDA gates, RoPE on the latent attention and
a per-head output gate on it (transformers 5.24.0 modular_bailing_hybrid.py, modeling_bailing_hybrid.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import _rules as rules
from ._family import derived_from
from .kimi_linear import FAMILIES as KIMI_FAMILIES
from .kimi_linear import FULL, LINEAR, kimi_layers

TF = "transformers 5.24.0 models/bailing_hybrid/configuration_bailing_hybrid.py"
KIMI = KIMI_FAMILIES[0]


def bailing_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """BailingHybridConfig.__post_init__: the KDA layers num_attention_heads heads of head_dim (as given: the class
    then overwrites head_dim with qk_rope_head_dim), a short_conv_kernel_size conv; layer_types as given, else
    "full_attention" where (i + 1) % layer_group_size == 0; mlp_layer_types as given, else dense below
    first_k_dense_replace (2)."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if types is None:
        group = rules.positive("layer_group_size", config.get("layer_group_size", 6))
        types = [FULL if (i + 1) % group == 0 else LINEAR for i in range(layers)]
    # BailingHybridConfig.__post_init__ derives the KDA's heads, width and conv kernel before the keywords are set: a
    # given one wins (each refused under the key it came from)
    linear = {}
    for key, source, default in (("linear_num_heads", "num_attention_heads", None), ("linear_head_dim", "head_dim", 128),
                                 ("linear_conv_kernel_dim", "short_conv_kernel_size", 4)):
        named = key if config.get(key) is not None else source
        linear[key] = rules.positive(named, config.get(named, default))
    flat = {**config, "layer_types": types, "linear_attn_config": None, **linear,
            "first_k_dense_replace": config.get("first_k_dense_replace", 2)}
    out = kimi_layers(flat)
    out["kda_full_rank_gates"] = bool(out["kda_layers"])  # the layout means nothing without KDA layers
    return out


# Bailing-Hybrid = Kimi Linear except: full-rank KDA gates (f_proj, g_proj), its sizes read from num_attention_heads,
# head_dim and short_conv_kernel_size, a period-layer_group_size pattern, RoPE on qk_rope_head_dim, g_proj gating each
# latent attention head, first_k_dense_replace 2.
FAMILIES = [
    derived_from(
        KIMI, model_type="bailing_hybrid", causal_lm_class="BailingHybridForCausalLM", source=TF,
        naming=dataclasses.replace(KIMI.naming, attn_gate="self_attn.g_proj"),
        keys={k: v for k, v in KIMI.keys.items() if k not in ("linear_head_dim", "linear_num_heads",
                                                                 "linear_conv_kernel_dim")},
        defaults={"vocab_size": 157184, "hidden_size": 2560, "intermediate_size": 6144, "moe_intermediate_size": 768,
                  "num_hidden_layers": 42, "num_attention_heads": 32, "num_key_value_heads": 32,
                  "n_shared_experts": 1, "kv_lora_rank": 512, "q_lora_rank": None, "qk_rope_head_dim": 64,
                  "v_head_dim": 128, "qk_nope_head_dim": 128, "num_experts_per_tok": 8, "first_k_dense_replace": 2,
                  "hidden_act": "silu", "max_position_embeddings": 262144, "tie_word_embeddings": False,
                  "attention_bias": False, "num_local_experts": 512, "head_dim": 128, "short_conv_kernel_size": 4,
                  "layer_group_size": 6, "layer_types": None, "mlp_layer_types": None},
        switches={**KIMI.switches, "position_embedding_type": "rope", "attention_output_gate": "per_head"},
        count_neutral=(KIMI.count_neutral - {"linear_attn_config"}) | {
            "head_dim", "short_conv_kernel_size", "layer_group_size", "kda_safe_gate", "kda_lower_bound",
            "mtp_loss_scaling_factor", "num_nextn_predict_layers", "first_k_dense_replace"},
        derive=(rules.output_bias_follows("attention_bias"), bailing_layers)),
]
