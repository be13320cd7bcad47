"""The collector a part writes its tensors into: one list, each tensor appended where it is named."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..inventory import Buffer, Tensor

if TYPE_CHECKING:
    from ..naming import Naming

_new = tuple.__new__


class Collector:
    """Collects one list of tensors.  Each tensor is made with tuple.__new__: NamedTuple's own
    __new__ without its Python frame (the fields are ours), and appended in the method that names
    it, not through another call (a count makes a few dozen).

    ``norm_type`` is the design's (every learned norm of a block is of one kind); a part that
    holds a norm of its own kind whatever the block's (the DeltaNet's gated RMSNorm) uses add()."""

    __slots__ = ("naming", "tensors", "_append", "_conv1d", "_norm_kind")

    def __init__(self, naming: Naming, norm_type: str) -> None:
        self.naming = naming
        self.tensors: list[Tensor] = []
        self._append = self.tensors.append
        self._conv1d = naming.conv1d
        self._norm_kind = norm_type

    def add(self, name: str, shape: tuple[int, ...], component: str, layer: int | None = None,
            experts: int = 0) -> None:
        self._append(_new(Tensor, (name, shape, component, layer, False, experts)))

    def linear(self, path: str, out_features: int, in_features: int, component: str,
               layer: int | None = None, bias: bool = False) -> None:
        shape = (in_features, out_features) if self._conv1d else (out_features, in_features)
        self._append(_new(Tensor, (path + ".weight", shape, component, layer, False, 0)))
        if bias:
            self._append(_new(Tensor, (path + ".bias", (out_features,), component, layer, False, 0)))

    def norm(self, path: str, size: int, layer: int | None = None, rows: int = 0, offset: bool = True) -> None:
        """A norm over ``size`` channels; ``rows``: one per head stored as one (rows, size)
        weight; ``offset`` False drops a LayerNorm's bias (qk_norm_bias)."""
        kind = self._norm_kind
        if kind == "nonparametric":
            return
        shape = (rows, size) if rows else (size,)
        self._append(_new(Tensor, (path + ".weight", shape, "norm", layer, False, 0)))
        if kind == "layernorm" and offset:
            self._append(_new(Tensor, (path + ".bias", shape, "norm", layer, False, 0)))


class BufferCollector(Collector):
    """The collector a part's buffers() writes into (buffers.py asks, memory sizes): apart from Collector, so
    that a count, which never asks for buffers, makes no list for them."""

    __slots__ = ("buffers",)

    def __init__(self, naming: Naming, norm_type: str) -> None:
        super().__init__(naming, norm_type)
        self.buffers: list[Buffer] = []

    def buffer(self, name: str, shape: tuple[int, ...], dtype: str | None = None, persistent: bool = True) -> None:
        """A buffer the part registers (not learned, never counted); ``dtype`` None: the model's."""
        self.buffers.append(Buffer(name, shape, dtype, persistent))
