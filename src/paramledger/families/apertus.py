"""Apertus: Llama's attention with per-head-dim q/k RMSNorms and biases on q, k, v and o by
attention_bias, an ungated up/down FFN whose xIELU activation holds two learned scalars (alpha_p,
alpha_n) in every layer, and its own norm names.  Apertus 1.5's text decoder is the same block over
a wider vocabulary, whose output head may be pruned to output_vocab_size rows."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
APERTUS_NAMING = Naming(attn_pre_norm="attention_layernorm", ffn_pre_norm="feedforward_layernorm")
APERTUS_DEFAULTS = {"vocab_size": 131072, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                    "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "xielu",
                    "max_position_embeddings": 65536, "tie_word_embeddings": False, "attention_bias": False}
# ApertusAttention reads head_dim when the config carries one (getattr), else hidden_size // heads.
APERTUS_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias")}
APERTUS_SWITCHES = {"mlp_gated": False, "norm_type": "rmsnorm", "norm_placement": "pre", "qk_norm": "head",
                    "position_embedding_type": "rope"}


def tied_head_is_the_table(config):
    """A tied head is the token table whatever output_vocab_size says (transformers ties lm_head to
    embed_tokens, a pruned head only when untied); output_vocab_size == vocab_size is no pruning."""
    rows = config.get("output_vocab_size")
    if config.get("tie_word_embeddings") or rows == config["vocab_size"]:
        rows = None
    return {"output_vocab_size": rows}


FAMILIES = [
    Family(
        model_type="apertus",
        causal_lm_class="ApertusForCausalLM",
        source=TF.format("apertus"),
        naming=APERTUS_NAMING,
        keys=APERTUS_KEYS,
        defaults=APERTUS_DEFAULTS,
        switches=APERTUS_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="apertus1p5_text",  # Apertus' block; a vocabulary extended with image and audio codes
        causal_lm_class="Apertus1p5TextForCausalLM",
        source="transformers 5.24.0 models/apertus1p5/configuration_apertus1p5.py",
        naming=APERTUS_NAMING,
        keys={**APERTUS_KEYS, "output_vocab_size": "output_vocab_size"},
        defaults={**APERTUS_DEFAULTS, "vocab_size": 266752, "output_vocab_size": None},
        switches=APERTUS_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), tied_head_is_the_table, rules.no_sliding),
    ),
]
