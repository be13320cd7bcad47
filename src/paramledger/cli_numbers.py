"""Numbers typed on the command line (a parameter budget, a share), bounded before they are parsed:
Fraction("1e99999999") would build a 10⁸-digit integer."""

from __future__ import annotations

from fractions import Fraction

from ._exceptions import OptionError
from .limits import number_text


def parse_count(text: str, option: str) -> int:
    """A parameter count: 20000000, 20_000_000, 2e7, 20M, 1.5B (decimal prefixes)."""
    scale = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
    raw = text.strip().replace("_", "").replace(",", "")
    factor = 1
    if raw and raw[-1].lower() in scale:
        factor, raw = scale[raw[-1].lower()], raw[:-1]
    number_text(raw, option)
    try:
        value = Fraction(raw) * factor
    except (ValueError, ZeroDivisionError):
        raise OptionError(option, f"expected a parameter count like 20000000 or 20M, got {text!r}") from None
    if value.denominator != 1:
        raise OptionError(option, f"must be a whole number of parameters, got {text!r}")
    return int(value)


def parse_share(text: str, option: str = "--share") -> Fraction:
    """A share as 0.5, 1/2 or 50%."""
    raw = text.strip()
    percent = raw.endswith("%")
    number_text(raw, option)
    try:
        value = Fraction(raw.rstrip("%").strip())
    except (ValueError, ZeroDivisionError):
        raise OptionError(option, f"expected a share like 0.5, 1/2 or 50%, got {text!r}") from None
    return value / 100 if percent else value
