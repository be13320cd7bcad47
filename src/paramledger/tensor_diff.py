"""Two inventories tensor by tensor (whatif.Comparison.tensor_diff): what the other adds, removes and reshapes, kept
as runs of alike layers, or where kinds alternate as each pair of kinds with its layers (a 10^6-layer diff is a few
entries)."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import add, mul

from ._layers import grouped_kinds
from .inventory import Inventory, Layers, StampedTensors, Tensor


def tensor_diff(base: Inventory, other: Inventory) -> TensorDiff:
    """``other`` against ``base``, tensor by tensor, per run of alike layers where both are a builder's."""
    old, new = base.tensors, other.tensors
    runs = (_diff_by_runs(old, new) if isinstance(old, StampedTensors) and isinstance(new, StampedTensors)
            else None)
    if runs is None:
        runs = tuple([DiffRun(o, n) for o, n in part] for part in _by_name(old, new))
    old_aliases = set(base.aliases.items())
    new_aliases = set(other.aliases.items())
    return TensorDiff(*map(tuple, runs), aliases_added=tuple(sorted(new_aliases - old_aliases)),
                      aliases_removed=tuple(sorted(old_aliases - new_aliases)),
                      depth=max(_depth(base), _depth(other)))


@dataclass(frozen=True, slots=True)
class DiffRun:
    """One difference: ``old`` (None: added) and ``new`` (None: removed).  With ``layers`` (a range, or
    Layers: the layers of one kind where kinds alternate past LISTED_RUNS runs) it stands for the same
    difference in each of those layers, the names relative to ``prefix`` ("model.layers.{i}."); without,
    for one tensor under its full name."""

    old: Tensor | None
    new: Tensor | None
    prefix: str = ""
    layers: range | Layers | None = None

    @property
    def tensors(self) -> int:
        return 1 if self.layers is None else len(self.layers)


@dataclass(frozen=True)
class TensorDiff:
    """Tensor by tensor: what the other inventory adds, removes, reshapes, and how its
    aliases differ.  Kept as runs (a difference every layer of a run repeats is one DiffRun,
    so a 10^6-layer diff is a few entries); ``added``, ``removed`` and ``reshaped`` list it
    tensor by tensor.  ``depth``: the deeper inventory's layers."""

    added_runs: tuple[DiffRun, ...] = ()
    removed_runs: tuple[DiffRun, ...] = ()
    reshaped_runs: tuple[DiffRun, ...] = ()  # (base, other), same name
    aliases_added: tuple[tuple[str, str], ...] = ()  # (alias, target) only in the other
    aliases_removed: tuple[tuple[str, str], ...] = ()  # (alias, target) only in the base
    depth: int = 0

    @property
    def added(self) -> tuple[Tensor, ...]:
        return _tensors(self.added_runs, lambda run, name: run.new._replace(**name(run.new)))

    @property
    def removed(self) -> tuple[Tensor, ...]:
        return _tensors(self.removed_runs, lambda run, name: run.old._replace(**name(run.old)))

    @property
    def reshaped(self) -> tuple[tuple[Tensor, Tensor], ...]:
        return _tensors(self.reshaped_runs,
                        lambda run, name: (run.old._replace(**name(run.old)), run.new._replace(**name(run.new))))

    @property
    def delta(self) -> int:
        """Equals Comparison.delta: a check that the diff explains the whole change."""
        return (sum(run.tensors * run.new.count for run in self.added_runs)
                - sum(run.tensors * run.old.count for run in self.removed_runs)
                + sum(run.tensors * (run.new.count - run.old.count) for run in self.reshaped_runs))

    def __bool__(self) -> bool:
        return bool(self.added_runs or self.removed_runs or self.reshaped_runs or self.aliases_added
                    or self.aliases_removed)


def _tensors(runs: tuple[DiffRun, ...], pick: Callable) -> tuple:
    """The runs tensor by tensor, layer by layer in the inventories' order: ``pick(run, name)`` gives the
    entry, ``name(tensor)`` its full name and layer (as keyword arguments for Tensor._replace)."""
    out: list = []
    for (layers, prefix), group in itertools.groupby(runs, key=lambda run: (run.layers, run.prefix)):
        if layers is None:
            out.extend(pick(run, lambda t: {}) for run in group)
            continue
        group = list(group)
        for i in layers:
            start = prefix.format(i=i)
            out.extend(pick(run, lambda t: {"name": start + t.name, "layer": i}) for run in group)  # noqa: B023
    return tuple(out)


LISTED_RUNS = 2_000
"""Past this many runs of alike layers (kinds that alternate), the diff holds one entry per kind of layer."""

Pairs = tuple[list[tuple[None, Tensor]], list[tuple[Tensor, None]], list[tuple[Tensor, Tensor]]]


def _by_name(old: Sequence[Tensor], new: Sequence[Tensor]) -> Pairs:
    """(added, removed, reshaped) as (old, new) pairs, name by name, each in its list's order."""
    before, after = {t.name: t for t in old}, {t.name: t for t in new}
    return ([(None, t) for name, t in after.items() if name not in before],
            [(t, None) for name, t in before.items() if name not in after],
            [(before[name], t) for name, t in after.items() if name in before and before[name].shape != t.shape])


_PREFIX = re.compile(r"[^{}]*\.\{i\}\.")  # "model.layers.{i}.": a layer's index parses from a full name


