"""LightOnOCR's projector (its tower is Pixtral's, towers/pixtral.py): an RMSNorm over the vision width, the patch
merger folding spatial_merge_size² patches into one (no bias), then two Linears without bias, linear_1 from the
vision width into the decoder's, linear_2 at it.  transformers 5.24.0 models/lighton_ocr/modeling_lighton_ocr.py
(LightOnOcrMultiModalProjector, LightOnOcrPatchMerger)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError


def lighton_ocr(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    merge = config.get("spatial_merge_size", 2)
    if type(merge) is not int or merge <= 0:
        raise ArchitectureError("spatial_merge_size", f"must be a positive whole number, got {merge!r}")
    width = vision.hidden_size
    return [("norm.weight", (width,)), ("patch_merger.merging_layer.weight", (width, width * merge * merge)),
            ("linear_1.weight", (hidden, width)), ("linear_2.weight", (hidden, hidden))]
