"""HY-V4 (Tencent Hunyuan; transformers 5.24.0 models/hy_v4): DeepSeek-V3.2's latent attention with sinks and a
lightning indexer on its "full" layers (the "shared" ones reuse an earlier selection), a per-channel output gate and
two hyper-connections in every layer (parts/hyper_gate.py), and hc_head collapsing the streams before the head
(Naming.hyper_head, which waits on docs/notes/coverage-set-m.patch)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import derived_from
from .dsa import FAMILIES as DSA

TF = "transformers 5.24.0 models/hy_v4/configuration_hy_v4.py"


def hy_v4_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """HYV4Config.__post_init__: mlp_layer_types (absent: the first layer dense), indexer_types (absent: "full" at
    layer 0 and where (i - 1) % 4 == 0, else "shared"); num_key_value_heads is always num_attention_heads."""
    layers = config["num_hidden_layers"]
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        kinds = ["dense"] * min(1, layers) + ["sparse"] * max(layers - 1, 0)
    types = config.get("indexer_types")
    if not isinstance(types, (list, tuple)):
        types = ["full" if i == 0 or (i - 1) % 4 == 0 else "shared" for i in range(layers)]
    return {"num_key_value_heads": config["num_attention_heads"],
            "mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
            "indexer_types": tuple(types) if "shared" in types else ()}


DEEPSEEK_V32 = DSA[0]
_HEAD = "hyper_head" in {field.name for field in dataclasses.fields(Naming)}

FAMILIES = [] if "hyper_gate" not in MIXER_MODULES or not _HEAD else [
    # identical to deepseek_v32 (families/dsa.py) except: sinks on every attention, indexers only on "full" layers
    # (as glm_moe_dsa), the gate and hyper-connections beside the attention, hc_head, hc_mult, its sizes and one
    # dense layer by default (configuration_hy_v4.py)
    derived_from(
        DEEPSEEK_V32,
        model_type="hy_v4",
        causal_lm_class="HYV4ForCausalLM",
        source=TF,
        # the sinks are the attention's own Parameter (listed first); the hyper-connections follow the norms
        naming=dataclasses.replace(DEEPSEEK_V32.naming, hyper_head="model.hc_head",
                                   layer_order=("self_attn.sinks", "self_attn", "mlp.experts", "mlp",
                                                "input_layernorm", "post_attention_layernorm")),
        keys={**DEEPSEEK_V32.keys, "hc_mult": "hc_mult"},
        defaults={**{key: value for key, value in DEEPSEEK_V32.defaults.items() if key != "first_k_dense_replace"},
                  "vocab_size": 120832, "hidden_size": 2816, "intermediate_size": 6912, "moe_intermediate_size": 768,
                  "num_hidden_layers": 34, "num_attention_heads": 32, "num_key_value_heads": 32, "head_dim": 256,
                  "max_position_embeddings": 262144, "n_routed_experts": 256, "n_shared_experts": 1,
                  "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 192, "qk_rope_head_dim": 64,
                  "v_head_dim": 256, "index_n_heads": 16, "indexer_types": None, "layer_types": None, "hc_mult": 4},
        switches={**DEEPSEEK_V32.switches, "attention_sinks": True, "hyper_gate_beside_attention": True},
        # hc_magnitude, hc_eps, learnable_sink_init, swiglu_limit: numerics; indexer_types: read by hy_v4_layers
        count_neutral=DEEPSEEK_V32.count_neutral | {"n_group", "topk_group", "routed_scaling_factor", "layer_types",
                                                    "indexer_types", "hc_magnitude", "hc_eps",
                                                    "learnable_sink_init", "swiglu_limit"},
        derive=(*DEEPSEEK_V32.derive[:2], hy_v4_layers, *DEEPSEEK_V32.derive[3:]),
    ),
]
