"""Emu3 (BAAI): a Llama decoder over one vocabulary of text and VQ image tokens.  Emu3ForCausalLM
is that decoder alone, built from Emu3Config's text_config (the VQ-VAE is not part of it)."""

from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

FAMILIES = [
    Family(
        model_type="emu3",
        causal_lm_class="Emu3ForCausalLM",
        source="transformers 5.24.0 models/emu3/configuration_emu3.py (Emu3TextConfig)",
        # head_dim, attention_bias and mlp_bias are no dataclass fields of Emu3TextConfig (mlp_bias
        # and attention_bias are plain class attributes), but a config.json that carries them
        # sets them and Emu3Attention / Emu3MLP read them.
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")},
        defaults={"vocab_size": 184622, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": None, "hidden_act": "silu",
                  "max_position_embeddings": 9216, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False},
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
        text_config=True,
    ),
]
