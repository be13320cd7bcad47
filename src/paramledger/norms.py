"""LayerNorm and RMSNorm on one feature vector (seed 001), without affine transforms.

LayerNorm centres then scales: (x - mean) / sqrt(var + eps), and learns a scale and an
offset (2d parameters).  RMSNorm only scales: x / sqrt(mean(x^2) + eps), and learns a scale
(d).  The outputs differ because RMSNorm does not centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._exceptions import OptionError


def _check(x: Sequence[float], eps: float) -> None:
    if not x:
        raise OptionError("x", "needs at least one value")
    if not all(math.isfinite(v) for v in x):
        raise OptionError("x", f"must be finite numbers, got {next(v for v in x if not math.isfinite(v))}")
    if not (math.isfinite(eps) and eps >= 0):
        raise OptionError("--eps", f"must be a finite number of zero or more, got {eps}")


def _finite(out: list[float], name: str) -> list[float]:
    """Strict JSON holds no NaN or Infinity: values whose squares overflow a float are refused."""
    if not all(math.isfinite(v) for v in out):
        raise OptionError("x", f"too large for {name} in floating point (squares overflow); scale the vector down")
    return out


def layer_norm(x: Sequence[float], eps: float = 0.0) -> list[float]:
    _check(x, eps)
    mean = sum(x) / len(x)
    var = sum((v - mean) * (v - mean) for v in x) / len(x)  # inf, not OverflowError, past 1e154
    _finite([mean, var + eps], "LayerNorm")
    if var + eps == 0:
        raise OptionError("x", "LayerNorm of a constant vector with eps=0 divides by zero")
    return _finite([(v - mean) / math.sqrt(var + eps) for v in x], "LayerNorm")


def rms_norm(x: Sequence[float], eps: float = 0.0) -> list[float]:
    _check(x, eps)
    rms = math.sqrt(sum(v * v for v in x) / len(x) + eps)
    _finite([rms], "RMSNorm")
    if rms == 0:
        raise OptionError("x", "RMSNorm of a zero vector with eps=0 divides by zero")
    return _finite([v / rms for v in x], "RMSNorm")
