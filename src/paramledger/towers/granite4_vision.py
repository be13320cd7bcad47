"""Granite 4 Vision's projectors (issue #16): LLaVA-NeXT's image_newline and one Window Q-Former downsampler per
deepstack_layer_map pair, then four more for the spatial offsets, all registered after the decoder.
transformers 5.24.0 models/granite4_vision/modeling_granite4_vision.py (Granite4VisionWindowQFormerDownsampler,
lines 143-164; Granite4VisionModel, lines 747-773).

Each downsampler ("layerwise_projectors.{i}." and "spatial_projectors.{i}.", the projector component): its own
``query`` (1, q², d) and ``image_positions`` (1, w², d) Parameters (downsample_rate "q/w"), then a Blip2QFormerModel
(towers/qformer.py's, under "qformer.") of the qformer_config, whose width, heads and cross-attention width
Granite4VisionConfig.__post_init__ sets from the vision tower (hidden_size, hidden_size // 64, hidden_size), a
biased LayerNorm ``norm`` and the biased ``out_linear`` to the decoder's width.  The tower is CLIP's (vision.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_REPEAT
from ._kind import section
from .qformer import QFORMER_DEFAULTS, qformer_model

Named = list[tuple[str, tuple[int, ...]]]
# Granite4VisionConfig's sub_configs_defaults: blip_2_qformer with these init_kwargs
QFORMER = {**QFORMER_DEFAULTS, "num_hidden_layers": 1, "intermediate_size": 3072, "cross_attention_frequency": 1,
           "max_position_embeddings": 2048, "use_qformer_text_input": False}
SPATIAL_GROUPS = 4  # Granite4VisionModel: one spatial projector per offset (TL, TR, BL, BR), whatever the config
MAX_SIDE = 4096  # a window's side: a query or position table of side² rows


def _missing(key: str) -> ArchitectureError:
    return ArchitectureError(key, "missing (required: transformers 5.24.0 cannot build this family without it)")


def _sides(config: Mapping[str, Any]) -> tuple[int, int]:
    """downsample_rate "q/w": the query window's side and the key window's, each a whole number from 1."""
    rate = config.get("downsample_rate")
    if rate is None:
        raise _missing("downsample_rate")
    parts = rate.split("/") if isinstance(rate, str) else []
    if len(parts) != 2 or not all(part.strip().isdigit() and 0 < int(part) <= MAX_SIDE for part in parts):
        raise ArchitectureError("downsample_rate", f'must be "q/w" with whole numbers from 1 to {MAX_SIDE}, '
                                f"got {rate!r}")
    return int(parts[0]), int(parts[1])


def _pairs(config: Mapping[str, Any]) -> int:
    """len(deepstack_layer_map): one downsampler per [vision_layer, llm_layer] pair."""
    pairs = config.get("deepstack_layer_map")
    if pairs is None:
        raise _missing("deepstack_layer_map")
    if not isinstance(pairs, list) or len(pairs) > MAX_REPEAT or not all(
            isinstance(pair, (list, tuple)) and len(pair) == 2
            and all(type(value) is int for value in pair) for pair in pairs):
        raise ArchitectureError("deepstack_layer_map", "must be a list of [vision_layer, llm_layer] pairs of whole "
                                f"numbers (at most {MAX_REPEAT:,})")
    return len(pairs)


def window_qformers(config: Mapping[str, Any], vision: Any, hidden: int) -> Named:
    """image_newline, then the layerwise and spatial downsamplers (names under the projector prefix "model.")."""
    query_side, window_side = _sides(config)
    pairs = _pairs(config)
    d = vision.hidden_size
    if d < 64:  # qformer_config.num_attention_heads = d // 64: no head
        raise ArchitectureError("vision_config.hidden_size", f"{d} gives the Q-Former hidden_size // 64 = 0 heads "
                                "(Granite4VisionConfig sets them so): at least 64")
    heads = d // 64
    if d % heads:  # Blip2QFormerMultiHeadAttention refuses it
        raise ArchitectureError("vision_config.hidden_size", f"{d} is no multiple of its Q-Former's {heads} heads "
                                "(hidden_size // 64)")
    # a given qformer_config is read over Blip2QFormerConfig's own defaults: the sub-config spec's init_kwargs
    # (QFORMER) fill only an absent one (configuration_utils.py SubConfigSpec.create_subconfig, lines 258-266)
    defaults = QFORMER if config.get("qformer_config") is None else QFORMER_DEFAULTS
    qformer = {**section(config, "qformer_config", defaults), "hidden_size": d, "num_attention_heads": heads}
    _, inner = qformer_model(qformer, "qformer_config", d)
    one: Named = [("query", (1, query_side ** 2, d)), ("image_positions", (1, window_side ** 2, d)), *inner,
                  ("norm.weight", (d,)), ("norm.bias", (d,)), ("out_linear.weight", (hidden, d)),
                  ("out_linear.bias", (hidden,))]
    out: Named = [("image_newline", (hidden,))]
    for group, count in (("layerwise_projectors", pairs), ("spatial_projectors", SPATIAL_GROUPS)):
        out += [(f"{group}.{i}.{name}", shape) for i in range(count) for name, shape in one]
    return out
