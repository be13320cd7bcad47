"""Llama and the families that build Llama's tensors (a few switches apart) under their own model_type."""

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, derived_from, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"

FAMILIES = [
    Family(
        model_type="llama",
        causal_lm_class="LlamaForCausalLM",
        source=TF.format("llama"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),  # one flag for q, k, v and o
    ),
    Family(
        model_type="mistral",
        causal_lm_class="MistralForCausalLM",
        source=TF.format("mistral"),
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "sliding_window": 4096},
        switches=LLAMA_SWITCHES,
        derive=(rules.sliding_all,),
    ),
    Family(
        model_type="qwen2",
        causal_lm_class="Qwen2ForCausalLM",
        source=TF.format("qwen2"),
        # Qwen2Config declares no head_dim, but Qwen2Attention is getattr(config, "head_dim", hidden // heads) wide
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "use_sliding_window": False,
                  "sliding_window": 4096, "max_window_layers": 28},
        # modeling_qwen2.py: q, k and v always carry a bias, o never (no config key).
        switches={**LLAMA_SWITCHES, "attention_bias": True, "attention_output_bias": False},
        count_neutral=frozenset({"use_mrope"}),  # in Qwen2.5 configs; read only by the vision models
        derive=(rules.qwen_window,),
    ),
    Family(
        model_type="qwen3",
        causal_lm_class="Qwen3ForCausalLM",
        source=TF.format("qwen3"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "attention_bias": False,
                  "use_sliding_window": False, "sliding_window": 4096, "max_window_layers": 28},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},  # one RMSNorm(head_dim) on q and one on k
        derive=(rules.output_bias_follows("attention_bias"), rules.qwen_window),
    ),
]

# DiffLlama: identical to Llama except four learned head_dim vectors in each layer's attention (lambda_q1,
# lambda_k1, lambda_q2, lambda_k2, registered before its projections; its groupnorm holds no weight) and an FFN
# without biases (modeling_diffllama.py DiffLlamaAttention, DiffLlamaMLP).
def even_kv_heads(config: Mapping[str, Any]) -> dict[str, Any]:
    """DiffLlamaAttention refuses an odd number of KV heads: its two halves split the values by KV head."""
    kv_heads = config.get("num_key_value_heads") or config["num_attention_heads"]
    if kv_heads % 2:
        raise ArchitectureError("num_key_value_heads", f"{kv_heads} is odd: DiffLlama splits the values' KV heads "
                                "into two halves (transformers refuses it too)")
    return {}


