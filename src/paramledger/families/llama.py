"""Llama and the families that build Llama's tensors (a few switches apart) under their own model_type."""

from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"

FAMILIES = [
    Family(
        model_type="llama",
        causal_lm_class="LlamaForCausalLM",
        source=TF.format("llama"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),  # one flag for q, k, v and o
    ),
    Family(
        model_type="mistral",
        causal_lm_class="MistralForCausalLM",
        source=TF.format("mistral"),
        keys={**DECODER_KEYS, **same("head_dim")},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 131072, "tie_word_embeddings": False, "sliding_window": 4096},
        switches=LLAMA_SWITCHES,
        derive=(rules.sliding_all,),
    ),
    Family(
        model_type="qwen2",
        causal_lm_class="Qwen2ForCausalLM",
        source=TF.format("qwen2"),
        keys={**DECODER_KEYS},
        defaults={"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "use_sliding_window": False,
                  "sliding_window": 4096, "max_window_layers": 28},
        # modeling_qwen2.py: q, k and v always carry a bias, o never (no config key).
        switches={**LLAMA_SWITCHES, "attention_bias": True, "attention_output_bias": False},
        derive=(rules.qwen_window,),
    ),
    Family(
        model_type="qwen3",
        causal_lm_class="Qwen3ForCausalLM",
        source=TF.format("qwen3"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 32, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "attention_bias": False,
                  "use_sliding_window": False, "sliding_window": 4096, "max_window_layers": 28},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},  # one RMSNorm(head_dim) on q and one on k
        derive=(rules.output_bias_follows("attention_bias"), rules.qwen_window),
    ),
]
