"""A.X-K1: DeepSeek-V3's latent attention (always with a q LoRA rank) and routed plus shared experts,
with one more RMSNorm on each MoE block's output (AXK1MoE.post_mlp_layernorm, MoE layers only).
Its router's e_score_correction_bias is a buffer, not a parameter."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family
from ._tables import EXPERTS_FIRST, ROUTING_KEYS, LLAMA_SWITCHES
from .deepseek import MLA_MOE_KEYS


def axk1_layers(config):
    """A.X-K1's dense layers (AXK1Config.__post_init__).

    From mlp_layer_types or, absent, the legacy first_k_dense_replace (default 1) and
    moe_layer_freq (default 1): layer i is sparse when i >= k and i % freq == 0."""
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        k, freq = config.get("first_k_dense_replace", 1), config.get("moe_layer_freq", 1)
        kinds = ["sparse" if i >= k and i % freq == 0 else "dense" for i in range(config["num_hidden_layers"])]
    return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense")}


FAMILIES = [
    Family(
        model_type="axk1",
        causal_lm_class="AXK1ForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source="transformers 5.24.0 models/axk1/configuration_axk1.py",
        keys=MLA_MOE_KEYS,
        defaults={"vocab_size": 163840, "hidden_size": 7168, "intermediate_size": 18432,
                  "moe_intermediate_size": 2048, "num_hidden_layers": 61, "num_attention_heads": 64,
                  "num_key_value_heads": 64, "n_shared_experts": 1, "n_routed_experts": 192, "kv_lora_rank": 512,
                  "q_lora_rank": 1536, "qk_rope_head_dim": 64, "v_head_dim": 128, "qk_nope_head_dim": 128,
                  "num_experts_per_tok": 8, "hidden_act": "silu", "max_position_embeddings": 32768,
                  "tie_word_embeddings": False, "attention_bias": False, "mlp_layer_types": None},
        switches={**LLAMA_SWITCHES, "moe_output_norm": True},
        # head_dim and qk_head_dim are set by AXK1Config from the qk_* dims, never read.
        count_neutral=ROUTING_KEYS | {"mlp_layer_types", "first_k_dense_replace", "moe_layer_freq", "head_dim",
                                      "qk_head_dim", "num_nextn_predict_layers"},
        # AXK1Attention always builds q_a_proj: a null q_lora_rank cannot build.
        derive=(rules.must_be_set("q_lora_rank"), rules.output_bias_follows("attention_bias"), axk1_layers,
                rules.no_sliding),
    ),
]
