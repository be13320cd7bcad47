"""Cohere (Command R) and Cohere 2: one LayerNorm without bias feeding parallel attention and
FFN, tied embeddings; Cohere 2 adds three sliding layers to one global."""

from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
COHERE_SWITCHES = {**LLAMA_SWITCHES, "norm_type": "layernorm_nobias", "norm_placement": "parallel"}
COHERE_DEFAULTS = {"vocab_size": 256000, "hidden_size": 8192, "intermediate_size": 22528, "num_hidden_layers": 40,
                   "num_attention_heads": 64, "num_key_value_heads": None, "hidden_act": "silu",
                   "max_position_embeddings": 8192, "tie_word_embeddings": True, "attention_bias": False}

FAMILIES = [
    Family(
        model_type="cohere",
        causal_lm_class="CohereForCausalLM",
        source=TF.format("cohere"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={**COHERE_DEFAULTS, "use_qk_norm": False},
        switches=COHERE_SWITCHES,
        count_neutral=frozenset({"logit_scale"}),
        # use_qk_norm builds 2-D (heads, head_dim) LayerNorm weights, a shape this table does not build.
        requires={"use_qk_norm": False},
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="cohere2",
        causal_lm_class="Cohere2ForCausalLM",
        source=TF.format("cohere2"),
        # Cohere2Config sets head_dim = hidden_size // heads itself, whatever the file says.
        keys={**DECODER_KEYS, **same("attention_bias")},
        defaults={**COHERE_DEFAULTS, "sliding_window": 4096},
        switches=COHERE_SWITCHES,
        count_neutral=frozenset({"logit_scale", "head_dim"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_every("sliding_window_pattern", 4)),
    ),
]
