"""Kimi Linear: Kimi Delta Attention layers (parts/kda.py) beside multi-head latent attention layers without RoPE,
DeepSeek-V3's routed and shared experts after first_k_dense_replace dense layers (transformers 5.24.0
modular_kimi_linear.py, modeling_kimi_linear.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import derived_from, same
from .deepseek import FAMILIES as DEEPSEEK_FAMILIES

TF = "transformers 5.24.0 models/kimi_linear/configuration_kimi_linear.py"
DEEPSEEK_V3 = next(family for family in DEEPSEEK_FAMILIES if family.model_type == "deepseek_v3")
LINEAR, FULL = "linear_attention", "full_attention"
# KimiLinearConfig.__post_init__ reads these from the checkpoints' linear_attn_config, over the flat keys.
SECTION = {"head_dim": "linear_head_dim", "num_heads": "linear_num_heads",
           "short_conv_kernel_size": "linear_conv_kernel_dim"}


def kimi_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """KimiLinearConfig.__post_init__: the KDA sizes from linear_attn_config over the flat keys; layer_types as
    given, else from linear_attn_config's 1-indexed full_attn_layers and kda_layers, else "full_attention" at
    i > 0 and i % 4 == 0; "full_attention" layers run MLA, the others KDA.  mlp_layer_types as given, else
    "dense" below first_k_dense_replace (1).  No layer slides."""
    layers = config["num_hidden_layers"]
    section = config.get("linear_attn_config") or {}
    sizes = {key: section.get(inner, config.get(key)) for inner, key in SECTION.items()}
    types = config.get("layer_types")
    if types is None and "full_attn_layers" in section and "kda_layers" in section:
        types = [None] * layers
        for layer in section["full_attn_layers"]:
            types[layer - 1] = FULL
        for layer in section["kda_layers"]:
            types[layer - 1] = LINEAR
    if types is None:
        types = [FULL if i and i % 4 == 0 else LINEAR for i in range(layers)]
    if not isinstance(types, (list, tuple)) or len(types) != layers or not set(types) <= {LINEAR, FULL}:
        raise ArchitectureError("layer_types", f"must list linear_attention or full_attention for each of the "
                                f"{layers} layers, got {types!r}"[:200])
    kda = tuple(i for i, kind in enumerate(types) if kind == LINEAR)
    out = {"kda_layers": kda, "sliding_window": None, "layer_types": ()}
    out.update({"kda_num_heads": sizes["linear_num_heads"], "kda_head_dim": sizes["linear_head_dim"],
                "kda_conv_kernel_dim": sizes["linear_conv_kernel_dim"]} if kda else
               dict.fromkeys(("kda_num_heads", "kda_head_dim", "kda_conv_kernel_dim")))
    kinds = config.get("mlp_layer_types")
    if kinds is None:
        dense = config.get("first_k_dense_replace", 1)
        kinds = ["dense" if i < dense else "sparse" for i in range(layers)]
    out["mlp_only_layers"] = tuple(i for i, kind in enumerate(kinds) if kind == "dense")
    return out


# Kimi Linear = DeepSeek-V3 except: KDA on the "linear_attention" layers, no RoPE anywhere (KimiLinearModel has no
# rotary), a full-rank query by default, the lm_head never tied (_tied_weights_keys = {}), and the config's
# attribute_map spellings (num_experts, num_shared_experts, num_experts_per_token, model_max_length).
FAMILIES = [
    derived_from(
        DEEPSEEK_V3, model_type="kimi_linear", causal_lm_class="KimiLinearForCausalLM", source=TF,
        keys={**{k: v for k, v in DEEPSEEK_V3.keys.items() if k != "tie_word_embeddings"},
              **same("num_experts", "n_shared_experts", "num_experts_per_tok", "max_position_embeddings"),
              "num_shared_experts": "n_shared_experts", "num_experts_per_token": "num_experts_per_tok",
              "model_max_length": "max_position_embeddings"},
        defaults={"vocab_size": 163840, "hidden_size": 2304, "intermediate_size": 9216, "moe_intermediate_size": 1024,
                  "num_hidden_layers": 27, "num_attention_heads": 32, "num_key_value_heads": 32,
                  "n_shared_experts": 1, "kv_lora_rank": 512, "q_lora_rank": None, "qk_rope_head_dim": 64,
                  "v_head_dim": 128, "qk_nope_head_dim": 128, "num_experts_per_tok": 8, "hidden_act": "silu",
                  "max_position_embeddings": 1048576, "tie_word_embeddings": False, "attention_bias": False,
                  "num_local_experts": 256, "mlp_layer_types": None, "layer_types": None, "linear_head_dim": 128,
                  "linear_num_heads": 32, "linear_conv_kernel_dim": 4},
        switches={**DEEPSEEK_V3.switches, "position_embedding_type": "none", "tie_word_embeddings": False},
        count_neutral=DEEPSEEK_V3.count_neutral | {"mlp_layer_types", "linear_head_dim", "linear_num_heads",
                                                   "linear_conv_kernel_dim", "tie_word_embeddings", "moe_renormalize",
                                                   "num_expert_group", "linear_attn_config"},
        derive=(rules.output_bias_follows("attention_bias"), kimi_layers)),
]
