"""JetMoE: a mixture of attention heads and a mixture of FFN experts in every layer.  Attention routes
each token to num_experts_per_tok of num_local_experts query/output projection pairs (JetMoeMoA), each
num_key_value_heads × kv_channels wide, over one shared kv_proj; so num_attention_heads is
num_experts_per_tok × num_key_value_heads (JetMoeConfig sets it so).  Both mixtures add a (hidden,)
bias to their output.  The FFN experts are gated (GLU): input_linear is 2 × intermediate_size wide."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import ROUTING_KEYS


def _query_heads(config):
    """JetMoE's query heads (JetMoeConfig.__post_init__): num_key_value_heads × num_experts_per_tok."""
    return {"num_attention_heads": config["num_key_value_heads"] * config["num_experts_per_tok"]}


FAMILIES = [
    Family(
        model_type="jetmoe",
        causal_lm_class="JetMoeForCausalLM",
        source="transformers 5.24.0 models/jetmoe/configuration_jetmoe.py",
        naming=Naming(kv="self_attention.kv_proj", router="mlp.router.layer",
                      experts_gate_up="mlp.input_linear.weight", experts_down="mlp.output_linear.weight",
                      layer_order=("mlp.bias", "mlp.input_linear", "mlp.output_linear", "mlp.router",
                                   "input_layernorm", "post_attention_layernorm", "self_attention.experts.bias",
                                   "self_attention.experts.input_linear", "self_attention.experts.output_linear",
                                   "self_attention.experts.router", "self_attention.kv_proj")),
        keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_key_value_heads", "intermediate_size",
                     "max_position_embeddings", "tie_word_embeddings", "num_experts_per_tok"),
              "kv_channels": "head_dim", "activation_function": "hidden_act", "num_local_experts": "num_experts"},
        defaults={"vocab_size": 32000, "hidden_size": 2048, "num_hidden_layers": 12, "num_key_value_heads": 16,
                  "kv_channels": 128, "intermediate_size": 5632, "max_position_embeddings": 4096,
                  "activation_function": "silu", "num_local_experts": 8, "num_experts_per_tok": 2,
                  "tie_word_embeddings": True},
        switches={"mlp_gated": True, "norm_type": "rmsnorm", "norm_placement": "pre", "position_embedding_type": "rope",
                  "attention_experts": True, "experts_output_bias": True},
        # num_attention_heads is set by JetMoeConfig (num_key_value_heads × num_experts_per_tok), never read.
        count_neutral=ROUTING_KEYS | {"aux_loss_coef", "num_attention_heads"},
        derive=(_query_heads, rules.no_sliding),
    ),
]
