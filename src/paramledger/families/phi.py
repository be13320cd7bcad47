"""Phi-3: Llama's block with fused qkv_proj and gate_up_proj tensors."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

FAMILIES = [
    Family(
        model_type="phi3",
        causal_lm_class="Phi3ForCausalLM",
        source="transformers 5.24.0 models/phi3/configuration_phi3.py",
        naming=Naming(qkv="self_attn.qkv_proj", gate_up="mlp.gate_up_proj",
                      layer_order=("self_attn.o_proj",)),
        keys={**DECODER_KEYS, **same("head_dim")},  # modeling_phi3.py reads head_dim with getattr
        defaults={"vocab_size": 32064, "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "sliding_window": None},
        switches=LLAMA_SWITCHES,
        # attention_bias appears in released Phi-3/Phi-4 configs; modeling_phi3.py builds no bias regardless.
        count_neutral=frozenset({"attention_bias"}),
        derive=(rules.sliding_all,),
    ),
]


def _phi_qk_norm(config):
    # q_layernorm/k_layernorm are LayerNorm(hidden_size // heads) whatever head_dim says.
    if config.get("qk_layernorm"):
        rules.heads_fill_hidden("its q/k LayerNorms are hidden_size / heads wide")(config)
        return {"qk_norm": "head"}
    return {"qk_norm": "none"}


FAMILIES += [
    Family(
        model_type="phi",  # Phi-1/1.5/2: one LayerNorm feeding parallel attention and FFN, biases everywhere
        causal_lm_class="PhiForCausalLM",
        source="transformers 5.24.0 models/phi/configuration_phi.py",
        naming=Naming(o="self_attn.dense", up="mlp.fc1", down="mlp.fc2", q_norm="self_attn.q_layernorm",
                      k_norm="self_attn.k_layernorm", final_norm="model.final_layernorm"),
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"partial_rotary_factor": 0.5,
                  "vocab_size": 51200, "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 24,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "gelu_new",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "qk_layernorm": False},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "parallel",
                  "position_embedding_type": "rope", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True, "lm_head_bias": True},
        count_neutral=frozenset({"qk_layernorm"}),
        derive=(_phi_qk_norm, rules.no_sliding),
    ),
    Family(
        model_type="persimmon",  # fused biased query_key_value, per-head q/k LayerNorms, ReLU² FFN
        causal_lm_class="PersimmonForCausalLM",
        source="transformers 5.24.0 models/persimmon/configuration_persimmon.py",
        naming=Naming(qkv="self_attn.query_key_value", o="self_attn.dense", up="mlp.dense_h_to_4h",
                      down="mlp.dense_4h_to_h", q_norm="self_attn.q_layernorm", k_norm="self_attn.k_layernorm",
                      final_norm="model.final_layernorm"),
        keys={key: field for key, field in DECODER_KEYS.items() if key != "num_key_value_heads"},
        defaults={"partial_rotary_factor": 0.5,
                  "vocab_size": 262144, "hidden_size": 4096, "intermediate_size": 16384, "num_hidden_layers": 36,
                  "num_attention_heads": 64, "hidden_act": "relu2", "max_position_embeddings": 16384,
                  "tie_word_embeddings": False, "qk_layernorm": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "rope", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True},
        count_neutral=frozenset({"qk_layernorm"}),
        derive=(lambda c: {"qk_norm": "head" if c.get("qk_layernorm") else "none"}, rules.no_sliding),
    ),
]
