"""Frozen records of many fields, without the code a dataclass generates for them.

``@dataclass(frozen=True)`` writes an ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` naming every
field and compiles them when the class is made: for the Architecture's and the Naming's hundred fields
that was 9 ms of every start (issue #22), more than the count itself.  ``record`` keeps the dataclass's
fields (``dataclasses.fields`` and ``dataclasses.replace`` work as before) and gives the class one generic
method of each kind, which reads the field tables made here once.  The instance dict is set in one step,
the defaults first and the given values over them, so every instance holds every field in one order.
"""

from __future__ import annotations

import dataclasses
from typing import Any

_MISSING = dataclasses.MISSING


def record(cls: type | None = None, *, extra: tuple[type, ...] = ()) -> Any:
    """``cls`` as a frozen dataclass whose methods are generic (``cls`` must not define ``__slots__``);
    ``extra``: classes whose annotated attributes become fields too, after ``cls``'s own (the keys and
    names a part module declares for the kind it adds: parts/_protocol.MixerKind)."""
    if cls is None:
        return lambda cls: record(cls, extra=extra)
    for more in extra:
        for key, annotation in vars(more).get("__annotations__", {}).items():
            if key in cls.__annotations__:
                raise RuntimeError(f"{cls.__qualname__}.{key} is declared twice ({more.__module__})")
            cls.__annotations__[key] = annotation
            setattr(cls, key, getattr(more, key))
    cls = dataclasses.dataclass(frozen=True, init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(cls)
    defaults = {f.name: f.default for f in fields if f.default is not _MISSING}
    required = tuple(f.name for f in fields if f.default is _MISSING)
    compared = tuple(f.name for f in fields if f.compare)
    shown = tuple(f.name for f in fields if f.repr)
    order = tuple(f.name for f in fields)
    name = cls.__qualname__

    def __init__(self: Any, **values: Any) -> None:
        unknown = values.keys() - defaults.keys() - set(required)
        if unknown:
            raise TypeError(f"{name}() got an unexpected keyword argument {min(unknown)!r}")
        missing = [key for key in required if key not in values]
        if missing:
            raise TypeError(f"{name}() missing required keyword argument {missing[0]!r}")
        own = dict.fromkeys(order)  # the fields' order, whatever the arguments' order
        own.update(defaults)
        own.update(values)
        object.__setattr__(self, "__dict__", own)

    def __eq__(self: Any, other: object) -> bool:
        if other is self:  # the same frozen record (a family's naming against itself): no field compared
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        return all(mine[key] == theirs[key] for key in compared)

    def __hash__(self: Any) -> int:  # kept in the instance dict: a Naming's hundred fields are hashed once, not
        mine = self.__dict__          # at every cache look-up (a whole model's naming is looked up twice a count)
        value = mine.get("_hash")
        if value is None:
            value = mine["_hash"] = hash(tuple(mine[key] for key in compared))
        return value

    def __repr__(self: Any) -> str:
        mine = self.__dict__
        return f"{name}({', '.join(f'{key}={mine[key]!r}' for key in shown)})"

    for method in (__init__, __eq__, __hash__, __repr__):
        method.__qualname__ = f"{name}.{method.__name__}"
        setattr(cls, method.__name__, method)
    return cls