FAMILIES.append(derived_from(
    FAMILIES[0], model_type="diffllama", causal_lm_class="DiffLlamaForCausalLM", source=TF.format("diffllama"),
    naming=Naming(layer_order=tuple(f"self_attn.lambda_{which}" for which in ("q1", "k1", "q2", "k2"))),
    keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
    defaults={"vocab_size": 32000, "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
              "num_attention_heads": 32, "num_key_value_heads": None, "head_dim": None, "hidden_act": "silu",
              "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False},
    switches={**LLAMA_SWITCHES, "attention_lambdas": True},
    count_neutral=frozenset({"lambda_std_dev"}),
    derive=(*FAMILIES[0].derive, even_kv_heads),
))

# Llama's tensors under other model_types (each reads Llama's keys under its own defaults).
LLAMA_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")}
FAMILIES += [
    Family(
        model_type="arcee",  # AFM: Llama with an ungated up/down FFN (ReLU²)
        causal_lm_class="ArceeForCausalLM",
        source=TF.format("arcee"),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 32000, "hidden_size": 2560, "intermediate_size": 18432, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "head_dim": None, "hidden_act": "relu2",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches={**LLAMA_SWITCHES, "mlp_gated": False},
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="smollm3",  # Llama with RoPE left out of every 4th layer (no tensors)
        causal_lm_class="SmolLM3ForCausalLM",
        source=TF.format("smollm3"),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 128256, "hidden_size": 2048, "intermediate_size": 11008, "num_hidden_layers": 36,
                  "num_attention_heads": 16, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": True, "attention_bias": False,
                  "mlp_bias": False, "use_sliding_window": False, "sliding_window": None,
                  "no_rope_layer_interval": 4},
        switches=LLAMA_SWITCHES,
        count_neutral=frozenset({"no_rope_layers", "no_rope_layer_interval"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.smollm3_window),
    ),
    Family(
        model_type="seed_oss",  # q/k/v bias and o bias under separate keys
        causal_lm_class="SeedOssForCausalLM",
        source=TF.format("seed_oss"),
        keys={**LLAMA_KEYS, "attention_out_bias": "attention_output_bias"},
        defaults={"vocab_size": 155136, "hidden_size": 4096, "intermediate_size": 27648, "num_hidden_layers": 64,
                  "num_attention_heads": 80, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 524288, "tie_word_embeddings": False, "attention_bias": True,
                  "attention_out_bias": False, "mlp_bias": False, "head_dim": 128},
        switches=LLAMA_SWITCHES,
        count_neutral=frozenset({"residual_dropout"}),
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="ernie4_5",  # one use_bias flag for every attention and FFN projection
        causal_lm_class="Ernie4_5ForCausalLM",
        source=TF.format("ernie4_5"),
        keys={**DECODER_KEYS, "head_dim": "head_dim", "use_bias": "attention_bias"},
        defaults={"vocab_size": 103424, "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 18,
                  "num_attention_heads": 16, "num_key_value_heads": 2, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": True, "use_bias": False,
                  "head_dim": 128},
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("use_bias"), lambda c: {"mlp_bias": bool(c.get("use_bias"))},
                rules.no_sliding),
    ),
    Family(
        model_type="cwm",  # Code World Model: Llama, every 4th layer global, the rest sliding
        causal_lm_class="CwmForCausalLM",
        source=TF.format("cwm"),
        keys={**DECODER_KEYS, **same("head_dim", "mlp_bias")},
        defaults={"vocab_size": 128256, "hidden_size": 6144, "intermediate_size": 21504, "num_hidden_layers": 64,
                  "num_attention_heads": 48, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "mlp_bias": False,
                  "head_dim": 128, "sliding_window": 8192},
        switches=LLAMA_SWITCHES,
        # (CwmConfig: a falsy window becomes None, which its @strict int field refuses)
        derive=(rules.window_required(lambda i, config: i % 4 == 0, always=True),),
    ),
    Family(
        model_type="ministral3",
        causal_lm_class="Ministral3ForCausalLM",
        source=TF.format("ministral3"),
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"vocab_size": 131072, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 34,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 262144, "tie_word_embeddings": False, "sliding_window": None},
        switches=LLAMA_SWITCHES,
        derive=(rules.sliding_all,),
    ),
    Family(
        model_type="helium",  # q/k/v bias by attention_bias, o never; o_proj is hidden × hidden
        causal_lm_class="HeliumForCausalLM",
        source=TF.format("helium"),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 48000, "hidden_size": 2560, "intermediate_size": 7040, "num_hidden_layers": 24,
                  "num_attention_heads": 20, "num_key_value_heads": 20, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches={**LLAMA_SWITCHES, "attention_output_bias": False},
        derive=(rules.heads_fill_hidden("its o_proj is hidden_size square"), rules.no_sliding),
    ),
]
# Configs that transformers builds as LlamaForCausalLM itself (auto/modeling_auto.py).
for _model_type, _defaults, _extra_keys in (
    ("internlm3", {"vocab_size": 128512, "hidden_size": 4096, "intermediate_size": 10240, "num_hidden_layers": 48,
                   "num_attention_heads": 32, "num_key_value_heads": 2, "max_position_embeddings": 32768,
                   "tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False, "head_dim": 128,
                   "hidden_act": "silu"},
     {"qkv_bias": "attention_bias", "bias": "mlp_bias"}),  # InternLM3Config.attribute_map
    ("iquestcoder", {"vocab_size": 76800, "hidden_size": 5120, "intermediate_size": 27648, "num_hidden_layers": 80,
                     "num_attention_heads": 40, "num_key_value_heads": 8, "max_position_embeddings": 131072,
                     "tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False, "head_dim": 128,
                     "hidden_act": "silu"}, {}),
    ("exaone", {"vocab_size": 102400, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 4096,
                "tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False, "head_dim": None,
                "hidden_act": "silu"},
     {"num_layers": "num_hidden_layers", "activation_function": "hidden_act"}),  # ExaoneConfig.attribute_map
):
    FAMILIES.append(Family(
        model_type=_model_type,
        causal_lm_class="LlamaForCausalLM",
        source=TF.format(_model_type),
        keys={**LLAMA_KEYS, **_extra_keys},
        defaults=_defaults,
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ))

