"""Mixture-of-experts families on Llama's attention: the experts are fused 3-D tensors, as
transformers 5 builds them (gate_up_proj (experts, 2 × moe_intermediate, hidden), down_proj
(experts, hidden, moe_intermediate)), with a linear router per MoE layer."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
MOE_KEYS = {**DECODER_KEYS, "num_experts_per_tok": "num_experts_per_tok"}

FAMILIES = [
    Family(
        model_type="mixtral",
        causal_lm_class="MixtralForCausalLM",
        source=TF.format("mixtral"),
        # MixtralConfig.attribute_map: num_experts stands for num_local_experts.  Every
        # expert is intermediate_size wide.
        keys={**MOE_KEYS, **same("head_dim"), "num_local_experts": "num_experts", "num_experts": "num_experts"},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "sliding_window": None,
                  "num_experts_per_tok": 2, "num_local_experts": 8},
        switches=LLAMA_SWITCHES,
        count_neutral=ROUTING_KEYS,
        derive=(rules.sliding_all,),
    ),
    Family(
        model_type="qwen2_moe",
        causal_lm_class="Qwen2MoeForCausalLM",
        source=TF.format("qwen2_moe"),
        # One shared expert of its own width behind a sigmoid gate; qkv_bias biases q, k, v (never o);
        # layers in mlp_only_layers or off the decoder_sparse_step grid are dense (intermediate_size).
        naming=Naming(shared_expert="mlp.shared_expert"),
        # (no head_dim declared: Qwen2MoeAttention is getattr(config, "head_dim", hidden // heads) wide, as Qwen2's)
        keys={**MOE_KEYS, **same("num_experts", "moe_intermediate_size", "shared_expert_intermediate_size",
                                 "head_dim"), "qkv_bias": "attention_bias"},
        defaults={"vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 24,
                  "num_attention_heads": 16, "num_key_value_heads": 16, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "use_sliding_window": False,
                  "sliding_window": 4096, "max_window_layers": 28, "decoder_sparse_step": 1,
                  "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632, "num_experts_per_tok": 4,
                  "num_experts": 60, "mlp_only_layers": None, "qkv_bias": True},
        switches={**LLAMA_SWITCHES, "shared_expert_gate": True, "attention_output_bias": False},
        count_neutral=ROUTING_KEYS | {"decoder_sparse_step"},
        derive=(rules.sparse_step, rules.qwen_moe_window),
    ),
    Family(
        model_type="qwen3_moe",
        causal_lm_class="Qwen3MoeForCausalLM",
        naming=Naming(layer_order=EXPERTS_FIRST),
        source=TF.format("qwen3_moe"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size"),
              "num_experts": "num_experts", "num_local_experts": "num_experts"},
        defaults={"vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 24,
                  "num_attention_heads": 32, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "attention_bias": False,
                  "use_sliding_window": False, "sliding_window": 4096, "decoder_sparse_step": 1,
                  "moe_intermediate_size": 768, "num_experts_per_tok": 8, "num_experts": 128,
                  "mlp_only_layers": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        count_neutral=ROUTING_KEYS | {"decoder_sparse_step"},
        derive=(rules.output_bias_follows("attention_bias"), rules.sparse_step, rules.qwen3_moe_window),
    ),
    Family(
        model_type="gpt_oss",
        causal_lm_class="GptOssForCausalLM",
        source=TF.format("gpt_oss"),
        # Every layer is MoE: a router with a bias, experts stored (experts, in, out) with
        # biases, one learned attention sink per head; attention_bias covers q, k, v and o.
        naming=Naming(router="mlp.router", experts_in_out=True, expert_biases=True,
                      layer_order=("self_attn.sinks",)),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias"), "num_local_experts": "num_experts",
              "num_experts": "num_experts", "intermediate_size": "moe_intermediate_size"},
        defaults={"num_hidden_layers": 36, "num_local_experts": 128, "vocab_size": 201088, "hidden_size": 2880,
                  "intermediate_size": 2880, "head_dim": 64, "num_attention_heads": 64, "num_key_value_heads": 8,
                  "sliding_window": 128, "tie_word_embeddings": False, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "num_experts_per_tok": 4, "attention_bias": True},
        switches={**LLAMA_SWITCHES, "router_bias": True, "attention_sinks": True},
        # experts_per_token and initial_context_length ship in gpt-oss's config.json for other
        # runtimes; GptOssConfig reads num_experts_per_tok and max_position_embeddings instead.
        count_neutral=ROUTING_KEYS | {"swiglu_alpha", "swiglu_limit", "experts_per_token", "initial_context_length"},
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_every(None, 2)),
    ),
]


FAMILIES.append(
    Family(
        model_type="phimoe",  # Phi-3.5-MoE: LayerNorm with bias, a router per layer, optional LM-head bias
        causal_lm_class="PhimoeForCausalLM",
        source=TF.format("phimoe"),
        naming=Naming(router="mlp.router"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "lm_head_bias"), "num_local_experts": "num_experts"},
        defaults={"vocab_size": 32064, "hidden_size": 4096, "intermediate_size": 6400, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "num_experts_per_tok": 2,
                  "num_local_experts": 16, "attention_bias": False, "lm_head_bias": False, "sliding_window": None},
        switches={**LLAMA_SWITCHES, "norm_type": "layernorm"},
        count_neutral=ROUTING_KEYS | {"input_jitter_noise"},
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_all),
    )
)

FAMILIES += [
    Family(
        model_type="minimax_m2",  # every layer MoE (experts intermediate_size wide), q/k norms over all channels
        causal_lm_class="MiniMaxM2ForCausalLM",
        naming=Naming(router_score_bias="mlp.e_score_correction_bias", router_score_bias_dtype=None),
        source=TF.format("minimax_m2"),
        keys={**MOE_KEYS, **same("head_dim"), "num_local_experts": "num_experts", "num_experts": "num_experts",
              "intermediate_size": "moe_intermediate_size"},
        defaults={"vocab_size": 200064, "hidden_size": 3072, "intermediate_size": 1536, "num_hidden_layers": 62,
                  "num_attention_heads": 48, "num_key_value_heads": 8, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 196608, "tie_word_embeddings": False, "num_experts_per_tok": 8,
                  "num_local_experts": 256},
        switches={**LLAMA_SWITCHES, "qk_norm": "full"},
        # MiniMax's releases: use_mtp, num_mtp_modules and mtp_transformer_layers describe multi-token-prediction
        # modules MiniMaxM2ForCausalLM does not build (as DeepSeek's num_nextn_predict_layers).
        count_neutral=ROUTING_KEYS | {"use_qk_norm", "qk_norm_type", "scoring_func", "use_routing_bias",
                                      "rotary_dim", "use_mtp", "num_mtp_modules", "mtp_transformer_layers"},
        # MiniMaxM2Config reads neither: every layer full attention (1; MiniMax-M1's 0 was lightning
        # attention) and no shared expert.
        expects={"attn_type_list": 1, "shared_intermediate_size": 0},
        derive=(rules.sliding_all,),
    ),
    Family(
        model_type="exaone_moe",  # EXAONE 4's q/k norms and window pattern, pre-norm, routed + shared experts
        causal_lm_class="ExaoneMoeForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source=TF.format("exaone_moe"),
        keys={**MOE_KEYS, **same("head_dim", "num_experts", "moe_intermediate_size"),
              "num_shared_experts": "n_shared_experts"},
        defaults={"vocab_size": 102400, "hidden_size": 4096, "intermediate_size": 16384, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "mlp_layer_types": None,
                  "first_k_dense_replace": 1, "moe_intermediate_size": 1024, "num_experts": 64,
                  "num_experts_per_tok": 8, "num_shared_experts": 1, "sliding_window": 4096,
                  "sliding_window_pattern": 4},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        count_neutral=ROUTING_KEYS | {"mlp_layer_types", "first_k_dense_replace", "num_nextn_predict_layers",
                                      "num_mtp_layers"},
        derive=(rules.mlp_layer_types(lambda i, config: i < (config.get("first_k_dense_replace") or 0)),
                rules.sliding_every("sliding_window_pattern", 4)),
    ),
]

FAMILIES += [
    Family(
        model_type="solar_open",  # every layer MoE with shared experts; attention_bias biases q, k, v only
        causal_lm_class="SolarOpenForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source=TF.format("solar_open"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "n_shared_experts"),
              "n_routed_experts": "num_experts", "num_local_experts": "num_experts"},
        defaults={"vocab_size": 196608, "hidden_size": 4096, "num_hidden_layers": 48, "num_attention_heads": 64,
                  "num_key_value_heads": 8, "hidden_act": "silu", "max_position_embeddings": 131072,
                  "tie_word_embeddings": False, "attention_bias": False, "moe_intermediate_size": 1280,
                  "num_experts_per_tok": 8, "n_shared_experts": 1, "n_routed_experts": 128, "head_dim": 128,
                  "intermediate_size": None},
        switches={**LLAMA_SWITCHES, "attention_output_bias": False},
        count_neutral=ROUTING_KEYS | {"first_k_dense_replace"},
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="mellum",  # per-head q/k norms, dense or sparse layers by mlp_layer_types (default all sparse)
        causal_lm_class="MellumForCausalLM",
        naming=Naming(rotary_per_layer_type=True, layer_order=EXPERTS_FIRST),
        source=TF.format("mellum"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "num_experts"),
              "num_local_experts": "num_experts"},
        defaults={"vocab_size": 98304, "hidden_size": 2304, "intermediate_size": 7168, "num_hidden_layers": 28,
                  "num_attention_heads": 32, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
                  "moe_intermediate_size": 896, "num_experts_per_tok": 8, "num_experts": 64, "head_dim": 128,
                  "mlp_layer_types": None, "sliding_window": 1024},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        count_neutral=ROUTING_KEYS | {"mlp_layer_types", "num_nextn_predict_layers", "num_mtp_layers",
                                      "mtp_layer_types", "mtp_mlp_layer_types"},
        derive=(rules.output_bias_follows("attention_bias"), rules.mlp_layer_types(lambda i, config: False),
                rules.sliding_except(lambda i, config: True, True)),
    ),
    Family(
        model_type="kolibri1",  # GLM-4's sandwich norm names, per-head q/k norms, routed + shared experts
        causal_lm_class="Kolibri1ForCausalLM",
        source=TF.format("kolibri1"),
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias",
                      attn_post_norm="post_self_attn_layernorm", ffn_pre_norm="post_attention_layernorm",
                      ffn_post_norm="post_mlp_layernorm",
                      layer_order=("self_attn", "mlp.experts", "mlp.gate", "mlp.shared_experts", "input_layernorm",
                                   "post_attention_layernorm")),
        keys={**MOE_KEYS, **same("head_dim", "moe_intermediate_size", "num_experts",
                                 "shared_expert_intermediate_size"), "num_local_experts": "num_experts"},
        defaults={"vocab_size": 128000, "hidden_size": 2560, "num_hidden_layers": 50, "num_attention_heads": 48,
                  "num_key_value_heads": 4, "hidden_act": "silu", "max_position_embeddings": 262144,
                  "tie_word_embeddings": False, "moe_intermediate_size": 512, "num_experts_per_tok": 6,
                  "num_experts": 384, "head_dim": 128, "shared_expert_intermediate_size": 512,
                  "intermediate_size": None, "sliding_window": 513},
        switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "qk_norm": "head"},
        count_neutral=ROUTING_KEYS,
        # (Kolibri1Config.validate_architecture: a positive window where a layer slides)
        derive=(rules.window_required(lambda i, config: (i + 1) % 5 == 0),),
    ),
]

FAMILIES += [
    Family(
        model_type="flint",  # sinks, per-head q/k norms, Qwen-MoE layout with an ungated shared expert
        causal_lm_class="FlintForCausalLM",
        source=TF.format("flint"),
        naming=Naming(shared_expert="mlp.shared_expert",
                      layer_order=("self_attn.sinks", "self_attn", "mlp.experts")),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "num_experts",
                                 "shared_expert_intermediate_size")},
        defaults={"vocab_size": 150144, "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 49,
                  "num_attention_heads": 32, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 262144, "tie_word_embeddings": False, "decoder_sparse_step": 1,
                  "moe_intermediate_size": 512, "shared_expert_intermediate_size": 1024, "num_experts_per_tok": 6,
                  "num_experts": 256, "head_dim": 128, "attention_bias": False, "mlp_only_layers": [0, 1],
                  "sliding_window": 513},
        switches={**LLAMA_SWITCHES, "qk_norm": "head", "attention_sinks": True},
        count_neutral=ROUTING_KEYS | {"decoder_sparse_step"},
        # FlintConfig: mlp_only_layers None means [0, 1] (the first two layers dense).
        derive=(rules.output_bias_follows("attention_bias"),
                lambda c: rules.sparse_step({**c, "mlp_only_layers": c.get("mlp_only_layers")
                                             if c.get("mlp_only_layers") is not None else [0, 1]}),
                rules.sliding_except(lambda i, config: i < 2 or i % 4 == 1 or i == config["num_hidden_layers"] - 1)),
    ),
    Family(
        model_type="hy_v3",  # per-head q/k norms; mlp_bias on the dense and shared MLPs, never the experts
        causal_lm_class="HYV3ForCausalLM",
        naming=Naming(router_score_bias="mlp.e_score_correction_bias"),
        source=TF.format("hy_v3"),
        keys={**MOE_KEYS, **same("head_dim", "attention_bias", "mlp_bias", "moe_intermediate_size", "num_experts"),
              "num_local_experts": "num_experts", "num_shared_experts": "n_shared_experts"},
        defaults={"vocab_size": 120832, "hidden_size": 4096, "intermediate_size": 13312, "num_hidden_layers": 80,
                  "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False, "num_experts": 192, "num_experts_per_tok": 8, "num_shared_experts": 1,
                  "moe_intermediate_size": 1536, "mlp_layer_types": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        count_neutral=ROUTING_KEYS | {"router_scaling_factor", "enable_moe_fp32_combine", "mlp_layer_types"},
        derive=(rules.output_bias_follows("attention_bias"), rules.mlp_layer_types(lambda i, config: i == 0),
                rules.no_sliding),
    ),
]

FAMILIES.append(
    Family(
        model_type="aria_text",  # Aria's decoder: every layer MoE, experts (experts, in, out), shared experts
        causal_lm_class="AriaTextForCausalLM",
        source="transformers 5.24.0 models/aria/configuration_aria.py (AriaTextConfig)",
        naming=Naming(router="mlp.router", experts_in_out=True),
        # Routed and shared experts are all intermediate_size wide.
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias"),
              "intermediate_size": "moe_intermediate_size",
              "moe_num_experts": "num_experts", "moe_topk": "num_experts_per_tok",
              "moe_num_shared_experts": "n_shared_experts"},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 4096, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False, "head_dim": None, "moe_num_experts": 8, "moe_topk": 2,
                  "moe_num_shared_experts": 2},
        switches=LLAMA_SWITCHES,
        count_neutral=ROUTING_KEYS,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    )
)

FAMILIES.append(
    Family(
        model_type="hunyuan_v1_moe",  # every layer MoE plus one intermediate_size-wide shared MLP; router mlp.gate.wg
        causal_lm_class="HunYuanMoEV1ForCausalLM",
        source=TF.format("hunyuan_v1_moe"),
        naming=Naming(router="mlp.gate.wg", shared_expert="mlp.shared_mlp",
                      q_norm="self_attn.query_layernorm", k_norm="self_attn.key_layernorm"),
        # HunYuanMoEV1Config.attribute_map: moe_topk and num_experts are its own names.
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "num_experts"),
              "num_local_experts": "num_experts", "moe_topk": "num_experts_per_tok",
              "num_experts_per_tok": "num_experts_per_tok"},
        defaults={"vocab_size": 290943, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "num_experts": 1, "moe_topk": 1, "head_dim": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        count_neutral=ROUTING_KEYS | {"eod_token_id", "mlp_bias", "use_qk_norm", "use_cla", "cla_share_factor",
                                      "num_shared_expert", "use_mixed_mlp_moe", "moe_intermediate_size"},
        derive=(rules.must_be_set("head_dim"), rules.output_bias_follows("attention_bias"),
                lambda c: {"shared_expert_intermediate_size": c["intermediate_size"]}, rules.no_sliding),
    )
)


def _ernie_moe_layers(config):
    """ERNIE 4.5 MoE's sparse layers and biases (Ernie4_5_MoeDecoderLayer).

    Layer i is sparse when (i + 1) % moe_layer_interval == 0 and it lies in
    moe_layer_start_index..moe_layer_end_index (-1: the last layer); one use_bias flag biases every
    attention and dense/shared MLP projection and the LM head, never the routed experts."""
    layers = config["num_hidden_layers"]
    if not config.get("moe_num_experts"):
        from .._exceptions import ArchitectureError

        raise ArchitectureError("moe_num_experts", "must be positive (transformers 5.24.0 builds no router without "
                                                   "experts)")
    start, end, step = config["moe_layer_start_index"], config["moe_layer_end_index"], config["moe_layer_interval"]
    end = layers - 1 if end == -1 else end
    bias = bool(config.get("use_bias"))
    return {"mlp_only_layers": tuple(i for i in range(layers) if (i + 1) % step or not start <= i <= end),
            "attention_output_bias": bias, "mlp_bias": bias, "lm_head_bias": bias}


FAMILIES.append(
    Family(
        model_type="ernie4_5_moe",  # ERNIE 4.5 MoE: a learned routing correction bias, shared experts, use_bias
        causal_lm_class="Ernie4_5_MoeForCausalLM",
        source=TF.format("ernie4_5_moe"),
        # Ernie4_5_MoeAttention reads head_dim when the config has one, else hidden_size // heads.
        keys={**DECODER_KEYS, **same("head_dim", "moe_intermediate_size"), "use_bias": "attention_bias",
              "moe_num_experts": "num_experts", "num_experts": "num_experts", "moe_k": "num_experts_per_tok",
              "num_experts_per_tok": "num_experts_per_tok", "moe_num_shared_experts": "n_shared_experts"},
        defaults={"vocab_size": 103424, "hidden_size": 2560, "intermediate_size": 12288, "num_hidden_layers": 28,
                  "num_attention_heads": 20, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": True, "use_bias": False,
                  "moe_intermediate_size": 1536, "moe_k": 6, "moe_num_experts": 64, "moe_num_shared_experts": 2,
                  "moe_layer_start_index": 1, "moe_layer_end_index": -1, "moe_layer_interval": 1},
        # Ernie4_5_MoeStatics.e_score_correction_bias is an nn.Parameter (1, experts).
        switches={**LLAMA_SWITCHES, "router_correction_bias": True},
        count_neutral=ROUTING_KEYS | {"moe_layer_start_index", "moe_layer_end_index", "moe_layer_interval",
                                      "moe_norm_min"},
        derive=(_ernie_moe_layers, rules.no_sliding),
    )
)
