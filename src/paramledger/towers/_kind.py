"""The record a tower module declares its towers with (``TOWERS``: vision_config model_type -> TowerKind)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class TowerKind(NamedTuple):
    """A tower a module of this package builds."""
    defaults: Mapping[str, Any]  # its config class's defaults (cite the configuration file)
    make: Any  # (module prefix, the vision_config over the defaults, where) -> the tower (tensors(), buffers())


def stamped(prefixes: Any, block: Any, component: str = "vision") -> list[Any]:
    """Every layer of a tower: ``block``'s (name, shape) pairs under each of ``prefixes`` (a layer's full path and
    its dot), layer by layer.  One comprehension: half the time of a generator extended per layer (a Qwen3.5
    tower's 351 tensors were most of its whole model's count)."""
    from ..inventory import Tensor

    new = tuple.__new__
    return [new(Tensor, (prefix + name, shape, component, None, False, 0)) for prefix in prefixes
            for name, shape in block]


def section(config: Mapping[str, Any], key: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The sub-config ``key`` of a whole model's config over its class's ``defaults`` (absent or null: the
    defaults), refused in one line unless a JSON object."""
    given = config.get(key)
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        from .._exceptions import ArchitectureError

        raise ArchitectureError(key, "must be a JSON object")
    return {**defaults, **given}
