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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ._exceptions import OptionError, UnknownKeyError
from .architecture import Architecture
from .inventory import COMPONENTS, Inventory, Tensor
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
    return arch.replace(where=f"--vary {change.label}", **change.as_dict())


@dataclass(frozen=True)
class TensorDiff:
    """Tensor by tensor: what the other inventory adds, removes, reshapes, and how its
    aliases differ.  Each entry carries its counts so the diff explains the delta."""

    added: tuple[Tensor, ...] = ()
    removed: tuple[Tensor, ...] = ()
    reshaped: tuple[tuple[Tensor, Tensor], ...] = ()  # (base, other), same name
    aliases_added: tuple[tuple[str, str], ...] = ()  # (alias, target) only in the other
    aliases_removed: tuple[tuple[str, str], ...] = ()  # (alias, target) only in the base

    @property
    def delta(self) -> int:
        """Equals Comparison.delta: a check that the diff explains the whole change."""
        return (sum(t.count for t in self.added) - sum(t.count for t in self.removed)
                + sum(new.count - old.count for old, new in self.reshaped))

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.reshaped or self.aliases_added or self.aliases_removed)


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
        old = {t.name: t for t in self.base.tensors}
        new = {t.name: t for t in self.other.tensors}
        old_aliases = set(self.base.aliases.items())
        new_aliases = set(self.other.aliases.items())
        return TensorDiff(
            added=tuple(t for name, t in new.items() if name not in old),
            removed=tuple(t for name, t in old.items() if name not in new),
            reshaped=tuple((old[name], t) for name, t in new.items() if name in old and old[name].shape != t.shape),
            aliases_added=tuple(sorted(new_aliases - old_aliases)),
            aliases_removed=tuple(sorted(old_aliases - new_aliases)),
        )


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
    lines = [heading or f"{base.source or 'base'}: {base.total:,} parameters, embedding share "
             f"{percent(base.embedding_share, digits=6)}", ""]
    cells = [("change", "total", "delta", "delta %", "embedding share", "from (component deltas, largest first)")]
    for row in rows:
        cells.append((row.label, f"{row.total:,}", signed(row.delta), signed_percent(row.delta_fraction),
                      percent(row.embedding_share, digits=6), components_text(row.components_delta)))
    lines.append(table(cells, "lrrrrl"))
    return "\n".join(lines)


_LAYER_INDEX = re.compile(r"^(.*?\.)(\d+)(\..*)$")


def _layer_runs(entries: list[tuple[str, Any, Any]]) -> list[tuple[str, Any, str]]:
    """(name, entry, what must be alike) -> one line per run of consecutive layers whose entry is alike:
    "model.layers.{0-71}.mlp.up_proj.weight" with ", each (72 layers)"; other names as they are."""
    runs: dict[tuple, list] = {}  # (before, after, alike) -> [entry, first, last, layers], in order
    out: list[Any] = []
    for name, entry, alike in entries:
        match = _LAYER_INDEX.match(name)
        if match is None:
            out.append((name, entry, ""))
            continue
        before, index, after = match.group(1), int(match.group(2)), match.group(3)
        run = runs.get((before, after, alike))
        if run is not None and run[2] == index - 1:
            run[2], run[3] = index, run[3] + 1
            continue
        run = runs[(before, after, alike)] = [entry, index, index, 1, before, after]
        out.append(run)
    return [line if isinstance(line, tuple) else
            (f"{line[4]}{line[1]}{line[5]}", line[0], "") if line[3] == 1 else
            (f"{line[4]}{{{line[1]}-{line[2]}}}{line[5]}", line[0], f" each ({line[3]:,} layers)") for line in out]


def tensor_diff_text(diff: TensorDiff) -> str:
    if not diff:
        return "tensors: identical names, shapes and aliases"
    out = []
    for title, tensors in (("added", diff.added), ("removed", diff.removed)):
        if tensors:
            out.append(f"{title} ({len(tensors)} tensors, {sum(t.count for t in tensors):,} parameters):")
            out.extend(f"  {name}  {' × '.join(map(str, t.shape))}  {t.count:,}{each}"
                       for name, t, each in _layer_runs([(t.name, t, t.shape) for t in tensors]))
    if diff.reshaped:
        moved = sum(new.count - old.count for old, new in diff.reshaped)
        out.append(f"reshaped ({len(diff.reshaped)} tensors, {signed(moved)}):")
        out.extend(f"  {name}  {' × '.join(map(str, o.shape))} -> {' × '.join(map(str, n.shape))}  "
                   f"{signed(n.count - o.count)}{each}"
                   for name, (o, n), each in _layer_runs([(o.name, (o, n), (o.shape, n.shape))
                                                          for o, n in diff.reshaped]))
    for title, pairs in (("aliases added", diff.aliases_added), ("aliases removed", diff.aliases_removed)):
        if pairs:
            out.append(f"{title}:")
            out.extend(f"  {alias} -> {target}" for alias, target in pairs)
    return "\n".join(out)


def comparison_json(row: Comparison, *, tensors: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "change": row.label,
        "settings": row.change.as_dict() if row.change else None,
        "source": row.other.source,
        "base_total": row.base.total,
        "total": row.total,
        "delta": row.delta,
        "delta_percent": float(row.delta_fraction * 100),
        "delta_fraction": str(row.delta_fraction),
        "embedding_share": float(row.embedding_share),
        "components": row.other.components,
        "components_delta": row.components_delta,
    }
    if tensors:
        diff = row.tensor_diff()
        out["tensors"] = {
            "added": [{"name": t.name, "shape": list(t.shape), "count": t.count} for t in diff.added],
            "removed": [{"name": t.name, "shape": list(t.shape), "count": t.count} for t in diff.removed],
            "reshaped": [{"name": o.name, "from": list(o.shape), "to": list(n.shape), "delta": n.count - o.count}
                         for o, n in diff.reshaped],
            "aliases_added": dict(diff.aliases_added),
            "aliases_removed": dict(diff.aliases_removed),
        }
    return out
