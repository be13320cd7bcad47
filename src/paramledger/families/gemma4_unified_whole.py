"""Gemma 4 unified's whole model (google/gemma-4-12B-it: Gemma4UnifiedForConditionalGeneration, transformers 5.24.0
models/gemma4_unified/modeling_gemma4_unified.py): the text decoder (families/gemma4_unified.py) under
model.language_model., and no encoder tower: raw patches and waveform frames are embedded straight into the decoder.

Beside the decoder (Gemma4UnifiedModel, only for the sub-configs a config gives: None builds none):
- model.embed_vision (Gemma4UnifiedVisionEmbedder, with vision_config): its own pos_embedding (mm_posemb_size, 2,
  mm_embed_dim) first, then patch_ln1 (LayerNorm over patch_dim = (patch_size × pooling_kernel_size)² × 3),
  patch_dense (patch_dim -> mm_embed_dim, biased), patch_ln2 and pos_norm (LayerNorms over mm_embed_dim), then
  multimodal_embedder.embedding_projection (output_proj_dims -> hidden, unbiased; its RMSNorm has no scale);
- model.embed_audio (Gemma4UnifiedMultimodalEmbedder, with audio_config): embedding_projection (audio_embed_dim ->
  hidden, unbiased).
Then lm_head, tied by the whole config's tie_word_embeddings (default True).  A tower-less whole model's projector
(towers.read with no tower)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from . import _rules as rules
from ._family import multimodal
from .gemma4_unified import FAMILIES as UNIFIED

VISION = {"patch_size": 16, "pooling_kernel_size": 3, "mm_embed_dim": 3840, "mm_posemb_size": 1120,
          "output_proj_dims": 3840}  # Gemma4UnifiedVisionConfig
AUDIO_WIDTH = ("audio_embed_dim", "hidden_size", "output_proj_dims")  # one width: each key's setter sets it


def _section(config: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    given = config.get(key)
    if given is not None and not isinstance(given, Mapping):
        raise ArchitectureError(key, f"must be an object, got {given!r}")
    return given


def embedders(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    named: list[tuple[str, tuple[int, ...]]] = []
    vision = _section(config, "vision_config")
    if vision is not None:
        v = {**VISION, **vision}
        patch = rules.positive("vision_config.patch_size", v["patch_size"])
        patch_dim = (patch * rules.positive("vision_config.pooling_kernel_size", v["pooling_kernel_size"])) ** 2 * 3
        width = rules.positive("vision_config.mm_embed_dim", v["mm_embed_dim"])
        out = rules.positive("vision_config.output_proj_dims", v["output_proj_dims"])
        named += [("embed_vision.pos_embedding", (rules.positive("vision_config.mm_posemb_size", v["mm_posemb_size"]),
                                                  2, width)),
                  ("embed_vision.patch_ln1.weight", (patch_dim,)), ("embed_vision.patch_ln1.bias", (patch_dim,)),
                  ("embed_vision.patch_dense.weight", (width, patch_dim)), ("embed_vision.patch_dense.bias", (width,)),
                  ("embed_vision.patch_ln2.weight", (width,)), ("embed_vision.patch_ln2.bias", (width,)),
                  ("embed_vision.pos_norm.weight", (width,)), ("embed_vision.pos_norm.bias", (width,)),
                  ("embed_vision.multimodal_embedder.embedding_projection.weight", (hidden, out))]
    audio = _section(config, "audio_config")
    if audio is not None:
        width = next((audio[key] for key in reversed(list(audio)) if key in AUDIO_WIDTH), 640)
        named.append(("embed_audio.embedding_projection.weight",
                      (hidden, rules.positive("audio_config.audio_embed_dim", width))))
    return named


_WHOLE = multimodal(UNIFIED[0], "gemma4_unified",
                    "transformers 5.24.0 models/gemma4_unified/configuration_gemma4_unified.py (Gemma4UnifiedConfig)",
                    Whole({}, embedders, projector_prefix="model.", decoder_prefix="model.language_model."),
                    "Gemma4UnifiedForConditionalGeneration")
# Gemma4UnifiedForConditionalGeneration registers model (language_model, embed_vision, embed_audio), then lm_head
FAMILIES = [dataclasses.replace(_WHOLE, naming=dataclasses.replace(
    _WHOLE.naming, model_order=(*_WHOLE.naming.model_order, "model.embed_vision", "model.embed_audio", "lm_head")))]
