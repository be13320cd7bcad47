"""DeepSeek-VL's projector (its tower is SigLIP's, towers/vision.py): the aligner, two biased Linears, linear1 from
the vision width into the decoder's, linear2 at it.  transformers 5.24.0 models/deepseek_vl/modeling_deepseek_vl.py
(DeepseekVLAligner)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def deepseek_vl(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    return [("linear1.weight", (hidden, vision.hidden_size)), ("linear1.bias", (hidden,)),
            ("linear2.weight", (hidden, hidden)), ("linear2.bias", (hidden,))]
