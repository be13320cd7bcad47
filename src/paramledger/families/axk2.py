"""A.X-K2 (SK Telecom; transformers 5.24.0 models/axk2, modular on DeepSeek-V3.2): DeepSeek-V3.2's latent attention
with a lightning indexer in every layer, its query up-projection fused with an output gate, and RMSNorms followed by
a low-rank sigmoid gate (parts/gated_norm_mla.py, parts/gated_input_norm_mla.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..parts import MIXER_MODULES
from ._family import derived_from
from .dsa import FAMILIES as DSA

TF = "transformers 5.24.0 models/axk2/configuration_axk2.py"


def axk2_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """AXK2Config.__post_init__: mlp_layer_types or, absent, sparse where i >= first_k_dense_replace (default 1)
    and i % moe_layer_freq == 0 (default 1); the sparse layers gate both norms, the dense ones the input norm."""
    layers = config["num_hidden_layers"]
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        k, freq = config.get("first_k_dense_replace", 1), config.get("moe_layer_freq", 1)
        kinds = ["sparse" if i >= k and i % freq == 0 else "dense" for i in range(layers)]
    dense = tuple(i for i in range(layers) if kinds[i] == "dense")
    return {"mlp_only_layers": dense, "gated_input_norm_mla_layers": dense,
            "gated_norm_mla_layers": tuple(i for i in range(layers) if kinds[i] != "dense")}


DEEPSEEK_V32 = DSA[0]
FAMILIES = [] if "gated_norm_mla" not in MIXER_MODULES else [
    # identical to deepseek_v32 (families/dsa.py) except: q_gate_proj in place of q_b_proj and gated norms (the
    # parts above, holding the layer's norms: norm_placement "none"), gated_norm_rank, its sizes, and the dense
    # layers from first_k_dense_replace and moe_layer_freq, both 1 by default (configuration_axk2.py)
    derived_from(
        DEEPSEEK_V32,
        model_type="axk2",
        causal_lm_class="AXK2ForCausalLM",
        source=TF,
        # the part lists its norms after the attention: named_parameters() has them after the MLP
        naming=dataclasses.replace(DEEPSEEK_V32.naming, layer_order=("self_attn", "mlp.experts", "mlp")),
        keys={**DEEPSEEK_V32.keys, "gated_norm_rank": "gated_norm_rank"},
        # (first_k_dense_replace is no field of AXK2Config: a legacy kwarg read in __post_init__, 1 when absent)
        defaults={**{key: value for key, value in DEEPSEEK_V32.defaults.items() if key != "first_k_dense_replace"},
                  "vocab_size": 163840, "hidden_size": 2048, "intermediate_size": 5120,
                  "moe_intermediate_size": 512, "num_hidden_layers": 48, "num_attention_heads": 32,
                  "num_key_value_heads": 32, "n_shared_experts": 1, "n_routed_experts": 128, "kv_lora_rank": 128,
                  "q_lora_rank": 384, "qk_rope_head_dim": 32, "v_head_dim": 64, "qk_nope_head_dim": 64,
                  "max_position_embeddings": 131072, "index_n_heads": 16, "gated_norm_rank": 16,
                  "layer_types": None},
        switches={**DEEPSEEK_V32.switches, "norm_placement": "none"},
        count_neutral=DEEPSEEK_V32.count_neutral | {"moe_layer_freq", "n_group", "topk_group", "layer_types",
                                                    "routed_scaling_factor"},
        derive=(*DEEPSEEK_V32.derive[:2], axk2_layers, *DEEPSEEK_V32.derive[3:]),
    ),
]
