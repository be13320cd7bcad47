"""Janus (deepseek-community/Janus-Pro-*): the whole JanusForConditionalGeneration, an understanding path (a vision
tower and its aligner), an image-generation path (a VQ-VAE, its codebook's embeddings, an aligner and a head over the
codebook) and a Llama decoder under model.language_model, read from text_config by Llama's table (transformers 5.24.0
models/janus/modeling_janus.py: JanusModel, JanusForConditionalGeneration).

What differs from a LLaVA-style whole model (families/llava.py): the tower is Janus's own (towers/janus.py), the
VQ-VAE a second tower read from vq_config (towers/janus_vq.py, a sub-tower), and JanusModel registers vision_model,
aligner, vqmodel, the generation parts, then language_model (model_order); lm_head ties by the whole config's
tie_word_embeddings alone (JanusConfig: True; text_config's changes nothing: checked over all nine combinations).
--text-only counts the decoder as LlamaForCausalLM builds text_config."""

import dataclasses

from ..towers import Whole
from ..towers.janus import IMAGE_TOKENS, janus
from ..towers.janus_vq import KEY
from ._family import multimodal
from .llama import FAMILIES as LLAMA

LLAMA_TEXT = next(family for family in LLAMA if family.model_type == "llama")
# JanusModel.__init__: vision_model, aligner, vqmodel, generation_embeddings, generation_aligner, generation_head,
# language_model; then JanusForConditionalGeneration's lm_head
ORDER = ("model.vision_model", "model.aligner", "model.vqmodel", "model.generation_embeddings",
         "model.generation_aligner", "model.generation_head", "model.language_model.embed_tokens",
         "model.language_model.layers", "model.language_model.norm", "lm_head")

_JANUS = multimodal(
    LLAMA_TEXT, "janus", "transformers 5.24.0 models/janus/configuration_janus.py (JanusConfig, JanusVisionConfig, "
    "JanusVQVAEConfig)",
    Whole({"model_type": "janus_vision_model"}, janus, vision_prefix="model.vision_model.", projector_prefix="model.",
          tie_word_embeddings=True, vision_kind="janus_vision_model", text_types=("llama",), image_tokens=IMAGE_TOKENS,
          sub_towers=((KEY, {"model_type": "janus_vqgan"}, "janus_vqgan", "model.vqmodel."),)),
    "JanusForConditionalGeneration")
FAMILIES = [dataclasses.replace(_JANUS, naming=dataclasses.replace(_JANUS.naming, model_order=ORDER))]
