"""How a checkpoint stores its weights, read from its config (issue #18): a stub until it lands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def stored_format(config: Mapping[str, Any], text_config: Mapping[str, Any], where: str) -> None:
    """The stored format a config declares (its dtype and quantization_config); None: not read yet."""
    return None
