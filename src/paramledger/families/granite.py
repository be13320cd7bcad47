"""IBM Granite: Llama's tensors plus scalar multipliers (no tensors); the MoE variants keep
their experts under block_sparse_moe and an optional fused shared MLP (shared_mlp); the
SWA variants add one attention sink per head and three sliding layers to one global."""

import dataclasses

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
LLAMA_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")}
MOE_KEYS = {**DECODER_KEYS, "num_experts_per_tok": "num_experts_per_tok"}
GRANITE_MOE_DEFAULTS = {
    "vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu", "max_position_embeddings": 2048,
    "tie_word_embeddings": False, "attention_bias": False, "num_local_experts": 8, "num_experts_per_tok": 2,
}
GRANITE_MOE_KEYS = {**MOE_KEYS, **same("head_dim", "attention_bias"), "num_local_experts": "num_experts",
                    "intermediate_size": "moe_intermediate_size"}  # every layer is MoE, experts this wide
GRANITE_NEUTRAL = ROUTING_KEYS | {"embedding_multiplier", "logits_scaling", "residual_multiplier",
                                  "attention_multiplier"}
# GraniteMoe*DecoderLayer: attention (GraniteMoeHybrid's sinks first), both norms, then the experts.
# GraniteSWAModel: one more rotary (rotary_embs) per distinct non-zero layer_rope_theta, by default the one
# global theta of every layer (so one), beside the parent's unused rotary_emb
SWA_ROTARY = tuple((f"model.rotary_embs.0.{which}", ("rotary_half",), "float32", False)
                   for which in ("inv_freq", "original_inv_freq"))
GRANITE_MOE = Naming(layer_order=("self_attn.sinks", "self_attn", "input_layernorm", "post_attention_layernorm"),
                     router="block_sparse_moe.router", experts_gate_up="block_sparse_moe.experts.gate_up_proj",
                     experts_down="block_sparse_moe.experts.down_proj",
                     shared_expert_gate_up="shared_mlp.input_linear", shared_expert_down="shared_mlp.output_linear")



def _shared_mlp(config):
    # shared_intermediate_size 0 means no shared MLP: the field's None (no shared experts) says the same.
    return {"shared_expert_intermediate_size": config.get("shared_intermediate_size") or None}


FAMILIES = [
    Family(
        model_type="granite",  # Llama plus scalar multipliers (no tensors)
        causal_lm_class="GraniteForCausalLM",
        source=TF.format("granite"),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches=LLAMA_SWITCHES,
        count_neutral=frozenset({"embedding_multiplier", "logits_scaling", "residual_multiplier",
                                 "attention_multiplier"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="granite_swa",  # Granite with an attention sink per head; layer 0 of every 4 global
        causal_lm_class="GraniteSWAForCausalLM",
        naming=Naming(layer_order=("self_attn.sinks",), model_buffers=SWA_ROTARY),
        source=TF.format("granite_swa"),
        keys=LLAMA_KEYS,
        defaults={"vocab_size": 100352, "hidden_size": 2560, "intermediate_size": 8192, "num_hidden_layers": 24,
                  "num_attention_heads": 20, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 8192, "tie_word_embeddings": True, "attention_bias": False,
                  "mlp_bias": False, "sliding_window": 128},
        switches={**LLAMA_SWITCHES, "attention_sinks": True},
        count_neutral=frozenset({"embedding_multiplier", "logits_scaling", "residual_multiplier",
                                 "attention_multiplier", "layer_rope_theta"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_except(lambda i, config: i % 4 == 0)),
    ),
    Family(
        model_type="granitemoe",
        causal_lm_class="GraniteMoeForCausalLM",
        source=TF.format("granitemoe"),
        naming=GRANITE_MOE,
        keys=GRANITE_MOE_KEYS,
        defaults=GRANITE_MOE_DEFAULTS,
        switches=LLAMA_SWITCHES,
        count_neutral=GRANITE_NEUTRAL,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="granitemoeshared",  # plus one shared MLP of shared_intermediate_size (0: none)
        causal_lm_class="GraniteMoeSharedForCausalLM",
        source=TF.format("granitemoeshared"),
        naming=GRANITE_MOE,
        keys=GRANITE_MOE_KEYS,
        defaults={**GRANITE_MOE_DEFAULTS, "shared_intermediate_size": 0},
        switches=LLAMA_SWITCHES,
        count_neutral=GRANITE_NEUTRAL | {"shared_intermediate_size"},
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding,
                _shared_mlp),
    ),
    Family(
        model_type="granitemoe_swa",  # GraniteMoeShared plus attention sinks and 3 sliding : 1 global
        causal_lm_class="GraniteMoeSWAForCausalLM",
        source=TF.format("granitemoe_swa"),
        naming=dataclasses.replace(GRANITE_MOE, model_buffers=SWA_ROTARY),
        keys=GRANITE_MOE_KEYS,
        defaults={**GRANITE_MOE_DEFAULTS, "shared_intermediate_size": 0, "sliding_window": 128},
        switches={**LLAMA_SWITCHES, "attention_sinks": True},
        count_neutral=GRANITE_NEUTRAL | {"shared_intermediate_size", "layer_rope_theta"},
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_except(lambda i, config: i % 4 == 0),
                _shared_mlp),
    ),
]
