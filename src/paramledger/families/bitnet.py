"""BitNet b1.58: Llama's tensors plus a norm inside each sublayer, on the attention output before
o_proj (attn_sub_norm) and on the FFN's inner activations before down_proj (ffn_sub_norm); a
gated FFN with squared ReLU; biases on q, k, v and o by attention_bias.  Its ternary weights are
stored as full tensors here (transformers builds them so); their bit width is a dtype question."""

from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

FAMILIES = [
    Family(
        model_type="bitnet",
        causal_lm_class="BitNetForCausalLM",
        source="transformers 5.24.0 models/bitnet/configuration_bitnet.py",
        # BitNetAttention reads head_dim when the config carries one (getattr), else hidden_size // heads.
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={"vocab_size": 128256, "hidden_size": 2560, "intermediate_size": 6912, "num_hidden_layers": 30,
                  "num_attention_heads": 20, "num_key_value_heads": 5, "hidden_act": "relu2",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False},
        switches={**LLAMA_SWITCHES, "attn_sub_norm": True, "ffn_sub_norm": True},
        derive=(rules.output_bias_follows("attention_bias"),
                # attn_sub_norm is hidden_size wide where the attention output (heads × head_dim) is normed
                rules.heads_fill_hidden("BitNet's attn_sub_norm is hidden_size wide and normalizes the "
                                        "heads × head_dim attention output"),
                rules.no_sliding),
    ),
]
