"""Layer indices held as runs of consecutive layers: a kind's layers without a list of every layer (inventory.py
re-exports it)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Sequence


class Layers(Sequence[int]):
    """Layer indices held as runs of consecutive layers (``ranges``, ascending): the layers of one kind in
    a design whose kinds alternate, without a list of every layer."""

    __slots__ = ("_ends", "ranges")

    def __init__(self, ranges: Sequence[range]) -> None:
        self.ranges = tuple(ranges)
        self._ends = list(itertools.accumulate(map(len, self.ranges)))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index: int) -> int:  # type: ignore[override] (no slices)
        index = index + len(self) if index < 0 else index
        if not 0 <= index < len(self):
            raise IndexError(index)
        k = bisect.bisect_right(self._ends, index)
        return self.ranges[k][index - (self._ends[k - 1] if k else 0)]

    def __iter__(self) -> Iterator[int]:
        return itertools.chain.from_iterable(self.ranges)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layers) and self.ranges == other.ranges

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Layers({len(self)} layers in {len(self.ranges)} runs)"
