"""AFMoE (Arcee's Trinity): attention with per-head-dim q/k norms and a per-channel gate on its
output (gate_proj), a norm before and after attention and the FFN, num_dense_layers dense layers
and then routed experts beside shared ones, routed with a learned expert_bias (a Parameter
transformers never trains, but holds); three sliding layers to one global by default."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

FAMILIES = [
    Family(
        model_type="afmoe",
        causal_lm_class="AfmoeForCausalLM",
        source="transformers 5.24.0 models/afmoe/configuration_afmoe.py",
        naming=Naming(attn_post_norm="post_attention_layernorm", ffn_pre_norm="pre_mlp_layernorm",
                      ffn_post_norm="post_mlp_layernorm", router="mlp.router.gate",
                      router_correction_bias="mlp.expert_bias", router_correction_bias_row=False,
                      layer_order=("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                                   "self_attn.q_norm", "self_attn.k_norm", "self_attn.gate_proj", "input_layernorm",
                                   "post_attention_layernorm", "pre_mlp_layernorm", "post_mlp_layernorm",
                                   "mlp.expert_bias", "mlp.router", "mlp.shared_experts")),
        # The shared expert is num_shared_experts × moe_intermediate_size wide (AfmoeSparseMoeBlock).
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "num_experts",
                                     "num_experts_per_tok"), "num_shared_experts": "n_shared_experts"},
        defaults={"vocab_size": 200192, "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 1408,
                  "num_hidden_layers": 32, "num_dense_layers": 1, "num_attention_heads": 16,
                  "num_key_value_heads": None, "head_dim": 128, "hidden_act": "silu", "max_position_embeddings": 16384,
                  "tie_word_embeddings": False, "num_experts": 64, "num_experts_per_tok": 6, "num_shared_experts": 2,
                  "global_attn_every_n_layers": 4, "sliding_window": 1024, "layer_types": None,
                  "attention_bias": False},
        switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "qk_norm": "head",
                  "attention_output_gate": "per_channel", "router_correction_bias": True},
        # mup_enabled scales the embeddings' output (no tensor); route_scale scales routing weights.
        count_neutral=ROUTING_KEYS | {"num_dense_layers", "global_attn_every_n_layers", "mup_enabled", "route_scale"},
        derive=(rules.output_bias_follows("attention_bias"),
                rules.first_k_dense_by("num_dense_layers"),
                rules.sliding_every("global_attn_every_n_layers", 4)),
    ),
]


def laguna_layers(config):
    """Laguna's per-layer patterns and gate (LagunaConfig.__post_init__, LagunaAttention).

    layer_types (absent: every layer full), mlp_layer_types (absent: the first dense, the rest
    sparse), num_attention_heads_per_layer (absent: num_attention_heads everywhere); gating True
    or "per-head" builds one gate per head, any other value one per channel."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    sliding = [t == rules.SLIDING for t in types] if isinstance(types, (list, tuple)) else [False] * layers
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        kinds = ["dense"] + ["sparse"] * (layers - 1)
    heads = config.get("num_attention_heads_per_layer")
    if not isinstance(heads, (list, tuple)) or all(h == config["num_attention_heads"] for h in heads):
        heads = ()
    gating = config.get("gating")
    return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
            "num_attention_heads_per_layer": tuple(heads),
            "attention_output_gate": "per_head" if gating is True or gating == "per-head" else "per_channel",
            **rules.layer_pattern(config.get("sliding_window"), sliding)}


FAMILIES.append(
    Family(
        model_type="laguna",  # AFMoE-style attention: a softplus gate per head (g_proj), heads per layer
        causal_lm_class="LagunaForCausalLM",
        source="transformers 5.24.0 models/laguna/configuration_laguna.py",
        # The router is a bare (experts, hidden) Parameter, mlp.gate.weight, with no bias.
        naming=Naming(rotary_per_layer_type=True,
                      attn_gate="self_attn.g_proj", router_correction_bias="mlp.gate.e_score_correction_bias",
                      router_correction_bias_row=False,
                      layer_order=("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                                   "self_attn.q_norm", "self_attn.k_norm", "self_attn.g_proj", "mlp.experts")),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "num_experts",
                                     "num_experts_per_tok", "shared_expert_intermediate_size")},
        defaults={"rope_parameters": {"full_attention": {"partial_rotary_factor": 0.5},
                                      "sliding_attention": {"partial_rotary_factor": 1.0}},
                  "vocab_size": 100352, "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 40,
                  "num_attention_heads": 48, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "sliding_window": 512,
                  "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512, "num_experts_per_tok": 8,
                  "num_experts": 256, "layer_types": None, "head_dim": 128, "attention_bias": False,
                  "gating": True, "num_attention_heads_per_layer": None, "mlp_layer_types": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head", "router_correction_bias": True},
        # moe_apply_router_weight_on_input: LagunaConfig refuses True (not implemented).
        count_neutral=ROUTING_KEYS | {"gating", "num_attention_heads_per_layer", "mlp_layer_types",
                                      "moe_routed_scaling_factor", "moe_apply_router_weight_on_input",
                                      "moe_router_logit_softcapping"},
        derive=(rules.output_bias_follows("attention_bias"), laguna_layers,
                # LagunaConfig.validate_architecture (configuration_laguna.py lines 151-155)
                rules.unbuildable_when_set("moe_apply_router_weight_on_input",
                                           "LagunaConfig raises NotImplementedError: not yet supported")),
    )
)
