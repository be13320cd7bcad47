"""Numbers typed on the command line (a parameter budget, a share), bounded before they are parsed:
Fraction("1e99999999") would build a 10⁸-digit integer."""

from __future__ import annotations

from fractions import Fraction

from ._exceptions import OptionError
from .limits import number_text


def parse_count(text: str, option: str, what: str = "parameters") -> int:
    """A count: 20000000, 20_000_000, 2e7, 20M, 1.5B, 128k (decimal prefixes: k is 10³, M 10⁶, B 10⁹, T 10¹²)."""
    scale = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
    raw = text.strip().replace("_", "").replace(",", "")
    factor = 1
    if raw and raw[-1].lower() in scale:
        factor, raw = scale[raw[-1].lower()], raw[:-1]
    number_text(raw, option)
    try:
        value = Fraction(raw) * factor
    except (ValueError, ZeroDivisionError):
        raise OptionError(option, f"expected a {what.removesuffix('s')} count like 20000000, 128k or 20M, "
                                  f"got {text!r}") from None
    if value.denominator != 1:
        raise OptionError(option, f"must be a whole number of {what}, got {text!r}")
    return int(value)


def count_type(option: str, what: str):  # noqa: ANN201 (an argparse type)
    """An argparse ``type`` reading a whole count as parse_count does (--context 128k is 128,000 tokens,
    --tokens 2T), refused by argparse in one line."""
    import argparse

    def parse(text: str) -> int:
        try:
            return parse_count(text, option, what)
        except OptionError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{option}: ")) from None

    return parse


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
