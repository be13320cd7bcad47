"""Bounds on untrusted input, checked before any work is done on it (docs/limits.md).

Every bound is far above what a real release needs (the reasons are in docs/limits.md) and
low enough that whatever passes it is read in bounded time and memory. Each refusal is one
line naming the file or option, the key and the bound.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from typing import Any

from ._exceptions import ArchitectureError, FileFormatError, OptionError, quoted

MAX_DEPTH = 64  # nesting of JSON/TOML arrays and objects; real configs nest 4 or 5 deep
MAX_NUMBER_DIGITS = 400  # digits of a number typed as text (--set, --budget, --share)
MAX_EXPONENT = 400  # |exponent| of such a number: 1e400 is beyond any count; 1e99999999 would take minutes
MAX_INTEGER = 2**53  # any integer size: exact in a float64, so JSON readers (the web page) keep it
MAX_REPEAT = 10_000_000  # layers, per-layer lists and other counts a view enumerates one by one
MAX_WHERE_CHARS = 2_000  # sweep --where: a condition over a handful of columns, far below ast's recursion
ENUMERATED = frozenset({"num_hidden_layers", "altup_num_inputs", "num_kv_shared_layers", "n_shared_experts"})

# (bytes, items): an item is a value inside an array or an object (commas + 1 per container)
JSON_BOUNDS = {
    "config": (16 * 2**20, 1_000_000),  # the largest real config.json is a few MB
    "index": (64 * 2**20, 2_000_000),  # an index json: ~100 bytes a tensor; the largest releases ~20 MB
    "tokenizer": (128 * 2**20, 8_000_000),  # a tokenizer.json: Gemma 3's is 33 MB (262k tokens and merges)
    # a safetensors header (the Rust core's 100 MB): a real shard holds a few thousand tensors, ~8 values each
    "safetensors": (100_000_000, 2_000_000),
}
MAX_TENSORS = 200_000  # in one safetensors header: twice DeepSeek-V3's whole checkpoint (all 163 shards)

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


# C0 and C1 controls (newlines, ESC), line and paragraph separators, and the bidirectional
# overrides that reorder what a terminal shows
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control character escaped (\\n, \\x1b): a name from a file can
    neither break a line nor send the terminal an escape sequence."""
    return _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)


def big(value: int) -> str:
    """An integer for an error line: with separators, or its number of digits when it is huge."""
    return f"{value:,}" if value < 10**30 else f"a {len(str(value))}-digit number"


