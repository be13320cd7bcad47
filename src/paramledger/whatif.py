"""What-if and comparisons: two inventories and what separates them.

Seed 000 changes depth, width, vocabulary and tying one at a time and explains each
result by the part that changed.  A :class:`Comparison` holds the two inventories and
returns the same explanation for any pair: the new total, the change against the base
(exact; the percentage is a Fraction turned into digits only at the edge), the embedding
share after, and the per-component deltas, largest first.  Nothing is added up here: every
figure is read from the two tensor lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ._exceptions import OptionError, UnknownKeyError
from .architecture import Architecture
from .inventory import COMPONENTS, Inventory, Layers, Tensor
from .limits import number_text
from .tensor_diff import DiffRun, TensorDiff, tensor_diff


@dataclass(frozen=True, slots=True)
class Change:
    """One --vary: keys set together (``hidden_size=128,intermediate_size=512``)."""

    settings: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        return ",".join(f"{key}={value}" for key, value in self.settings)

    def as_dict(self) -> dict[str, str]:
        return dict(self.settings)


def parse_change(text: str, option: str = "--vary", arch: Architecture | None = None) -> Change:
    """``KEY=VALUE[,KEY=VALUE...]``.  A comma-separated item without ``=`` continues the
    previous value, so list-valued keys read naturally (``mlp_only_layers=0,1``).  A key is a field, or
    with ``arch`` a key of its family's config (sources.override_keys: GPT-2's n_layer, BART's encoder_layers)."""
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
    if arch is None:
        known = Architecture.field_names()
    else:
        from .sources import override_keys

        known = override_keys(arch)
    seen: set[str] = set()
    for key, _ in pairs:
        if key not in known:
            from .families import key_synonyms

            raise UnknownKeyError(key, known, option, key_synonyms())
        if key in seen:
            raise OptionError(option, f"{key} is set twice in {text!r}")
        seen.add(key)
    return Change(tuple((key, value) for key, value in pairs))


def apply_change(arch: Architecture, change: Change) -> Architecture:
    """The architecture with ``change`` applied, validated like a spec file (a per-layer
    pattern follows a new depth: Architecture.replace)."""
    from .sources import with_overrides

    return with_overrides(arch, change.as_dict(), f"--vary {change.label}")  # the bounds --set holds to, first


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
        return tensor_diff(self.base, self.other)


def what_if(source: Architecture | str | Mapping[str, Any], changes: Iterable[Change | str]) -> list[Comparison]:
    """One Comparison per change, each against the unchanged ``source``."""
    from . import inventory, load

    arch = load(source)
    base = inventory(arch)
    out = []
    for change in changes:
        change = parse_change(change, arch=arch) if isinstance(change, str) else change
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
    towers = any(inv.has_towers for row in rows for inv in (row.base, row.other))
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
