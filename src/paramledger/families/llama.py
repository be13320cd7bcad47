"""Llama and the families that build exactly Llama's tensors under their own model_type."""

from ._family import Family

_LLAMA_DEFAULTS = {
    # transformers 5.24.0 LlamaConfig defaults
    "vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
    "num_attention_heads": 32, "max_position_embeddings": 2048, "tie_word_embeddings": False,
    "attention_bias": False, "mlp_bias": False,
}
_LLAMA_SWITCHES = {"mlp_gated": True, "norm_type": "rmsnorm", "norm_placement": "pre",
                   "position_embedding_type": "rope"}


def _llama_bias(config):
    # LlamaConfig's attention_bias covers q, k, v and o alike.
    return {"attention_output_bias": bool(config.get("attention_bias", False))}


FAMILIES = [
    Family(
        model_type="llama",
        causal_lm_class="LlamaForCausalLM",
        source="transformers 5.24.0 models/llama/configuration_llama.py",
        defaults=_LLAMA_DEFAULTS,
        switches=_LLAMA_SWITCHES,
        derive=(_llama_bias,),
    ),
]