def json_text(data: bytes | str, where: str, kind: str = "config",
              hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """``data`` parsed as JSON within JSON_BOUNDS[kind] and MAX_DEPTH, else one FileFormatError."""
    max_bytes, max_items = JSON_BOUNDS[kind]
    if len(data) > max_bytes:
        raise FileFormatError(where, f"{len(data):,} bytes: beyond the {max_bytes:,}-byte bound for a {kind} json")
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    check_structure(text, where, max_items)
    try:
        return json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError as error:
        raise FileFormatError(where, f"invalid JSON at line {error.lineno} column {error.colno}: "
                                     f"{error.msg}") from None
    except RecursionError:  # the pre-scan bounds depth; this is the last line of defence
        raise FileFormatError(where, f"nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as error:  # an integer of more than 4,300 digits
        raise FileFormatError(where, f"invalid JSON: {str(error).split(';')[0]}") from None


_FEW_QUOTES = 100_000  # quote characters, below which check_structure walks the strings rather than copy the text


def check_structure(text: str, where: str, max_items: int, error: type[FileFormatError] = FileFormatError) -> None:
    """Depth and item count from the text alone, before json builds anything. The cheap
    path counts every bracket and comma; strings are removed only when that count is high."""
    opened, commas = text.count("[") + text.count("{"), text.count(",")
    if opened <= MAX_DEPTH and commas < max_items:
        return
    if text.count('"') <= _FEW_QUOTES:  # few strings: their commas and brackets taken out one by one, the text
        inside = [found.group() for found in _STRING.finditer(text)]  # never copied (a 98 MB header: 100 MB less)
        if commas - sum(string.count(",") for string in inside) >= max_items:
            raise error(where, f"more than {max_items:,} values: beyond the bound for this file (docs/limits.md)")
        if opened - sum(string.count("[") + string.count("{") for string in inside) <= MAX_DEPTH:
            return
    bare = _STRING.sub('""', text)
    if bare.count(",") >= max_items:
        raise error(where, f"more than {max_items:,} values: beyond the bound for this file (docs/limits.md)")
    depth = 0
    for char in _NOT_BRACKET.sub("", bare):
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise error(where, f"nested too deeply (more than {MAX_DEPTH} levels)")
        else:
            depth -= 1


def toml_text(text: str, where: str) -> dict[str, Any]:
    """A spec file: TOML within MAX_DEPTH (and the config bound on size)."""
    max_bytes, _ = JSON_BOUNDS["config"]
    if len(text) > max_bytes:
        raise FileFormatError(where, f"{len(text):,} characters: beyond the {max_bytes:,} bound for a spec file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileFormatError(where, f"invalid TOML: {error}") from None
    except RecursionError:
        raise FileFormatError(where, f"nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as error:  # an integer of more than 4,300 digits
        raise FileFormatError(where, f"invalid TOML: {str(error).split(';')[0]}") from None
    nested_depth(data, where)
    return data


def nested_depth(value: Any, where: str) -> None:
    """Refuse a value nested beyond MAX_DEPTH, walked without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FileFormatError(where, f"nested too deeply (more than {MAX_DEPTH} levels)")
        children = item.values() if isinstance(item, Mapping) else item if isinstance(item, (list, tuple)) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (Mapping, list, tuple)))


_DIGITS = re.compile(r"[0-9][0-9_]*")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?%?")


def number_text(text: str, option: str) -> str:
    """``text`` unchanged, once a number in it is known to be small enough to parse quickly
    (Fraction("1e99999999") builds a 10⁸-digit integer; int() refuses 4,300 digits)."""
    raw = text.strip().replace("_", "")
    for found in _NUMBER.finditer(raw):
        exponent = found.group(1)
        if exponent is not None and (len(exponent) > 6 or abs(int(exponent)) > MAX_EXPONENT):
            raise OptionError(option, f"{quoted(text)}: an exponent beyond ±{MAX_EXPONENT}")
        if sum(char.isdigit() for char in found.group(0)) - len(exponent or "") > MAX_NUMBER_DIGITS:
            raise OptionError(option, f"{quoted(text)}: more than {MAX_NUMBER_DIGITS} digits")
    return text


def check_values(values: Mapping[str, Any], where: str, key_of: Callable[[str], str] = str,
                 strict_bools: bool = True) -> None:
    """Integer sizes within MAX_INTEGER, enumerated counts and per-layer lists within MAX_REPEAT,
    and booleans only where a boolean belongs (a JSON "false" is a string, as transformers reads it)."""
    from .architecture import _BOOL_FIELDS, _FIELD_TYPES, _INTEGER_FIELDS

    for name, value in values.items():
        kind_of_value = type(value)
        if kind_of_value is int:
            if value <= MAX_REPEAT and name not in _BOOL_FIELDS:
                continue  # nearly every value of a config: a size within every bound
        elif kind_of_value is bool or value is None:
            continue  # a boolean where a size belongs is the design's to refuse
        elif kind_of_value is str and name not in _BOOL_FIELDS and name not in _INTEGER_FIELDS:
            continue  # a name (hidden_act), not a number
        kind = _FIELD_TYPES.get(name)
        if kind is None:
            continue
        if kind == "bool" and strict_bools and type(value) is not bool and value is not None:
            raise ArchitectureError(key_of(name), f"must be true or false, got {quoted(value)}", where)
        if type(value) is float and kind.startswith("int"):
            if value != value or value in (float("inf"), float("-inf")):  # nan or an infinity: no size at all
                raise ArchitectureError(key_of(name), f"must be a whole number, got {value!r}", where)
            if value.is_integer():
                value = int(value)  # a spec's whole float (2.0e7) is bounded as the integer it stands for
        if isinstance(value, str) and kind.startswith("int") and _DIGITS.fullmatch(value.strip()):
            value = int(number_text(value, name).strip().replace("_", ""))  # as the design reads it
        if type(value) is int and kind.startswith("int"):
            bound = MAX_REPEAT if name in ENUMERATED else MAX_INTEGER
            if value > bound:
                raise ArchitectureError(key_of(name), f"{big(value)} is beyond the bound of {bound:,} "
                                                      "(docs/limits.md)", where)
        elif isinstance(value, (list, tuple)) and len(value) > MAX_REPEAT:
            raise ArchitectureError(key_of(name), f"{len(value):,} entries: beyond the bound of {MAX_REPEAT:,} "
                                                  "(one per layer)", where)


def shallow_tree(tree: Any, option: str) -> Any:
    """``tree`` (an ast) once its nesting is known to be within MAX_DEPTH, walked without
    recursion: the checks and the evaluation that follow recurse once per level."""
    import ast

    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise OptionError(option, f"nested too deeply (more than {MAX_DEPTH} levels)")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree
