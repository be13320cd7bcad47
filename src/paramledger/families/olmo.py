"""OLMo: a LayerNorm with no learned entries; OLMo 2: RMSNorm after each sublayer (post-norm)
and q/k norms over all query and key channels."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

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

FAMILIES += [
    Family(
        model_type="olmo3",  # OLMo 2's block; three sliding layers to one global
        causal_lm_class="Olmo3ForCausalLM",
        naming=Naming(rotary_per_layer_type=True),
        source=TF.format("olmo3"),
        keys=OLMO_KEYS,
        defaults={**OLMO_DEFAULTS, "sliding_window": 4096},
        switches={**LLAMA_SWITCHES, "norm_placement": "post", "qk_norm": "full"},
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_except(lambda i, config: (i + 1) % 4 == 0, True)),
    ),
    Family(
        model_type="olmoe",  # OLMo's MoE: pre-norm, q/k norms over all channels, 64 experts
        causal_lm_class="OlmoeForCausalLM",
        source=TF.format("olmoe"),
        keys={**OLMO_KEYS, "num_experts": "num_experts", "num_local_experts": "num_experts",
              "num_experts_per_tok": "num_experts_per_tok"},
        defaults={"vocab_size": 50304, "hidden_size": 2048, "intermediate_size": 2048, "num_hidden_layers": 16,
                  "num_attention_heads": 16, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False,
                  "num_experts_per_tok": 8, "num_experts": 64},
        switches={**LLAMA_SWITCHES, "qk_norm": "full"},
        count_neutral=ROUTING_KEYS | {"clip_qkv"},
        derive=(rules.output_bias_follows("attention_bias"),
                rules.heads_fill_hidden("its q_norm is hidden_size wide"), rules.no_sliding),
    ),
    Family(
        model_type="flex_olmo",  # OLMo 2's post-norm block with routed experts
        causal_lm_class="FlexOlmoForCausalLM",
        source=TF.format("flex_olmo"),
        keys={**OLMO_KEYS, "num_experts": "num_experts", "num_local_experts": "num_experts",
              "num_experts_per_tok": "num_experts_per_tok"},
        defaults={"vocab_size": 100352, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "attention_bias": False,
                  "num_experts_per_tok": 5, "num_experts": 7},
        switches={**LLAMA_SWITCHES, "norm_placement": "post", "qk_norm": "full"},
        count_neutral=ROUTING_KEYS,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
]