FAMILIES += [
    Family(
        model_type="exaone4",  # post-norm (after attention and FFN), per-head q/k norms, 3 local : 1 global
        causal_lm_class="Exaone4ForCausalLM",
        source=TF.format("exaone4"),
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"vocab_size": 102400, "hidden_size": 4096, "intermediate_size": 16384, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "sliding_window": 4096,
                  "sliding_window_pattern": 4},
        switches={**LLAMA_SWITCHES, "norm_placement": "post", "qk_norm": "head"},
        derive=(rules.sliding_every("sliding_window_pattern", 4),),
    ),
    Family(
        model_type="starcoder2",  # LayerNorm, ungated c_fc/c_proj FFN, one use_bias flag for every projection
        causal_lm_class="Starcoder2ForCausalLM",
        source=TF.format("starcoder2"),
        naming=Naming(up="mlp.c_fc", down="mlp.c_proj"),
        keys={**DECODER_KEYS, "head_dim": "head_dim", "use_bias": "attention_bias"},
        defaults={"vocab_size": 49152, "hidden_size": 3072, "intermediate_size": 12288, "num_hidden_layers": 30,
                  "num_attention_heads": 24, "num_key_value_heads": 2, "hidden_act": "gelu_pytorch_tanh",
                  "max_position_embeddings": 4096, "use_bias": True, "tie_word_embeddings": True,
                  "sliding_window": None},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "rope"},
        # bigcode's releases carry their training code's switches: the softmax's precision changes no count;
        # Starcoder2Config has no norm_type or mlp_type and always builds LayerNorm and the c_fc/c_proj FFN.
        count_neutral=frozenset({"norm_epsilon", "residual_dropout", "embedding_dropout", "attention_softmax_in_fp32",
                                 "scale_attention_softmax_in_fp32"}),
        expects={"norm_type": "layer_norm", "mlp_type": "default"},
        derive=(rules.output_bias_follows("use_bias"), lambda c: {"mlp_bias": bool(c.get("use_bias"))},
                rules.sliding_all),
    ),
]


def _stablelm_block(config):
    # modeling_stablelm.py: with use_parallel_residual the block has no post_attention_layernorm;
    # qk_layernorm adds StableLmLayerNormPerHead, one bias-free LayerNorm(head_dim) per head.
    return {"norm_placement": "parallel" if config.get("use_parallel_residual") else "pre",
            "qk_norm": "per_head" if config.get("qk_layernorm") else "none", "qk_norm_bias": False}


