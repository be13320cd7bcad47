"""Aria's projector (its tower is Idefics3's, towers/idefics.py): learned queries (as many rows as the largest value
of projector_patch_to_query_dict), a cross-attention over the patches (q/k/v Linears without bias into an
nn.MultiheadAttention, a biased Linear, LayerNorms on the queries and on the patches), a LayerNorm, then a two-Linear
MLP without bias into the decoder's width.  transformers 5.24.0 models/aria/modeling_aria.py (AriaProjector,
AriaCrossAttention, AriaProjectorMLP)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

QUERIES = {1225: 128, 4900: 256}
"""transformers 5.24.0 models/aria/configuration_aria.py (AriaConfig.__post_init__'s projector_patch_to_query_dict)."""


def _queries(config: Mapping[str, Any]) -> int:
    given = config.get("projector_patch_to_query_dict")
    if given is None:
        given = QUERIES
    if not isinstance(given, Mapping) or not given:
        raise ArchitectureError("projector_patch_to_query_dict", f"must be a JSON object of patches to queries, got "
                                f"{given!r}")
    try:  # AriaConfig.__post_init__ reads keys and values as int()
        queries = [int(value) for value in given.values()]
    except (TypeError, ValueError):
        raise ArchitectureError("projector_patch_to_query_dict", f"its values must be whole numbers, got "
                                f"{list(given.values())!r}") from None
    if max(queries) <= 0:
        raise ArchitectureError("projector_patch_to_query_dict", f"its largest value must be positive, got "
                                f"{max(queries)}")
    # AriaConfig.__post_init__ derives the query rows before super().__post_init__ sets the kwargs (lines 140-142),
    # so a given max_value_projector_patch_to_query_dict wins (AriaProjector's query, modeling_aria.py line 180)
    rows = config.get(ROWS, max(queries))
    if type(rows) is not int or rows <= 0:
        raise ArchitectureError(ROWS, f"must be a positive whole number, got {rows!r}"[:200])
    return rows


ROWS = "max_value_projector_patch_to_query_dict"


def aria(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    d = vision.hidden_size
    attention = [(f"cross_attn.{name}.weight", (d, d)) for name in ("q_proj", "k_proj", "v_proj")]
    attention += [("cross_attn.multihead_attn.in_proj_weight", (3 * d, d)),
                  ("cross_attn.multihead_attn.in_proj_bias", (3 * d,)),
                  ("cross_attn.multihead_attn.out_proj.weight", (d, d)),
                  ("cross_attn.multihead_attn.out_proj.bias", (d,)),
                  ("cross_attn.linear.weight", (d, d)), ("cross_attn.linear.bias", (d,))]
    for norm in ("cross_attn.layer_norm", "cross_attn.layer_norm_kv", "layer_norm"):
        attention += [(f"{norm}.weight", (d,)), (f"{norm}.bias", (d,))]
    return [("query", (_queries(config), d)), *attention, ("feed_forward.linear_in.weight", (hidden, d)),
            ("feed_forward.linear_out.weight", (hidden, hidden))]
