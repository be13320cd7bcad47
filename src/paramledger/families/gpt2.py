"""GPT-2: learned positions, LayerNorm with bias, biases everywhere, Conv1D weights stored (in, out)."""

import dataclasses

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same

FAMILIES = [
    Family(
        model_type="gpt2",
        causal_lm_class="GPT2LMHeadModel",
        source="transformers 5.24.0 models/gpt2/configuration_gpt2.py",
        naming=Naming(
            embed="transformer.wte", positions="transformer.wpe", layer="transformer.h.{i}",
            qkv="attn.c_attn", o="attn.c_proj", up="mlp.c_fc", down="mlp.c_proj",
            attn_pre_norm="ln_1", ffn_pre_norm="ln_2", final_norm="transformer.ln_f", conv1d=True,
            layer_order=("ln_1", "attn", "ln_2", "crossattention", "ln_cross_attn", "mlp"),
            # add_cross_attention: GPT2Block's crossattention (GPT2Attention(is_cross_attention=True): c_attn (d, 2d)
            # for k and v, q_attn, c_proj) and ln_cross_attn, registered after ln_2 (modeling_gpt2.py lines 103-108,
            # 258-260)
            cross_kv="crossattention.c_attn", cross_q="crossattention.q_attn", cross_o="crossattention.c_proj",
            cross_attn_norm="ln_cross_attn",
        ),
        # GPT2Config.attribute_map lets the Hugging Face names stand in for GPT-2's own.
        keys={**same("vocab_size", "tie_word_embeddings", activation_function="hidden_act"),
              "n_embd": "hidden_size", "hidden_size": "hidden_size",
              "n_layer": "num_hidden_layers", "num_hidden_layers": "num_hidden_layers",
              "n_head": "num_attention_heads", "num_attention_heads": "num_attention_heads",
              "n_positions": "max_position_embeddings", "max_position_embeddings": "max_position_embeddings",
              "n_inner": "intermediate_size",  # None: 4 × n_embd (modeling_gpt2.py GPT2Block)
              "add_cross_attention": "add_cross_attention"},
        defaults={"vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12, "n_head": 12,
                  "n_inner": None, "activation_function": "gelu_new", "tie_word_embeddings": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "learned", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True},
        derive=(rules.no_sliding,),
    ),
]

# GPT-SW3: transformers builds GPT2LMHeadModel from a GPT2Config registered as gpt-sw3.
FAMILIES.append(dataclasses.replace(FAMILIES[0], model_type="gpt-sw3"))