FAMILIES += [
    Family(
        model_type="stablelm",  # LayerNorm with bias, q/k/v bias by use_qkv_bias, o_proj hidden square
        causal_lm_class="StableLmForCausalLM",
        source=TF.format("stablelm"),
        naming=Naming(q_norm="self_attn.q_layernorm.norms.{h}", k_norm="self_attn.k_layernorm.norms.{h}"),
        keys={**DECODER_KEYS, "use_qkv_bias": "attention_bias"},
        defaults={"partial_rotary_factor": 0.25,
                  "vocab_size": 50304, "intermediate_size": 6912, "hidden_size": 2560, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "use_qkv_bias": False,
                  "qk_layernorm": False, "use_parallel_residual": False},
        # norm_placement comes from use_parallel_residual (_stablelm_block), not from the switches.
        switches={"mlp_gated": True, "norm_type": "layernorm", "position_embedding_type": "rope",
                  "attention_output_bias": False},
        count_neutral=frozenset({"use_parallel_residual", "qk_layernorm"}),
        derive=(_stablelm_block, rules.no_sliding),
    ),
    Family(
        model_type="jais2",  # LayerNorm with bias, ungated up/down FFN
        causal_lm_class="Jais2ForCausalLM",
        source=TF.format("jais2"),
        naming=Naming(),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 150272, "hidden_size": 3328, "intermediate_size": 26624, "num_hidden_layers": 32,
                  "num_attention_heads": 26, "num_key_value_heads": None, "head_dim": None, "hidden_act": "relu2",
                  "max_position_embeddings": 8192, "tie_word_embeddings": False, "attention_bias": True,
                  "mlp_bias": True},
        switches={**LLAMA_SWITCHES, "mlp_gated": False, "norm_type": "layernorm"},
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="nanochat",  # RMSNorm without a learned scale everywhere (q/k norms too), ungated fc1/fc2
        causal_lm_class="NanoChatForCausalLM",
        source=TF.format("nanochat"),
        naming=Naming(up="mlp.fc1", down="mlp.fc2"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"vocab_size": 50304, "hidden_size": 768, "intermediate_size": 8192, "num_hidden_layers": 12,
                  "num_attention_heads": 6, "num_key_value_heads": None, "hidden_act": "relu2",
                  "max_position_embeddings": 2048, "attention_bias": False, "tie_word_embeddings": False},
        switches={**LLAMA_SWITCHES, "mlp_gated": False, "norm_type": "nonparametric", "qk_norm": "head"},
        count_neutral=frozenset({"final_logit_softcapping"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
]


def _peri_norm(config):
    # HyperCLOVA X: use_post_norm adds post_norm1/post_norm2 after attention and the FFN.
    return {"norm_placement": "sandwich" if config.get("use_post_norm") else "pre"}


FAMILIES.append(
    Family(
        model_type="hyperclovax",
        causal_lm_class="HyperCLOVAXForCausalLM",
        source=TF.format("hyperclovax"),
        naming=Naming(attn_post_norm="post_norm1", ffn_pre_norm="post_attention_layernorm",
                      ffn_post_norm="post_norm2",
                      layer_order=("self_attn", "mlp", "input_layernorm", "post_attention_layernorm", "post_norm1",
                                   "post_norm2")),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False, "head_dim": None, "use_post_norm": True},
        switches={"mlp_gated": True, "norm_type": "rmsnorm", "position_embedding_type": "rope"},
        count_neutral=frozenset({"use_post_norm", "embedding_multiplier", "logits_scaling", "residual_multiplier",
                                 "attention_multiplier"}),
        derive=(rules.output_bias_follows("attention_bias"), _peri_norm, rules.no_sliding),
    )
)

FAMILIES += [
    Family(
        model_type="ministral",  # Llama's tensors; every layer slides when sliding_window is set
        causal_lm_class="MinistralForCausalLM",
        source=TF.format("ministral"),
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "sliding_window": 4096},
        switches=LLAMA_SWITCHES,
        derive=(rules.must_be_set("head_dim"), rules.sliding_all),
    ),
    Family(
        model_type="hunyuan_v1_dense",  # per-head q/k norms named query_layernorm/key_layernorm
        causal_lm_class="HunYuanDenseV1ForCausalLM",
        source=TF.format("hunyuan_v1_dense"),
        naming=Naming(q_norm="self_attn.query_layernorm", k_norm="self_attn.key_layernorm"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"vocab_size": 290943, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "head_dim": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        # mlp_bias appears in HunYuan configs; HunYuanDenseV1MLP builds no bias regardless.
        count_neutral=frozenset({"eod_token_id", "mlp_bias", "use_qk_norm", "use_cla", "cla_share_factor"}),
        derive=(rules.must_be_set("head_dim"), rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="nemotron",  # LayerNorm1P (scale and offset), ungated ReLU² FFN
        causal_lm_class="NemotronForCausalLM",
        source=TF.format("nemotron"),
        keys=LLAMA_KEYS,
        defaults={"partial_rotary_factor": 0.5,
                  "vocab_size": 256000, "hidden_size": 6144, "intermediate_size": 24576, "num_hidden_layers": 32,
                  "num_attention_heads": 48, "head_dim": None, "num_key_value_heads": None, "hidden_act": "relu2",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches={**LLAMA_SWITCHES, "mlp_gated": False, "norm_type": "layernorm"},
        derive=(rules.must_be_set("num_key_value_heads"), rules.output_bias_follows("attention_bias"),
                rules.no_sliding),
    ),
]
