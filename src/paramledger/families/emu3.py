"""Emu3 (BAAI): a Llama decoder over one vocabulary of text and VQ image tokens.

Two types: ``emu3_text_model`` (Emu3TextConfig, the decoder alone: Emu3ForCausalLM, the class that takes it, which no
auto class maps the type to) and ``emu3``, the whole Emu3ForConditionalGeneration (issue #16): Emu3Model registers
the decoder under model.text_model, then the VQ-VAE under model.vqmodel (towers/emu3_vq.py, read from vq_config),
then lm_head, tied by the whole config's tie_word_embeddings (Emu3Config: False).  vocabulary_map is read by
Emu3Model (transformers cannot build a config without it) and changes no tensor.  --text-only counts
Emu3ForCausalLM, what AutoModelForCausalLM builds from an Emu3Config (transformers 5.24.0
models/emu3/modeling_emu3.py lines 1253, 1329, 1490)."""

import dataclasses

from ..towers import Whole, no_projector
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

TEXT = Family(
    model_type="emu3_text_model",
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
)

_WHOLE = multimodal(TEXT, "emu3", "transformers 5.24.0 models/emu3/configuration_emu3.py (Emu3Config: text_config "
                    "emu3_text_model, vq_config emu3_vqgan)",
                    Whole({}, no_projector, projector_prefix="", decoder_prefix="model.text_model.",
                          sub_towers=(("vq_config", {"model_type": "emu3_vqgan"}, "emu3_vqgan", "model.vqmodel."),),
                          tie_word_embeddings=False),
                    "Emu3ForConditionalGeneration")
FAMILIES = [TEXT, dataclasses.replace(_WHOLE, naming=dataclasses.replace(_WHOLE.naming, model_order=(
    "model.text_model.embed_tokens", "model.text_model.layers", "model.text_model.norm", "model.vqmodel",
    "lm_head")))]
