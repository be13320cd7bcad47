"""GPT-NeoX (Pythia): fused query_key_value, LayerNorm with bias, ungated GELU FFN with biases.

use_parallel_residual changes the data flow, not the tensors: both LayerNorms exist either way."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family
from ._tables import DECODER_KEYS

FAMILIES = [
    Family(
        model_type="gpt_neox",
        causal_lm_class="GPTNeoXForCausalLM",
        source="transformers 5.24.0 models/gpt_neox/configuration_gpt_neox.py",
        naming=Naming(rotary="gpt_neox.rotary_emb",
            embed="gpt_neox.embed_in", layer="gpt_neox.layers.{i}", qkv="attention.query_key_value",
            o="attention.dense", up="mlp.dense_h_to_4h", down="mlp.dense_4h_to_h",
            final_norm="gpt_neox.final_layer_norm",
            layer_order=("input_layernorm", "post_attention_layernorm", "attention", "mlp"),
        ),
        # No num_key_value_heads or head_dim: query_key_value is always 3 × hidden_size.
        keys={key: field for key, field in DECODER_KEYS.items() if key != "num_key_value_heads"}
        | {"attention_bias": "attention_bias"},
        defaults={"rotary_pct": 0.25,
                  "vocab_size": 50432, "hidden_size": 6144, "num_hidden_layers": 44, "num_attention_heads": 64,
                  "intermediate_size": 24576, "hidden_act": "gelu", "max_position_embeddings": 2048,
                  "tie_word_embeddings": False, "attention_bias": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "rope", "mlp_bias": True},
        count_neutral=frozenset({"use_parallel_residual"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
]


def _japanese_layers(config):
    """GPT-NeoX-Japanese's FFN width and output bias (GPTNeoXJapaneseMLP, GPTNeoXJapaneseLayer).

    The FFN is hidden_size × intermediate_multiple_size wide; only the last layer's attention
    (use_bias: layer_number == num_hidden_layers - 1) has a dense_bias."""
    multiple = rules.positive("intermediate_multiple_size", config["intermediate_multiple_size"])
    return {"intermediate_size": config["hidden_size"] * multiple,
            "attention_output_bias_layers": (config["num_hidden_layers"] - 1,)}


FAMILIES.append(
    Family(
        model_type="gpt_neox_japanese",  # no biases but the last layer's attention.dense_bias; FFN by a multiple
        causal_lm_class="GPTNeoXJapaneseForCausalLM",
        source="transformers 5.24.0 models/gpt_neox_japanese/configuration_gpt_neox_japanese.py",
        naming=Naming(rotary="gpt_neox_japanese.rotary_emb",
            embed="gpt_neox_japanese.embed_in", layer="gpt_neox_japanese.layers.{i}", qkv="attention.query_key_value",
            o="attention.dense", o_bias="attention.dense_bias", up="mlp.dense_h_to_4h", down="mlp.dense_4h_to_h",
            final_norm="gpt_neox_japanese.final_layer_norm", lm_head="embed_out",
            layer_order=("input_layernorm", "post_attention_layernorm", "attention.dense_bias", "attention", "mlp"),
        ),
        # query_key_value is 3 × hidden_size; the FFN is hidden_size × intermediate_multiple_size wide.
        keys={key: field for key, field in DECODER_KEYS.items()
              if key not in ("num_key_value_heads", "intermediate_size")},
        defaults={"vocab_size": 32000, "hidden_size": 2560, "num_hidden_layers": 32, "num_attention_heads": 32,
                  "intermediate_multiple_size": 4, "hidden_act": "gelu", "max_position_embeddings": 2048,
                  "tie_word_embeddings": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "rope"},
        count_neutral=frozenset({"intermediate_multiple_size"}),
        derive=(_japanese_layers, rules.no_sliding),
    )
)
