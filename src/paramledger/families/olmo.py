"""OLMo: a LayerNorm with no learned entries; OLMo 2: RMSNorm after each sublayer (post-norm)
and q/k norms over all query and key channels."""

from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
OLMO_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias")}  # head_dim: getattr in modeling
OLMO_DEFAULTS = {"vocab_size": 50304, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                 "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                 "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False}

FAMILIES = [
    Family(
        model_type="olmo",
        causal_lm_class="OlmoForCausalLM",
        source=TF.format("olmo"),
        keys=OLMO_KEYS,
        defaults=OLMO_DEFAULTS,
        switches={**LLAMA_SWITCHES, "norm_type": "nonparametric"},  # OlmoLayerNorm: F.layer_norm, no weight
        count_neutral=frozenset({"clip_qkv"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="olmo2",
        causal_lm_class="Olmo2ForCausalLM",
        source=TF.format("olmo2"),
        keys=OLMO_KEYS,
        defaults=OLMO_DEFAULTS,
        switches={**LLAMA_SWITCHES, "norm_placement": "post", "qk_norm": "full"},
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
]
