"""DeepSeek-V3: multi-head latent attention (low-rank q and kv with their own RMSNorms), the
first first_k_dense_replace layers dense, then routed experts plus n_shared_experts shared
ones.  The router's e_score_correction_bias is a buffer, not a parameter: it is not counted."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS

# The keys of DeepSeek-V3's config class, which GLM-4-MoE-Lite shares: latent attention ranks,
# routed and shared experts (attribute_map: num_local_experts stands for n_routed_experts).
MLA_MOE_KEYS = {**DECODER_KEYS, **same("moe_intermediate_size", "n_shared_experts", "kv_lora_rank", "q_lora_rank",
                                       "qk_rope_head_dim", "v_head_dim", "qk_nope_head_dim", "num_experts_per_tok",
                                       "attention_bias"),
                "n_routed_experts": "num_experts", "num_local_experts": "num_experts"}

FAMILIES = [
    Family(
        model_type="deepseek_v3",
        causal_lm_class="DeepseekV3ForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source="transformers 5.24.0 models/deepseek_v3/configuration_deepseek_v3.py",
        keys=MLA_MOE_KEYS,
        defaults={"vocab_size": 129280, "hidden_size": 7168, "intermediate_size": 18432,
                  "moe_intermediate_size": 2048, "num_hidden_layers": 61, "num_attention_heads": 128,
                  "num_key_value_heads": 128, "n_shared_experts": 1, "n_routed_experts": 256, "kv_lora_rank": 512,
                  "q_lora_rank": 1536, "qk_rope_head_dim": 64, "v_head_dim": 128, "qk_nope_head_dim": 128,
                  "num_experts_per_tok": 8, "first_k_dense_replace": 3, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False},
        switches=LLAMA_SWITCHES,
        # num_nextn_predict_layers: the multi-token-prediction module ships in the checkpoint
        # but DeepseekV3ForCausalLM does not build it.
        # head_dim and qk_head_dim are derived by DeepseekV3Config (from the qk_* dims), never read.
        # moe_layer_freq: DeepSeek-V3's config.json has it; DeepseekV3ForCausalLM ignores it.
        count_neutral=ROUTING_KEYS | {"first_k_dense_replace", "num_nextn_predict_layers", "num_mtp_layers",
                                      "head_dim", "qk_head_dim", "moe_layer_freq"},
        derive=(rules.output_bias_follows("attention_bias"), rules.first_k_dense, rules.no_sliding),
    ),
]


FAMILIES.append(
    Family(
        model_type="deepseek_v2",  # V3's layout; mlp_bias biases the dense and shared MLPs (never the experts)
        causal_lm_class="DeepseekV2ForCausalLM",
        naming=Naming(layer_order=EXPERTS_FIRST),
        source="transformers 5.24.0 models/deepseek_v2/configuration_deepseek_v2.py",
        keys={**DECODER_KEYS, **same("moe_intermediate_size", "n_shared_experts", "kv_lora_rank", "q_lora_rank",
                                     "qk_rope_head_dim", "v_head_dim", "qk_nope_head_dim", "attention_bias",
                                     "mlp_bias"),
              "n_routed_experts": "num_experts", "num_experts": "num_experts"},  # attribute_map
        defaults={"vocab_size": 102400, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False, "first_k_dense_replace": 0, "kv_lora_rank": 512, "q_lora_rank": 1536,
                  "n_routed_experts": 64, "n_shared_experts": 2, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                  "v_head_dim": 128, "num_experts_per_tok": None, "moe_intermediate_size": 1407},
        switches=LLAMA_SWITCHES,
        count_neutral=ROUTING_KEYS | {"first_k_dense_replace", "head_dim", "qk_head_dim", "num_experts_per_tok"},
        derive=(rules.output_bias_follows("attention_bias"), rules.first_k_dense, rules.top_k_or_all, rules.no_sliding),
    )
)

FAMILIES += [
    Family(
        model_type="youtu",  # DeepSeek's latent attention with a dense FFN in every layer
        causal_lm_class="YoutuForCausalLM",
        source="transformers 5.24.0 models/youtu/configuration_youtu.py",
        keys={**DECODER_KEYS, **same("kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "v_head_dim",
                                     "qk_nope_head_dim", "attention_bias")},
        defaults={"vocab_size": 128256, "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 32,
                  "num_attention_heads": 16, "num_key_value_heads": 16, "kv_lora_rank": 512, "q_lora_rank": 1536,
                  "qk_rope_head_dim": 64, "v_head_dim": 128, "qk_nope_head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": True, "attention_bias": False},
        switches=LLAMA_SWITCHES,
        count_neutral=frozenset({"embedding_initializer_range", "head_dim", "qk_head_dim"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="glm4_moe_lite",  # latent attention, routed + shared experts, dense layers by mlp_layer_types
        causal_lm_class="Glm4MoeLiteForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source="transformers 5.24.0 models/glm4_moe_lite/configuration_glm4_moe_lite.py",
        keys=MLA_MOE_KEYS,
        defaults={"vocab_size": 154880, "hidden_size": 2048, "intermediate_size": 10240,
                  "moe_intermediate_size": 1536, "num_hidden_layers": 47, "num_attention_heads": 20,
                  "num_key_value_heads": 20, "n_shared_experts": 1, "n_routed_experts": 64, "kv_lora_rank": 512,
                  "q_lora_rank": 768, "qk_rope_head_dim": 64, "v_head_dim": 256, "qk_nope_head_dim": 192,
                  "num_experts_per_tok": 4, "hidden_act": "silu", "max_position_embeddings": 202752,
                  "tie_word_embeddings": False, "attention_bias": False, "mlp_layer_types": None},
        switches=LLAMA_SWITCHES,
        count_neutral=ROUTING_KEYS | {"mlp_layer_types", "head_dim", "qk_head_dim", "num_nextn_predict_layers",
                                      "num_mtp_layers"},
        derive=(rules.output_bias_follows("attention_bias"), rules.mlp_layer_types(lambda i, config: i == 0),
                rules.no_sliding),
    ),
]

FAMILIES += [
    Family(
        model_type="sarvam_mla",  # DeepSeek-V3's tensors (DeepseekV3ForCausalLM), full-rank q by default
        causal_lm_class="DeepseekV3ForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source="transformers 5.24.0 models/sarvam_mla/configuration_sarvam_mla.py",
        keys={**FAMILIES[0].keys, "num_experts": "num_experts", "num_shared_experts": "n_shared_experts"},
        defaults={"vocab_size": 262144, "hidden_size": 4096, "intermediate_size": 16384,
                  "moe_intermediate_size": 2048, "num_hidden_layers": 32, "num_attention_heads": 64,
                  "num_key_value_heads": None, "n_shared_experts": 1, "n_routed_experts": 128, "kv_lora_rank": 512,
                  "q_lora_rank": None, "qk_rope_head_dim": 64, "v_head_dim": 128, "qk_nope_head_dim": 128,
                  "num_experts_per_tok": 8, "first_k_dense_replace": 1, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False},
        switches=LLAMA_SWITCHES,
        count_neutral=FAMILIES[0].count_neutral | {"q_head_dim"},
        derive=FAMILIES[0].derive,
    ),
    Family(
        model_type="minicpm3",  # latent attention with a dense FFN; v_head_dim None: hidden_size / heads
        causal_lm_class="MiniCPM3ForCausalLM",
        naming=Naming(model_buffers=(("model.embed_tokens.embed_scale", (), "int64", False),)),
        source="transformers 5.24.0 models/minicpm3/configuration_minicpm3.py",
        keys={**DECODER_KEYS, **same("kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "v_head_dim",
                                     "qk_nope_head_dim", "attention_bias", "mlp_bias")},
        defaults={"vocab_size": 73448, "hidden_size": 2560, "intermediate_size": 6400, "num_hidden_layers": 62,
                  "num_attention_heads": 40, "num_key_value_heads": 40, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": True, "attention_bias": False,
                  "mlp_bias": False, "kv_lora_rank": 256, "q_lora_rank": 768, "qk_nope_head_dim": 64,
                  "qk_rope_head_dim": 32, "v_head_dim": None},
        switches=LLAMA_SWITCHES,
        count_neutral=frozenset({"head_dim", "qk_head_dim", "scale_emb", "scale_depth", "dim_model_base",
                                 "logits_scaling"}),
        derive=(rules.output_bias_follows("attention_bias"),
                # (null: MiniCPM3Config's hidden_size // heads; a 0 given stays 0, refused as a size)
                lambda c: {"v_head_dim": c["hidden_size"] // c["num_attention_heads"] if c.get("v_head_dim") is None
                           else c["v_head_dim"]},
                rules.no_sliding),
    ),
]


# Releases whose config.json names a model_type transformers does not know, with an auto_map to remote code that
# is this module's family's own: counted as that family, and said so.
SAME_CODE = {
    # Kimi K2 (moonshotai/Kimi-K2-Instruct, -Thinking): auto_map to configuration_deepseek.DeepseekV3Config and
    # modeling_deepseek.DeepseekV3ForCausalLM; its deploy guidance (docs/deploy_guidance.md in the release) says it
    # reuses DeepSeek-V3's architecture and sets model_type kimi_k2 only so that engines can tell the two apart.
    "kimi_k2": ("deepseek_v3", "the release's deploy guidance: DeepSeek-V3's architecture, renamed"),
}
