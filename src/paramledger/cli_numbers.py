"""Numbers typed on the command line (a parameter budget, a share), bounded before they are parsed:
Fraction("1e99999999") would build a 10⁸-digit integer."""

from __future__ import annotations

from fractions import Fraction

from ._exceptions import OptionError
from .limits import MAX_INTEGER, big, number_text


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
            value = parse_count(text, option, what)
        except OptionError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{option}: ")) from None
        if value > MAX_INTEGER:  # --context 1e400 priced its KV cache as a float beyond 1.8e308 (a traceback)
            raise argparse.ArgumentTypeError(f"{big(value)} is beyond the bound of {MAX_INTEGER:,}")
        return value

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


SIZE_UNITS = {
    "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12, "pb": 10**15,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "pib": 2**50,
}
SIZE_UNIT_NAMES = ("B", "kB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB")  # any case
SIZE_UNITS_TEXT = "GB is 10⁹ bytes, GiB is 2³⁰; kB, MB, TB are 10³, 10⁶, 10¹²; KiB, MiB, TiB 2¹⁰, 2²⁰, 2⁴⁰"


def parse_size(text: str, option: str) -> int:
    """A size in bytes: 24GB (24 × 10⁹), 24GiB (24 × 2³⁰), 1.5TB, 512 MiB; a unit is required, since 80 alone
    could be either (an "80 GB" card holds 80 GiB of memory chips).  Whole bytes, more than 0."""
    raw = text.strip().replace("_", "").replace(",", "")
    number = raw.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ").strip()
    unit = raw[len(number):].strip().lower() if number != raw else ""
    number_text(number, option)
    try:
        amount = Fraction(number)
    except (ValueError, ZeroDivisionError):
        raise OptionError(option, f"expected a size like 24GB, 24GiB or 1.5TB, got {text!r}") from None
    if amount <= 0:
        raise OptionError(option, f"must be more than 0 bytes, got {text!r}")
    if not unit:
        raise OptionError(option, f"give a unit: {number}GB or {number}GiB ({SIZE_UNITS_TEXT})")
    if unit not in SIZE_UNITS:
        raise OptionError(option, f"unknown unit in {text!r}; one of {', '.join(SIZE_UNIT_NAMES)} ({SIZE_UNITS_TEXT})")
    value = amount * SIZE_UNITS[unit]
    if value.denominator != 1:
        raise OptionError(option, f"must be a whole number of bytes, got {text!r}")
    if value <= 0:
        raise OptionError(option, f"must be more than 0 bytes, got {text!r}")
    return int(value)


def size_type(option: str):  # noqa: ANN201 (an argparse type)
    """An argparse ``type`` reading a size as parse_size does (--gpu-memory 24GB), refused by argparse in one
    line."""
    import argparse

    def parse(text: str) -> int:
        try:
            return parse_size(text, option)
        except OptionError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{option}: ")) from None

    return parse
