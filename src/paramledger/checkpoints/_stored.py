"""What a checkpoint stores, as its headers say: names, dtypes, shapes and byte sizes.

A stored tensor is not yet a parameter: a checkpoint also holds buffers (GPT-2's causal
mask), quantization scales and packed low-bit values.  checkpoints/names.py sorts them;
reconcile.py compares them with the config-derived inventory.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import SourceError


@contextmanager
def opening(path: str, kind: str) -> Iterator[None]:
    """The file system's refusals of a checkpoint file as one line each (``kind``: ".gguf")."""
    try:
        yield
    except FileNotFoundError:
        raise SourceError(path, "no such file") from None
    except IsADirectoryError:
        raise SourceError(path, f"is a folder, not a {kind} file") from None
    except OSError as error:
        raise SourceError(path, f"cannot be read ({error.strerror or error.__class__.__name__})") from None


@dataclass(frozen=True, slots=True)
class StoredTensor:
    """One stored tensor.  ``shape`` is in PyTorch order (GGUF's dims reversed);
    ``values`` is the element count the shape declares, ``nbytes`` what it takes on disk."""

    name: str
    dtype: str  # the format's own name: "F32", "BF16", "Q4_K", "torch.float16"
    shape: tuple[int, ...]
    nbytes: int
    file: str | None = None  # the shard holding it, in a sharded checkpoint

    @property
    def values(self) -> int:
        return math.prod(self.shape)


@dataclass(frozen=True)
class Checkpoint:
    path: str
    format: str  # "safetensors", "safetensors (sharded)", "gguf", "pytorch"
    tensors: tuple[StoredTensor, ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    # Names that share storage with another stored tensor (a .bin that pickled a tied head
    # twice): alias -> the name that owns the storage.  Not in ``tensors``.
    aliases: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def total_values(self) -> int:
        return sum(t.values for t in self.tensors)

    @property
    def total_bytes(self) -> int:
        return sum(t.nbytes for t in self.tensors)

    def by_dtype(self) -> dict[str, tuple[int, int]]:
        """dtype -> (values, bytes), largest byte share first."""
        sums: dict[str, list[int]] = {}
        for t in self.tensors:
            entry = sums.setdefault(t.dtype, [0, 0])
            entry[0] += t.values
            entry[1] += t.nbytes
        return {k: (v[0], v[1]) for k, v in sorted(sums.items(), key=lambda kv: -kv[1][1])}

    def __getitem__(self, name: str) -> StoredTensor:
        for t in self.tensors:
            if t.name == name:
                return t
        raise KeyError(name)

    def names(self) -> list[str]:
        return [t.name for t in self.tensors]


@dataclass(frozen=True)
class Entry:
    """One stored tensor, sorted: ``parameters`` is the learned values it stands for."""

    tensor: StoredTensor
    kind: str  # parameter | buffer | quantization | packed | alias
    component: str
    layer: int | None
    expected: str | None  # the inventory tensor it matches
    parameters: int
    reason: str = ""


@dataclass(frozen=True)
class Difference:
    kind: str
    message: str
    contribution: int  # to (stored values - inventory total)
    tensors: tuple[str, ...] = ()