def _diff_by_runs(base: StampedTensors, other: StampedTensors) -> tuple[list[DiffRun], ...] | None:
    """The diff of two builders' inventories per run of alike layers, never per layer; None when a name
    outside the layers could be a layer's (the caller compares name by name)."""
    prefixes = base.layer_prefix, other.layer_prefix
    statics = [prefix.partition("{i}")[0] for prefix in prefixes]
    if not all(map(_PREFIX.fullmatch, prefixes)) or (
            prefixes[0] != prefixes[1] and (statics[0].startswith(statics[1]) or statics[1].startswith(statics[0]))):
        return None
    (a_before, a_after), (b_before, b_after) = base.outside(), other.outside()
    layered = re.compile("|".join(re.escape(static) + r"\d+\." for static in statics))
    if any(layered.match(t.name) for t in (*a_before, *a_after, *b_before, *b_after)):
        return None
    added, removed, reshaped = _by_name((*a_before, *a_after), (*b_before, *b_after))
    first_b, first_a = {t.name for t in b_before}, {t.name for t in a_before}
    segments = _segments(base, other, prefixes[0] == prefixes[1])
    cache: dict[tuple[int, int], Pairs] = {}
    inside: tuple[list[DiffRun], ...] = ([], [], [])
    for layers, old, new in segments:
        pairs = cache.get((id(old), id(new))) or cache.setdefault((id(old), id(new)), _by_name(old, new))
        for out, part, prefix in zip(inside, pairs, (prefixes[1], prefixes[0], prefixes[0])):
            out.extend(DiffRun(o, n, prefix, layers) for o, n in part)

    def around(pairs: list, first: set[str], runs: list[DiffRun], side: int) -> list[DiffRun]:
        return ([DiffRun(*p) for p in pairs if p[side].name in first] + runs
                + [DiffRun(*p) for p in pairs if p[side].name not in first])

    return (around(added, first_b, inside[0], 1), around(removed, first_a, inside[1], 0),
            around(reshaped, first_b, inside[2], 1))


def _segments(base: StampedTensors, other: StampedTensors, same_names: bool
              ) -> list[tuple[range | Layers, tuple[Tensor, ...], tuple[Tensor, ...]]]:
    """(layers, base's block, other's block) over the layers: layer i against layer i where both name their layers
    alike, else every layer of the base removed and every layer of the other added; where kinds alternate past
    LISTED_RUNS runs, one entry per pair of kinds, its layers a Layers."""
    if same_names and (paired := _paired_kinds(base, other)) is not None:
        return paired  # the pairs repeat with a period: each once, no step per run
    a_runs, b_runs = base.layer_runs()[1], other.layer_runs()[1]
    if same_names:  # over the spans where neither side's kind changes
        a_blocks, b_blocks = _blocks_at(a_runs), _blocks_at(b_runs)
        cuts = sorted({0, *(r.stop for r, _ in a_runs), *(r.stop for r, _ in b_runs)})
        segments = [(range(start, stop), a_blocks(start), b_blocks(start)) for start, stop in itertools.pairwise(cuts)]
    else:
        segments = [(layers, block, ()) for layers, block in a_runs] + [(layers, (), block) for layers, block in b_runs]
    if len(segments) <= LISTED_RUNS:
        return segments
    kinds: dict[tuple[int, int], tuple[list[range], tuple[Tensor, ...], tuple[Tensor, ...]]] = {}
    for layers, old, new in segments:
        ranges = kinds.setdefault((id(old), id(new)), ([], old, new))[0]
        if ranges and ranges[-1].stop == layers.start:
            layers = range(ranges.pop().start, layers.stop)
        ranges.append(layers)
    return [(Layers(ranges), old, new) for ranges, old, new in kinds.values()]


def _paired_kinds(base: StampedTensors, other: StampedTensors) -> list[tuple[Layers, tuple, tuple]] | None:
    """(its layers, base's block, other's block; () past a side's depth) for each pair of kinds at one layer, where
    one side's kinds alternate past LISTED_RUNS runs: the pairs grouped by _layers.grouped_kinds (offsets of a
    period where they repeat), the layers both sides hold apart from those only the deeper holds; else None."""
    if max(base.run_count(), other.run_count()) <= LISTED_RUNS:
        return None
    (a_kinds, a_keys), (b_kinds, b_keys) = base.kinds_by_layer(), other.kinds_by_layer()
    a_depth, b_depth = len(base.blocks), len(other.blocks)
    a_keys, b_keys = a_keys or [0] * a_depth, b_keys or [0] * b_depth
    a_kinds, b_kinds = [*a_kinds, ()], [*b_kinds, ()]  # the last: no layer there
    width, both = len(b_kinds), min(a_depth, b_depth)
    # one int per layer, made in C: base's kind x width + other's
    paired = list(map(add, map(mul, a_keys[:both], itertools.repeat(width)), b_keys[:both]))
    deeper = [key * width + width - 1 for key in a_keys[both:]] if a_depth > both else \
        [(len(a_kinds) - 1) * width + key for key in b_keys[both:]]
    return [(layers, a_kinds[key // width], b_kinds[key % width])
            for part, start in ((paired, 0), (deeper, both)) for key, layers in grouped_kinds(part, start)]


def _blocks_at(runs: list[tuple[range, tuple[Tensor, ...]]]) -> Callable[[int], tuple[Tensor, ...]]:
    """Layer -> the block of the run holding it (() past the last layer)."""
    starts = [layers.start for layers, _ in runs]

    def block(i: int) -> tuple[Tensor, ...]:
        k = bisect.bisect_right(starts, i) - 1
        return runs[k][1] if k >= 0 and i in runs[k][0] else ()
    return block


def _depth(inv: Inventory) -> int:
    tensors = inv.tensors
    return len(tensors.blocks) if isinstance(tensors, StampedTensors) else len({t.layer for t in tensors} - {None})
