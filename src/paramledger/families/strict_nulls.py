"""Null where a config class takes none (issue #15): huggingface_hub's @strict refuses None for a field whose
annotation admits none (Gemma2Config's ``intermediate_size: int``), so transformers 5.24.0 loads no config giving one.
paramledger read such a null as the class default and counted the config (1,729 type-key pairs of the supported types'
smallest configs); it is now refused in one line naming the key.  A field whose annotation admits None keeps its
reading (the class derives it, or the family's rule says what null means there).

strict_nulls.json (package data) lists, for each table that reads a decoder section (a whole model's text table), the
fields its config class declares without None, PreTrainedConfig's own under "*": written by scripts/strict_nulls.py
from transformers' classes and held against them by tests/test_strict_nulls.py.  It is read only when a config gives
a null.
"""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from .._exceptions import ArchitectureError


@cache
def _table() -> dict[str, frozenset[str]]:
    text = importlib.resources.files(__package__).joinpath("strict_nulls.json").read_text(encoding="utf-8")
    return {table: frozenset(fields) for table, fields in json.loads(text).items()}


def check(config: Mapping[str, Any], model_type: str, where: str | None) -> None:
    """Refuse a null ``config`` (the section the table ``model_type`` reads) gives a field its class takes no null in."""
    if None not in config.values():  # (most configs: one scan, the table never read)
        return
    table = _table()
    fields = table["*"] | table.get(model_type, frozenset())
    if (key := next((key for key, value in config.items() if value is None and key in fields), None)) is not None:
        raise ArchitectureError(key, "null, where its config class takes none: transformers 5.24.0 refuses it "
                                     "(the field's type admits no None)", where)
