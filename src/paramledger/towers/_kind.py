"""The record a tower module declares its towers with (``TOWERS``: vision_config model_type -> TowerKind)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class TowerKind(NamedTuple):
    """A tower a module of this package builds."""
    defaults: Mapping[str, Any]  # its config class's defaults (cite the configuration file)
    make: Any  # (module prefix, the vision_config over the defaults, where) -> the tower (tensors(), buffers())
