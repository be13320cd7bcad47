"""Kosmos-2's vision tower and image-to-text projection (transformers 5.24.0 models/kosmos2/modeling_kosmos2.py).

The tower, Kosmos2VisionModel under vision_model (its Kosmos2VisionTransformer under .model), is CLIP's vision
transformer (towers/vision.py's CLIP layout: Kosmos2VisionEmbeddings, Kosmos2VisionEncoderLayer and
Kosmos2VisionTransformer are "Copied from" CLIP's: the class token, a bias-free patch conv, pre_layrnorm,
k/v/q/out_proj, layer_norm1, mlp, layer_norm2, post_layernorm) at Kosmos2VisionConfig's defaults.  Kosmos2Config
builds a Kosmos2VisionConfig from whatever vision_config gives, its model_type ignored (Whole.vision_kind).

The projector is Kosmos2ImageToTextProjection: a biased Linear from the vision width to the decoder's (dense), the
latent queries (latent_query_num, decoder width), a raw Parameter, and x_attn, a KosmosTextAttention at the
decoder's width and heads with biased k, v, q, out_proj and no inner LayerNorm (add_inner_attn_layernorm False)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER
from ._kind import TowerKind
from .images import fixed
from .vision import CLIP, vit

KOSMOS2_VISION_DEFAULTS = {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
                           "num_attention_heads": 16, "num_channels": 3, "image_size": 224, "patch_size": 14}
"""transformers 5.24.0 models/kosmos2/configuration_kosmos2.py (Kosmos2VisionConfig)."""


def latent_queries(config: Mapping[str, Any], default: int = 64) -> int:
    """latent_query_num (Kosmos2Config's default 64, Kosmos2_5Config's 2048): the image's tokens in the decoder, rows
    of latent_query."""
    value = config.get("latent_query_num", default)
    if type(value) is not int or not 0 < value <= MAX_INTEGER:
        raise ArchitectureError("latent_query_num", f"must be a positive whole number, got {value!r}")
    return value


def projection(config: Mapping[str, Any], vision: Any, hidden: int,
               queries: int = 64) -> list[tuple[str, tuple[int, ...]]]:
    """Kosmos2ImageToTextProjection's tensors as named_parameters() lists them: its own latent_query before its
    children's (dense, then x_attn's k, v, q, out); ``queries``: latent_query_num's default (Kosmos-2.5's 2048)."""
    named = [("latent_query", (latent_queries(config, queries), hidden)),
             ("dense.weight", (hidden, vision.hidden_size)), ("dense.bias", (hidden,))]
    for name in ("k_proj", "v_proj", "q_proj", "out_proj"):
        named += [(f"x_attn.{name}.weight", (hidden, hidden)), (f"x_attn.{name}.bias", (hidden,))]
    return named


# Kosmos2Processor puts latent_query_num image tokens in the text (num_image_tokens: 64); the projection's outputs
# take their places (Kosmos2ForConditionalGeneration.forward: image_embeds_position_mask)
IMAGE_TOKENS = fixed(lambda config, tower: latent_queries(config))

TOWERS = {"kosmos_2_vision_model": TowerKind(KOSMOS2_VISION_DEFAULTS, vit(CLIP))}
