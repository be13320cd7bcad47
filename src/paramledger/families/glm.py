"""GLM: Llama's block with a fused gate_up_proj and q/k/v (never o) biases; GLM-4 adds a norm
after attention and after the FFN; GLM-4-MoE (and Sarvam-MoE, built by the same class) adds
dense-then-MoE layers with shared experts and optional per-head q/k norms."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
MOE_KEYS = {**DECODER_KEYS, "num_experts_per_tok": "num_experts_per_tok"}


def _qk_norm(config):
    return {"qk_norm": "head" if config.get("use_qk_norm") else "none"}


FAMILIES = [
    Family(
        model_type="glm",  # fused gate_up_proj; attention_bias biases q, k, v (never o)
        causal_lm_class="GlmForCausalLM",
        source=TF.format("glm"),
        naming=Naming(gate_up="mlp.gate_up_proj"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"partial_rotary_factor": 0.5,
                  "vocab_size": 151552, "hidden_size": 4096, "intermediate_size": 13696, "num_hidden_layers": 40,
                  "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": True},
        switches={**LLAMA_SWITCHES, "attention_output_bias": False},
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="glm4",  # GLM's tensors plus a norm after attention and after the FFN (sandwich)
        causal_lm_class="Glm4ForCausalLM",
        source=TF.format("glm4"),
        naming=Naming(gate_up="mlp.gate_up_proj", attn_post_norm="post_self_attn_layernorm",
                      ffn_pre_norm="post_attention_layernorm", ffn_post_norm="post_mlp_layernorm",
                      layer_order=("self_attn", "mlp", "input_layernorm", "post_attention_layernorm")),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"partial_rotary_factor": 0.5,
                  "vocab_size": 151552, "hidden_size": 4096, "intermediate_size": 13696, "num_hidden_layers": 40,
                  "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": True},
        switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "attention_output_bias": False},
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="glm4_moe",  # first_k_dense_replace dense layers, routed + shared experts, optional q/k norms
        causal_lm_class="Glm4MoeForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source=TF.format("glm4_moe"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "n_shared_experts"),
              "n_routed_experts": "num_experts", "num_local_experts": "num_experts"},
        defaults={"partial_rotary_factor": 0.5,
                  "vocab_size": 151552, "hidden_size": 4096, "intermediate_size": 10944, "num_hidden_layers": 46,
                  "num_attention_heads": 96, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
                  "moe_intermediate_size": 1408, "num_experts_per_tok": 8, "n_shared_experts": 1,
                  "n_routed_experts": 128, "first_k_dense_replace": 1, "use_qk_norm": False},
        # attention_bias biases q, k and v only (modeling_glm4_moe.py); the router's
        # e_score_correction_bias is a buffer.
        switches={**LLAMA_SWITCHES, "attention_output_bias": False},
        count_neutral=ROUTING_KEYS | {"first_k_dense_replace", "use_qk_norm", "num_nextn_predict_layers",
                                      "num_mtp_layers"},
        derive=(rules.head_dim_floor, rules.first_k_dense, _qk_norm, rules.no_sliding),
    ),
    Family(
        model_type="sarvam_moe",  # GLM-4-MoE's tensors (Glm4MoeForCausalLM) with q/k norms on by default
        causal_lm_class="Glm4MoeForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source=TF.format("sarvam_moe"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "n_shared_experts"),
              "n_routed_experts": "num_experts", "num_local_experts": "num_experts", "num_experts": "num_experts",
              "num_shared_experts": "n_shared_experts", "use_qkv_bias": "attention_bias"},  # attribute_map
        defaults={"vocab_size": 262144, "hidden_size": 4096, "intermediate_size": 8192, "num_hidden_layers": 19,
                  "num_attention_heads": 64, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
                  "moe_intermediate_size": 1024, "num_experts_per_tok": 6, "n_shared_experts": 1,
                  "n_routed_experts": 128, "first_k_dense_replace": 1, "use_qk_norm": True, "head_dim": 64},
        switches={**LLAMA_SWITCHES, "attention_output_bias": False},
        count_neutral=ROUTING_KEYS | {"first_k_dense_replace", "use_qk_norm", "num_nextn_predict_layers",
                                      "num_mtp_layers"},
        derive=(rules.head_dim_floor, rules.first_k_dense,
                _qk_norm, rules.no_sliding),
    ),
]
