"""DeepSeek Sparse Attention: DeepSeek-V3's latent attention and experts plus a lightning indexer in
each attention layer (DeepseekV32Indexer: wq_b from the q LoRA latent, one shared key wk with a
LayerNorm, weights_proj), which picks the index_topk keys attention reads.  GLM-5 (glm_moe_dsa)
shares one layer's selection with the next ("shared" layers build no indexer).  Both build
AXK1Attention, which always has a q LoRA rank; the routers' e_score_correction_bias is a buffer."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family
from ._tables import EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS
from .deepseek import MLA_MOE_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
DSA_KEYS = {**MLA_MOE_KEYS, "num_experts": "num_experts", "index_n_heads": "index_n_heads",
            "index_head_dim": "index_head_dim", "index_topk": "index_topk"}
# head_dim and qk_head_dim are set by the config class from the qk_* dims, never read; mlp_bias is
# a field of DeepseekV32Config that no MLP reads (bias=False); layer_types is "indexed_attention".
DSA_NEUTRAL = ROUTING_KEYS | {"mlp_layer_types", "first_k_dense_replace", "head_dim", "qk_head_dim", "mlp_bias",
                              "num_nextn_predict_layers", "num_mtp_layers"}
DSA_RULES = (rules.must_be_set("q_lora_rank"), rules.output_bias_follows("attention_bias"),
             rules.mlp_layer_types(lambda i, config: i < config["first_k_dense_replace"]), rules.no_sliding)
DEEPSEEK_V32 = {"vocab_size": 129280, "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
                "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128, "n_shared_experts": 1,
                "n_routed_experts": 256, "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_rope_head_dim": 64,
                "v_head_dim": 128, "qk_nope_head_dim": 128, "num_experts_per_tok": 8, "hidden_act": "silu",
                "max_position_embeddings": 163840, "tie_word_embeddings": False, "attention_bias": False,
                "mlp_layer_types": None, "first_k_dense_replace": 3, "index_topk": 2048, "index_head_dim": 128,
                "index_n_heads": 64}


def glm_indexer_types(config):
    """GLM-5's per-layer indexer (GlmMoeDsaConfig.__post_init__).

    indexer_types, else index_topk_pattern ("F" full, "S" shared), else layer i runs its own
    indexer when max(i - index_skip_topk_offset + 1, 0) % index_topk_freq == 0 (defaults 2, 1)."""
    types = config.get("indexer_types")
    if not isinstance(types, (list, tuple)):
        pattern = config.get("index_topk_pattern")
        if pattern is not None:
            types = [{"F": "full", "S": "shared"}.get(c, c) for c in pattern] if isinstance(pattern, str) else pattern
        else:
            freq, offset = max(config.get("index_topk_freq", 1), 1), config.get("index_skip_topk_offset", 2)
            types = ["full" if max(i - offset + 1, 0) % freq == 0 else "shared"
                     for i in range(config["num_hidden_layers"])]
    return {"indexer_types": tuple(types) if "shared" in types else ()}


FAMILIES = [
    Family(
        model_type="deepseek_v32",
        causal_lm_class="DeepseekV32ForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source=TF.format("deepseek_v32"),
        keys=DSA_KEYS,
        defaults=DEEPSEEK_V32,
        switches=LLAMA_SWITCHES,
        count_neutral=DSA_NEUTRAL,
        derive=DSA_RULES,
    ),
    Family(
        model_type="glm_moe_dsa",  # GLM-5: DeepSeek-V3.2's layout, an indexer only on "full" layers
        causal_lm_class="GlmMoeDsaForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source=TF.format("glm_moe_dsa"),
        keys=DSA_KEYS,
        defaults={**DEEPSEEK_V32, "vocab_size": 154880, "hidden_size": 6144, "intermediate_size": 12288,
                  "num_hidden_layers": 78, "num_attention_heads": 64, "num_key_value_heads": 64,
                  "q_lora_rank": 2048, "v_head_dim": 256, "qk_nope_head_dim": 192,
                  "max_position_embeddings": 202752, "index_n_heads": 32, "indexer_types": None},
        switches=LLAMA_SWITCHES,
        count_neutral=DSA_NEUTRAL | {"indexer_types", "index_topk_pattern", "index_topk_freq",
                                     "index_skip_topk_offset"},
        derive=(*DSA_RULES, glm_indexer_types),
    ),
]
