"""MiMo-V2-Flash: value heads narrower than query/key heads (v_head_dim), and sliding layers that
differ from full ones: twice the KV heads and one learned sink per head (MiMoV2FlashAttention).
The first layer is dense, the rest routed experts (no shared expert); the router's
e_score_correction_bias is a buffer, not a parameter."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS


def mimo_layers(config):
    """MiMo-V2-Flash's layer patterns, window and sliding KV heads (MiMoV2FlashConfig.__post_init__).

    layer_types (absent: full at layer 0 and every 6th), mlp_layer_types
    (absent: the first dense), sliding_window_size + 1 as the window when given; sliding layers
    have 2 × num_key_value_heads KV heads."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if not isinstance(types, (list, tuple)):
        types = [rules.FULL if i == 0 or not (i + 1) % 6 else rules.SLIDING for i in range(layers)]
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        kinds = ["dense"] + ["sparse"] * (layers - 1)
    window = config.get("sliding_window")
    if config.get("sliding_window_size") is not None:
        window = config["sliding_window_size"] + 1
    return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
            "sliding_num_key_value_heads": 2 * config["num_key_value_heads"],
            **rules.layer_pattern(window, [kind == rules.SLIDING for kind in types])}


FAMILIES = [
    Family(
        model_type="mimo_v2_flash",
        causal_lm_class="MiMoV2FlashForCausalLM",
        naming=Naming(rotary_per_layer_type=True, router_score_bias="mlp.gate.e_score_correction_bias",
                                                  layer_order=("self_attn.sinks", "self_attn", "mlp.experts")),
        source="transformers 5.24.0 models/mimo_v2_flash/configuration_mimo_v2_flash.py",
        keys={**DECODER_KEYS, **same("head_dim", "v_head_dim", "attention_bias", "moe_intermediate_size",
                                     "num_experts_per_tok"),
              "n_routed_experts": "num_experts", "num_local_experts": "num_experts"},
        defaults={"partial_rotary_factor": 0.334,
                  "vocab_size": 152576, "hidden_size": 4096, "intermediate_size": 16384, "num_hidden_layers": 48,
                  "num_attention_heads": 64, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
                  "moe_intermediate_size": 2048, "num_experts_per_tok": 8, "n_routed_experts": 256,
                  "head_dim": 192, "v_head_dim": 128, "sliding_window": 129, "layer_types": None,
                  "mlp_layer_types": None},
        # o_proj never carries a bias; attention_bias biases q, k and v.
        switches={**LLAMA_SWITCHES, "attention_output_bias": False, "sliding_attention_sinks": True},
        count_neutral=ROUTING_KEYS | {"mlp_layer_types", "sliding_window_size", "attention_value_scale",
                                      "routed_scaling_factor", "n_group", "topk_group"},
        derive=(mimo_layers,),
    ),
]
