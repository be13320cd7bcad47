"""Layer indices held as runs of consecutive layers or as offsets within a period: a kind's layers without a list
of every layer (inventory.py re-exports it)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Hashable, Iterable, Iterator, Sequence
from operator import ne


class Layers(Sequence[int]):
    """Layer indices, ascending: the layers of one kind in a design whose kinds alternate, without a list of
    every layer.  Held as runs of consecutive layers (``Layers(ranges)``) or as the offsets of a period below a
    depth (``Layers.periodic``: Jamba's attention layers at 10⁶ layers are one offset of a period of 8, not
    125,000 ranges).  ``runs``: how many runs of consecutive layers they are."""

    __slots__ = ("_depth", "_ends", "_offsets", "_period", "_ranges", "_start")

    def __init__(self, ranges: Sequence[range]) -> None:
        self._ranges = tuple(ranges)
        self._ends = list(itertools.accumulate(map(len, self._ranges)))
        self._period, self._offsets, self._start, self._depth = 0, (), 0, 0

    @classmethod
    def periodic(cls, offsets: Sequence[int], period: int, depth: int, start: int = 0) -> Layers:
        """Every layer i from ``start`` below ``depth`` with (i - start) % period in ``offsets`` (each below the
        period, at least one period of layers)."""
        layers = cls(())
        layers._period, layers._offsets, layers._start, layers._depth = period, tuple(sorted(offsets)), start, depth
        return layers

    def _at_offset(self, offset: int) -> int:
        """How many layers from the start below the depth sit at ``offset`` of the period."""
        return (self._depth - self._start - offset + self._period - 1) // self._period

    @property
    def runs(self) -> int:
        if not self._period:
            return len(self._ranges)
        held, p = set(self._offsets), self._period
        # a run starts at each held offset whose predecessor is not held; offset 0 starts one at layer 0 and at
        # every later period's start only when the period's last offset is not held
        starts = sum(self._at_offset(s) for s in self._offsets if s and s - 1 not in held)
        if 0 in held:
            starts += 1 + (self._at_offset(0) - 1 if p - 1 not in held else 0)
        return starts

    def __len__(self) -> int:
        if self._period:
            return sum(map(self._at_offset, self._offsets))
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index: int) -> int:  # type: ignore[override] (no slices)
        index = index + len(self) if index < 0 else index
        if not 0 <= index < len(self):
            raise IndexError(index)
        if self._period:
            period, at = divmod(index, len(self._offsets))
            return self._start + period * self._period + self._offsets[at]
        k = bisect.bisect_right(self._ends, index)
        return self._ranges[k][index - (self._ends[k - 1] if k else 0)]

    def __iter__(self) -> Iterator[int]:
        if self._period:
            held, period, start = set(self._offsets), self._period, self._start
            return (i for i in range(start, self._depth) if (i - start) % period in held)
        return itertools.chain.from_iterable(self._ranges)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layers):
            return False
        mine, theirs = (self._ranges, self._period, self._offsets, self._start, self._depth), \
            (other._ranges, other._period, other._offsets, other._start, other._depth)
        return mine == theirs or (len(self) == len(other) and all(map(int.__eq__, self, other)))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Layers({len(self)} layers in {self.runs} runs)"

    @classmethod
    def union(cls, parts: Sequence[Layers]) -> Layers:
        """The layers of every part (disjoint): offsets merged where all share one period and depth, else runs."""
        first = parts[0]
        shape = first._period, first._start, first._depth
        if first._period and all((p._period, p._start, p._depth) == shape for p in parts):
            return cls.periodic([at for p in parts for at in p._offsets], first._period, first._depth, first._start)
        ranges = sorted((r for p in parts for r in (p._ranges or _runs_of(p))), key=lambda r: r.start)
        merged: list[range] = []
        for r in ranges:
            if merged and merged[-1].stop == r.start:
                r = range(merged.pop().start, r.stop)
            merged.append(r)
        return cls(merged)


def _runs_of(layers: Layers) -> list[range]:
    """A periodic Layers as its runs of consecutive layers (a step per run: only where periods differ)."""
    runs: list[range] = []
    for i in layers:
        if runs and runs[-1].stop == i:
            runs[-1] = range(runs[-1].start, i + 1)
        else:
            runs.append(range(i, i + 1))
    return runs


def canonical_kinds(distinct: Sequence[Sequence], blocks: Iterable[Sequence]) -> tuple[list, list[int] | None]:
    """The distinct blocks (by identity), those holding equal tensors (a sliding and a full layer may) merged, in
    the order they first appear; each layer's index among them (found in C), None when every layer is alike."""
    kinds: list = []
    canonical: dict[int, int] = {}  # id(block) -> index of the first distinct block with equal tensors
    for block in distinct:
        same = next((k for k, other in enumerate(kinds) if other == block), None)
        canonical[id(block)] = len(kinds) if same is None else same
        if same is None:
            kinds.append(block)
    return kinds, (list(map(canonical.__getitem__, map(id, blocks))) if len(kinds) > 1 else None)


MAX_PERIOD = 4_096
"""The longest period periodic_kinds looks for (a real pattern repeats every few layers)."""


def smallest_period(keys: Sequence[Hashable]) -> int | None:
    """The smallest p of at most MAX_PERIOD with keys[i] == keys[i + p] for every i, the keys holding at least two
    periods; else None.  The smallest period of the first 2 x MAX_PERIOD keys is the only candidate (two periods
    p, q <= MAX_PERIOD of that window make gcd(p, q) one, Fine and Wilf), checked once over every key (in C)."""
    depth = len(keys)
    window = keys[:2 * MAX_PERIOD]
    period = next((p for p in range(1, min(MAX_PERIOD, depth // 2) + 1)
                   if keys[p] == keys[0] and window[p:] == window[:len(window) - p]), None)
    return None if period is None or keys[period:] != keys[:depth - period] else period


def periodic_kinds(keys: Sequence[Hashable], start: int = 0) -> list[tuple[Hashable, Layers]] | None:
    """``keys[i]``: layer start + i's kind.  Where they repeat with a period (smallest_period), each kind in the
    order it first appears with its layers as offsets of the period; else None."""
    period = smallest_period(keys)
    if period is None:
        return None
    offsets: dict[Hashable, list[int]] = {}
    for at, key in enumerate(keys[:period]):
        offsets.setdefault(key, []).append(at)
    return [(key, Layers.periodic(at, period, start + len(keys), start)) for key, at in offsets.items()]


def grouped_kinds(keys: Sequence[Hashable], start: int = 0) -> list[tuple[Hashable, Layers]]:
    """periodic_kinds' answer, or where the keys have no short period, each kind's runs of consecutive layers
    (their starts found in C, then a step per run)."""
    found = periodic_kinds(keys, start)
    if found is not None:
        return found
    if not keys:
        return []
    cuts = [0, *itertools.compress(itertools.count(1), map(ne, keys, keys[1:])), len(keys)]
    runs: dict[Hashable, list[range]] = {}
    for first, stop in itertools.pairwise(cuts):
        runs.setdefault(keys[first], []).append(range(start + first, start + stop))
    return [(key, Layers(ranges)) for key, ranges in runs.items()]
