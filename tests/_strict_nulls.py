"""The fields of each supported type's decoder-section config class that take no null (issue #15): huggingface_hub's
@strict refuses None for a field whose annotation admits none (int, bool, float, list[str], ...), so transformers
5.24.0 loads no config giving one.  Shared by scripts/strict_nulls.py (which writes the package's table,
src/paramledger/families/strict_nulls.json) and tests/test_strict_nulls.py (which holds the table against this)."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any



def admits_none(hint: Any) -> bool:
    if hint is Any or hint is type(None) or hint is None:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(admits_none(arg) for arg in typing.get_args(hint))
    if origin is typing.Literal:
        return None in typing.get_args(hint)
    return False


def non_nullable(config_class: type) -> set[str]:
    import torch

    hints = typing.get_type_hints(config_class, localns={"torch": torch})
    return {field.name for field in dataclasses.fields(config_class) if not admits_none(hints.get(field.name, Any))}


def by_table() -> dict[str, list[str]]:
    """Each reading table (a whole model's text table) -> the fields no class it reads takes null in, sorted; the
    fields of PreTrainedConfig itself that take no null under "*" (left out of each table's own)."""
    from transformers import PreTrainedConfig

    from _flag_parity import decoder_sections

    common = non_nullable(PreTrainedConfig)
    found: dict[str, set[str]] = {}
    for _, table, section in decoder_sections():
        if section is None or not dataclasses.is_dataclass(section):
            continue
        fields = non_nullable(type(section))
        found[table] = found[table] & fields if table in found else fields
    out = {"*": sorted(common)}
    out.update({table: sorted(fields - common) for table, fields in sorted(found.items()) if fields - common})
    return out
