"""Fuyu (adept/fuyu-8b): Persimmon's decoder reading image patches through one Linear, no vision tower (transformers
5.24.0 models/fuyu/modeling_fuyu.py, FuyuForCausalLM).

Identical to persimmon (families/phi.py) under model.language_model. except (FuyuModel, FuyuConfig): after the decoder,
model.vision_embed_tokens, a biased Linear from a flattened patch (patch_size² × num_channels) to the decoder's width
(a tower-less whole model's projector: towers.read with no tower), then lm_head, tied by FuyuConfig's own
tie_word_embeddings (default False); a config without text_config builds FuyuConfig's Persimmon (its init_kwargs)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..towers import Whole
from . import _rules as rules
from ._family import multimodal
from .phi import FAMILIES as PHI

PERSIMMON = next(family for family in PHI if family.model_type == "persimmon")
# FuyuConfig.sub_configs_defaults' init_kwargs: the decoder a config without text_config builds (Persimmon's own
# defaults but for these)
TEXT = {"model_type": "persimmon", "vocab_size": 262144, "max_position_embeddings": 16384, "hidden_size": 4096,
        "intermediate_size": 16384, "num_hidden_layers": 36, "num_attention_heads": 64, "hidden_act": "relu2",
        "qk_layernorm": True}


def patch_embedding(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """FuyuModel.vision_embed_tokens: nn.Linear(patch_size × patch_size × num_channels, hidden), biased."""
    patch = rules.positive("patch_size", config.get("patch_size", 30))
    channels = rules.positive("num_channels", config.get("num_channels", 3))
    return [("vision_embed_tokens.weight", (hidden, patch * patch * channels)), ("vision_embed_tokens.bias", (hidden,))]


_FUYU = multimodal(PERSIMMON, "fuyu", "transformers 5.24.0 models/fuyu/configuration_fuyu.py",
                   Whole({}, patch_embedding, projector_prefix="model.", decoder_prefix="model.language_model.",
                         tie_word_embeddings=False, text_config=TEXT),
                   "FuyuForCausalLM")
# FuyuForCausalLM registers model (language_model, then vision_embed_tokens), then lm_head
FAMILIES = [dataclasses.replace(_FUYU, naming=dataclasses.replace(
    _FUYU.naming, model_order=("model.language_model.embed_tokens", "model.language_model.layers",
                               "model.language_model.final_layernorm", "model.vision_embed_tokens", "lm_head")))]
