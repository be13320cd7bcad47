"""What-if and comparisons: two inventories and what separates them.

Seed 000 changes depth, width, vocabulary and tying one at a time and explains each
result by the part that changed.  A :class:`Comparison` holds the two inventories and
returns the same explanation for any pair: the new total, the change against the base
(exact; the percentage is a Fraction turned into digits only at the edge), the embedding
share after, and the per-component deltas, largest first.  Nothing is added up here: every
figure is read from the two tensor lists.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import add, mul
from typing import Any

from ._exceptions import OptionError, UnknownKeyError
from ._layers import grouped_kinds
from .architecture import Architecture
from .inventory import COMPONENTS, Inventory, Layers, StampedTensors, Tensor
from .limits import number_text


@dataclass(frozen=True, slots=True)
class Change:
    """One --vary: keys set together (``hidden_size=128,intermediate_size=512``)."""

    settings: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        return ",".join(f"{key}={value}" for key, value in self.settings)

    def as_dict(self) -> dict[str, str]:
        return dict(self.settings)


def parse_change(text: str, option: str = "--vary") -> Change:
    """``KEY=VALUE[,KEY=VALUE...]``.  A comma-separated item without ``=`` continues the
    previous value, so list-valued keys read naturally (``mlp_only_layers=0,1``)."""
    pairs: list[list[str]] = []
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if sep:
            if not key.strip():
                raise OptionError(option, f"expected KEY=VALUE[,KEY=VALUE...], got {text!r} (a value has no key)")
            number_text(value, option)  # a huge exponent is refused before any arithmetic
            pairs.append([key.strip(), value.strip()])
        elif pairs and item.strip():
            pairs[-1][1] += "," + item.strip()
        else:
            raise OptionError(option, f"expected KEY=VALUE[,KEY=VALUE...], got {text!r}")
    known = Architecture.field_names()
    seen: set[str] = set()
    for key, _ in pairs:
        if key not in known:
            raise UnknownKeyError(key, known, option)
        if key in seen:
            raise OptionError(option, f"{key} is set twice in {text!r}")
        seen.add(key)
    return Change(tuple((key, value) for key, value in pairs))


def apply_change(arch: Architecture, change: Change) -> Architecture:
    """The architecture with ``change`` applied, validated like a spec file (a per-layer
    pattern follows a new depth: Architecture.replace)."""
    from .limits import check_values

    where = f"--vary {change.label}"
    check_values(change.as_dict(), where, strict_bools=False)  # the bounds --set holds to, before any work
    return arch.replace(where=where, **change.as_dict())


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
    segments: list[tuple[range, tuple[Tensor, ...], tuple[Tensor, ...]]] = []
    paired = _paired_kinds(base, other) if prefixes[0] == prefixes[1] else None
    a_runs, b_runs = ([], []) if paired is not None else (base.layer_runs()[1], other.layer_runs()[1])
    if paired is not None:  # kinds alternate with a period on both sides: each pair of kinds once, no step per run
        segments = paired  # type: ignore[assignment] (Layers, not ranges)
    elif prefixes[0] == prefixes[1]:  # layer i against layer i, over the spans where neither side's kind changes
        a_blocks, b_blocks = _blocks_at(a_runs), _blocks_at(b_runs)
        cuts = sorted({0, *(r.stop for r, _ in a_runs), *(r.stop for r, _ in b_runs)})
        segments = [(range(start, stop), a_blocks(start), b_blocks(start))
                    for start, stop in itertools.pairwise(cuts)]
    else:  # different names: every layer of the base removed, every layer of the other added
        segments = [(layers, block, ()) for layers, block in a_runs] + [(layers, (), block) for layers, block in b_runs]
    if paired is None and len(segments) > LISTED_RUNS:  # kinds alternate: one entry per pair of kinds, in runs
        kinds: dict[tuple[int, int], tuple[list[range], tuple[Tensor, ...], tuple[Tensor, ...]]] = {}
        for layers, old, new in segments:
            ranges = kinds.setdefault((id(old), id(new)), ([], old, new))[0]
            if ranges and ranges[-1].stop == layers.start:
                layers = range(ranges.pop().start, layers.stop)
            ranges.append(layers)
        segments = [(Layers(ranges), old, new) for ranges, old, new in kinds.values()]
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


@dataclass(frozen=True)
class Comparison:
    """``other`` against ``base``; ``label`` names the change (a --vary or a source)."""

    base: Inventory
    other: Inventory
    label: str
    change: Change | None = field(default=None)

    @property
    def total(self) -> int:
        return self.other.total

    @property
    def delta(self) -> int:
        return self.other.total - self.base.total

    @property
    def delta_fraction(self) -> Fraction:
        """delta / base total, exact (0 for an empty base)."""
        return Fraction(self.delta, self.base.total) if self.base.total else Fraction(0)

    @property
    def embedding_share(self) -> Fraction:
        return self.other.embedding_share

    @property
    def components_delta(self) -> dict[str, int]:
        """Component -> change in count, only the components that moved, largest move first
        (ties in COMPONENTS order)."""
        order = {name: i for i, name in enumerate(COMPONENTS)}
        names = set(self.base.components) | set(self.other.components)
        moved = {name: self.other.component(name) - self.base.component(name) for name in names}
        moved = {name: value for name, value in moved.items() if value}
        return dict(sorted(moved.items(), key=lambda kv: (-abs(kv[1]), order.get(kv[0], len(order)))))

    def tensor_diff(self) -> TensorDiff:
        old, new = self.base.tensors, self.other.tensors
        runs = (_diff_by_runs(old, new) if isinstance(old, StampedTensors) and isinstance(new, StampedTensors)
                else None)
        if runs is None:
            runs = tuple([DiffRun(o, n) for o, n in part] for part in _by_name(old, new))
        old_aliases = set(self.base.aliases.items())
        new_aliases = set(self.other.aliases.items())
        return TensorDiff(*map(tuple, runs), aliases_added=tuple(sorted(new_aliases - old_aliases)),
                          aliases_removed=tuple(sorted(old_aliases - new_aliases)),
                          depth=max(_depth(self.base), _depth(self.other)))


def what_if(source: Architecture | str | Mapping[str, Any], changes: Iterable[Change | str]) -> list[Comparison]:
    """One Comparison per change, each against the unchanged ``source``."""
    from . import inventory, load

    arch = load(source)
    base = inventory(arch)
    out = []
    for change in changes:
        change = parse_change(change) if isinstance(change, str) else change
        out.append(Comparison(base, inventory(apply_change(arch, change)), change.label, change))
    if not out:
        raise OptionError("--vary", "give at least one change, e.g. --vary num_hidden_layers=3")
    return out


def compare(base: Architecture | str | Inventory, other: Architecture | str | Inventory) -> Comparison:
    """``other`` against ``base``: any two sources (or inventories)."""
    from . import inventory

    first = base if isinstance(base, Inventory) else inventory(base)
    second = other if isinstance(other, Inventory) else inventory(other)
    label = second.source or (other if isinstance(other, str) else "other")
    return Comparison(first, second, str(label))


# ---------------------------------------------------------------------- views (the edge)
MINUS = "\u2212"  # the seed's typographic minus


def signed(value: int) -> str:
    return f"{value:+,}".replace("-", MINUS)


def signed_percent(share: Fraction, digits: int = 6) -> str:
    """share × 100 rounded half up to ``digits`` decimals from the exact fraction."""
    scaled = abs(share) * 100 * 10**digits
    rounded = scaled.numerator * 2 // scaled.denominator
    rounded = (rounded + 1) // 2  # floor(scaled + 1/2)
    whole, part = divmod(rounded, 10**digits)
    sign = MINUS if share < 0 and rounded else "+"
    return f"{sign}{whole}.{part:0{digits}d} %" if digits else f"{sign}{whole} %"


def components_text(deltas: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {signed(value)}" for name, value in deltas.items()) or "no change"


def comparison_table(rows: list[Comparison], heading: str | None = None) -> str:
    from .render import percent, table

    base = rows[0].base
    # a whole multimodal model on either side: each total's text decoder (the total less the towers) beside it
    towers = any(_has_towers(inv) for row in rows for inv in (row.base, row.other))
    decoder = f" (text decoder {base.text_decoder:,})" if towers else ""
    lines = [heading or f"{base.source or 'base'}: {base.total:,} parameters{decoder}, embedding share "
             f"{percent(base.embedding_share, digits=6)}", ""]
    cells = [("change", "total", *(("text decoder",) if towers else ()), "delta", "delta %", "embedding share",
              "from (component deltas, largest first)")]
    for row in rows:
        cells.append((row.label, f"{row.total:,}", *((f"{row.other.text_decoder:,}",) if towers else ()),
                      signed(row.delta), signed_percent(row.delta_fraction), percent(row.embedding_share, digits=6),
                      components_text(row.components_delta)))
    lines.append(table(cells, "lrrrrrl" if towers else "lrrrrl"))
    return "\n".join(lines)


def _has_towers(inv: Inventory) -> bool:
    return inv.architecture is not None and bool(inv.architecture.towers)


_LAYER_INDEX = re.compile(r"^(.*?\.)(\d+)(\..*)$")


LISTED_LINES = 2_000
"""Beyond this many lines a section of compare --tensors says how many more it holds instead of printing them."""


def _spans(run: DiffRun) -> list[tuple[str, int, int]]:
    """(name in the first layer, first, last) for the layers a run stands for (one name per layer where the
    index is not the name's first number; first and last None outside the layers)."""
    tensor = run.new or run.old
    if run.layers is None:
        return [(tensor.name, None, None)]
    first, last = run.layers[0], run.layers[-1]
    match = _LAYER_INDEX.match(run.prefix.format(i=first) + tensor.name)
    if match and int(match.group(2)) == first:
        return [(match.group(0), first, last)]
    return [(run.prefix.format(i=i) + tensor.name, i, i) for i in run.layers]


def _lines(runs: tuple[DiffRun, ...], alike: Callable[[DiffRun], object]) -> list[tuple[str, DiffRun, int, int]]:
    """One line per run of consecutive layers whose difference is alike (``alike(run)``): (the name shown,
    "model.layers.{0-71}.mlp.up_proj.weight" for many layers, a run giving the shapes, the first layer and
    the number of layers; first None and 1 for a name with no layer index)."""
    groups: dict[tuple, list] = {}  # (before, after, alike) -> [run, first, last, layers, before, after], in order
    out: list[Any] = []
    for run in runs:
        if isinstance(run.layers, Layers):  # the layers of one kind: one line, never merged
            tensor, layers = run.new or run.old, run.layers
            start = run.prefix.format(i=layers[0])
            name = f"{start.removesuffix(f'{layers[0]}.')}{{{layers[0]}-{layers[-1]}, {layers.runs:,} runs}}."
            out.append((name + tensor.name, run, layers[0], len(layers)))
            continue
        for name, first, last in _spans(run):
            match = _LAYER_INDEX.match(name)
            if match is None:
                out.append((name, run, None, 1))
                continue
            before, index, after = match.group(1), int(match.group(2)), match.group(3)
            first, last = (index, index) if first is None else (first, last)
            group = groups.get((before, after, alike(run)))
            if group is not None and group[2] == first - 1:
                group[2], group[3] = last, group[3] + last - first + 1
                continue
            group = groups[(before, after, alike(run))] = [run, first, last, last - first + 1, before, after]
            out.append(group)
    return [line if isinstance(line, tuple) else
            (f"{line[4]}{line[1]}{line[5]}" if line[3] == 1 else f"{line[4]}{{{line[1]}-{line[2]}}}{line[5]}",
             line[0], line[1], line[3]) for line in out]


def _capped(lines: list[str], total: int) -> list[str]:
    if total <= LISTED_LINES:
        return lines
    return lines[:LISTED_LINES] + [f"  … {total - LISTED_LINES:,} more lines not shown (the first {LISTED_LINES:,})"]


def _shape_text(shape: tuple[int, ...]) -> str:
    return " × ".join(map(str, shape))


def tensor_diff_text(diff: TensorDiff) -> str:
    if not diff:
        return "tensors: identical names, shapes and aliases"
    out = []
    for title, runs, pick in (("added", diff.added_runs, lambda run: run.new),
                              ("removed", diff.removed_runs, lambda run: run.old)):
        if runs:
            count = sum(run.tensors * pick(run).count for run in runs)
            out.append(f"{title} ({sum(run.tensors for run in runs)} tensors, {count:,} parameters):")
            lines = _lines(runs, lambda run: pick(run).shape)  # noqa: B023
            out.extend(_capped([f"  {name}  {_shape_text(pick(run).shape)}  {pick(run).count:,}{_each(layers)}"
                                for name, run, _, layers in lines[:LISTED_LINES]], len(lines)))
    if diff.reshaped_runs:
        runs = diff.reshaped_runs
        moved = sum(run.tensors * (run.new.count - run.old.count) for run in runs)
        out.append(f"reshaped ({sum(run.tensors for run in runs)} tensors, {signed(moved)}):")
        lines = _lines(runs, lambda run: (run.old.shape, run.new.shape))
        out.extend(_capped([f"  {name}  {_shape_text(run.old.shape)} -> {_shape_text(run.new.shape)}  "
                            f"{signed(run.new.count - run.old.count)}{_each(layers)}"
                            for name, run, _, layers in lines[:LISTED_LINES]], len(lines)))
    for title, pairs in (("aliases added", diff.aliases_added), ("aliases removed", diff.aliases_removed)):
        if pairs:
            out.append(f"{title}:")
            out.extend(f"  {alias} -> {target}" for alias, target in pairs)
    return "\n".join(out)


def _each(layers: int) -> str:
    return f" each ({layers:,} layers)" if layers > 1 else ""


def comparison_json(row: Comparison, *, tensors: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "change": row.label,
        "settings": row.change.as_dict() if row.change else None,
        "source": row.other.source,
        "base_total": row.base.total,
        "total": row.total,
        "base_text_decoder": row.base.text_decoder,  # the total less a multimodal model's towers (= the total else)
        "text_decoder": row.other.text_decoder,
        "delta": row.delta,
        "delta_percent": float(row.delta_fraction * 100),
        "delta_fraction": str(row.delta_fraction),
        "embedding_share": float(row.embedding_share),
        "components": row.other.components,
        "components_delta": row.components_delta,
    }
    if tensors:
        out["tensors"] = _diff_json(row.tensor_diff())
    return out


def _layers_json(run: DiffRun, first: int, layers: int) -> dict[str, Any]:
    """"layers": "6-999999" (or "6"); for the layers of one kind, their last, their number and their runs."""
    if isinstance(run.layers, Layers):
        return {"layers": f"{first}-{run.layers[-1]}", "layer_count": layers, "runs": run.layers.runs}
    return {"layers": f"{first}-{first + layers - 1}" if layers > 1 else str(first)}


def _diff_json(diff: TensorDiff) -> dict[str, Any]:
    """Tensor by tensor; past LISTED_LAYERS layers (as count --json's by_layer), one entry per line of
    compare --tensors: the name of a run of layers as "model.layers.{6-999999}.mlp.up_proj.weight", its
    "layers" ("6-999999"), its count per layer; past LISTED_LAYERS entries, "omitted" says how many more."""
    from .render import LISTED_LAYERS

    def added(t: Tensor) -> dict[str, Any]:
        return {"name": t.name, "shape": list(t.shape), "count": t.count}

    def reshaped(o: Tensor, n: Tensor) -> dict[str, Any]:
        return {"name": o.name, "from": list(o.shape), "to": list(n.shape), "delta": n.count - o.count}

    out: dict[str, Any] = {}
    if diff.depth <= LISTED_LAYERS:
        out["added"] = [added(t) for t in diff.added]
        out["removed"] = [added(t) for t in diff.removed]
        out["reshaped"] = [reshaped(o, n) for o, n in diff.reshaped]
    else:
        omitted: dict[str, int] = {}
        for key, runs, entry, alike in (
                ("added", diff.added_runs, lambda run: added(run.new), lambda run: run.new.shape),
                ("removed", diff.removed_runs, lambda run: added(run.old), lambda run: run.old.shape),
                ("reshaped", diff.reshaped_runs, lambda run: reshaped(run.old, run.new),
                 lambda run: (run.old.shape, run.new.shape))):
            lines = _lines(runs, alike)
            out[key] = [{**entry(run), "name": name} if first is None else
                        {**entry(run), "name": name, **_layers_json(run, first, layers)}
                        for name, run, first, layers in lines[:LISTED_LAYERS]]
            if len(lines) > LISTED_LAYERS:
                omitted[key] = len(lines) - LISTED_LAYERS
        if omitted:
            out["omitted"] = omitted
    out["aliases_added"] = dict(diff.aliases_added)
    out["aliases_removed"] = dict(diff.aliases_removed)
    return out
