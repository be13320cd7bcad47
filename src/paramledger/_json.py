"""Indented JSON with each long list of scalars on one line: a design's per-layer lists at 10^6 layers are millions
of items, which the indenting encoder (pure Python: the C one takes no indent) took seconds over."""

from __future__ import annotations

import itertools
import json
import re
import secrets
from collections.abc import Iterator
from typing import Any

LONG_LIST = 64
"""A list of more scalars than this is written on one line, by the C encoder."""

_SCALARS = frozenset({int, float, str, bool, type(None)})


def _lists_apart(value: Any, lists: list[str], nonce: str) -> Any:
    """``value`` with each long list of scalars replaced by a marker string (``nonce``, a fresh random one, and
    its index: no string of the input can be taken for one); its compact JSON appended to ``lists``."""
    if isinstance(value, dict):
        return {key: _lists_apart(item, lists, nonce) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        if len(value) > LONG_LIST and set(map(type, value)) <= _SCALARS:  # the types found in C
            lists.append(json.dumps(value, allow_nan=False))
            return f"\0{nonce}{len(lists) - 1}\0"
        return [_lists_apart(item, lists, nonce) for item in value]
    return value


def indented(value: Any, indent: int = 2, batch: int = 65_536) -> Iterator[str]:
    """``value`` as strict JSON (NaN and Infinity raise ValueError), indented, in pieces of ``batch`` chunks."""
    lists: list[str] = []
    nonce = secrets.token_hex(8)
    chunks = json.JSONEncoder(indent=indent, allow_nan=False).iterencode(_lists_apart(value, lists, nonce))
    marker = re.compile(rf'"\\u0000{nonce}(\d+)\\u0000"')
    for piece in iter(lambda: "".join(itertools.islice(chunks, batch)), ""):
        yield marker.sub(lambda found: lists[int(found[1])], piece) if lists else piece
