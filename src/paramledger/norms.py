"""LayerNorm and RMSNorm on one feature vector (seed 001), without affine transforms.

LayerNorm centres then scales: (x - mean) / sqrt(var + eps), and learns a scale and an
offset (2d parameters).  RMSNorm only scales: x / sqrt(mean(x^2) + eps), and learns a scale
(d).  The outputs differ because RMSNorm does not centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._exceptions import OptionError


def _check(x: Sequence[float]) -> None:
    if not x:
        raise OptionError("x", "needs at least one value")


def layer_norm(x: Sequence[float], eps: float = 0.0) -> list[float]:
    _check(x)
    mean = sum(x) / len(x)
    var = sum((v - mean) ** 2 for v in x) / len(x)
    if var + eps == 0:
        raise OptionError("x", "LayerNorm of a constant vector with eps=0 divides by zero")
    return [(v - mean) / math.sqrt(var + eps) for v in x]


def rms_norm(x: Sequence[float], eps: float = 0.0) -> list[float]:
    _check(x)
    rms = math.sqrt(sum(v * v for v in x) / len(x) + eps)
    if rms == 0:
        raise OptionError("x", "RMSNorm of a zero vector with eps=0 divides by zero")
    return [v / rms for v in x]
