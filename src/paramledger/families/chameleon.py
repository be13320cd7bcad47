"""Chameleon (transformers 5.24.0 models/chameleon: ChameleonForConditionalGeneration, the image-text-to-text
mapping's; no CausalLM class is registered), counted whole: Llama's decoder with a LayerNorm over (heads, head_dim) on
q and (kv_heads, head_dim) on k, biased, beside RMSNorm blocks (ChameleonAttention's q_norm and k_norm: qk_norm
"per_head_layernorm"), then the VQ-VAE image tokenizer under model.vqmodel (towers/chameleon_vq.py, read from
vq_config), registered after the decoder's norm, then lm_head, tied by tie_word_embeddings (ChameleonConfig: False).
ChameleonConfig is flat: the decoder's keys at its top, beside vq_config.  swin_norm moves the same norms after their
sublayers (no tensor of its own); vocabulary_map is read by ChameleonModel (transformers cannot build a config
without it) and changes no tensor.  The decoder alone is no class transformers builds: --text-only is refused."""

from __future__ import annotations

import dataclasses

from ..naming import Naming
from ..towers import Whole, no_projector
from ._family import derived_from, multimodal
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA = LLAMA_FAMILIES[0]


def vq_last(naming: Naming) -> Naming:
    """ChameleonModel registers embed_tokens, layers, norm, then vqmodel; lm_head after the model."""
    return dataclasses.replace(naming, model_order=("model.embed_tokens", "model.layers", "model.norm",
                                                    "model.vqmodel", "lm_head"))


# identical to llama except: its q/k LayerNorms, ChameleonConfig's defaults (a 65,536-token vocabulary, MHA) and its
# keys that change no tensor, read under the whole model's model_type (no CausalLM reads it alone)
TEXT = derived_from(
    LLAMA, model_type="chameleon", causal_lm_class="ChameleonForConditionalGeneration",
    keys={key: field for key, field in LLAMA.keys.items() if key != "head_dim"},  # hidden_size // heads, always
    defaults={**LLAMA.defaults, "vocab_size": 65536, "max_position_embeddings": 4096, "num_key_value_heads": 32},
    switches={**LLAMA.switches, "qk_norm": "per_head_layernorm"},
    count_neutral=LLAMA.count_neutral | {"vq_config", "vocabulary_map", "swin_norm", "model_parallel_size",
                                         "image_token_id"})

FAMILIES = [multimodal(
    TEXT, "chameleon", "transformers 5.24.0 models/chameleon/configuration_chameleon.py (ChameleonConfig, "
    "vq_config ChameleonVQVAEConfig)",
    Whole({}, no_projector, projector_prefix="", decoder_prefix="model.",
          sub_towers=(("vq_config", {"model_type": "chameleon_vqgan"}, "chameleon_vqgan", "model.vqmodel."),),
          tie_word_embeddings=False, text_at_top=True, renamed=vq_last,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (no Chameleon CausalLM is "
                                "registered): count the whole model"),
    "ChameleonForConditionalGeneration")]
