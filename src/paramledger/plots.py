"""Plots of comparisons and sweeps (matplotlib, imported lazily, Agg backend: no display).

- component_bars: one stacked bar per design, by component (whatif, compare);
- sweep_plot: the total against the first swept key (depth, width, ...), one line per
  value of the other keys; against vocab_size also the embedding share, with the 50 %
  line and each line's break-even vocabulary (the smallest V whose table outweighs the
  rest, from analysis.break_even_vocab_size) marked.

Counts are labelled in millions (10^6, a decimal prefix), never with a binary prefix.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ._exceptions import OptionError
from ._files import output_file
from .inventory import COMPONENTS
from .palette import color

FORMATS = (".png", ".svg")
MAX_SERIES = 8


def check_plot_path(path: str) -> Path:
    """Refuse a plot file matplotlib would not write (before any work is done)."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise OptionError("--plot", f"{path!r}: the file must end in {' or '.join(FORMATS)}")
    if not target.parent.is_dir():
        raise OptionError("--plot", f"{path!r}: no such folder {str(target.parent)!r}")
    return target


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _at_a_glance(value: float, _position: Any = None) -> str:
    """An axis tick as a count reads at a glance: 700 B, 1.5 M, 0 (decimal prefixes, never binary)."""
    for scale, unit in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.4g} {unit}"
    return f"{value:.4g}"


def _save(fig: Any, path: str) -> None:
    target = check_plot_path(path)
    kind = target.suffix.lower()
    try:
        with output_file(target, "--plot", binary=True) as handle:
            fig.savefig(handle, format=kind[1:], dpi=120, bbox_inches="tight",
                        metadata={"Software": "paramledger"} if kind == ".png" else None)
    finally:
        _pyplot().close(fig)
    print(f"paramledger: wrote {target}", file=sys.stderr)  # stdout stays the table or the JSON


def component_bars(rows: Sequence[Any], path: str) -> None:
    """Stacked bars by component: the base, then each compared design (Comparison rows)."""
    import textwrap

    from matplotlib.ticker import FuncFormatter

    plt = _pyplot()
    inventories = [rows[0].base] + [row.other for row in rows]
    labels = [f"base\n{rows[0].base.source or ''}"] + [row.label for row in rows]
    labels = ["\n".join(line for part in label.split(",") for line in textwrap.wrap(part, 24, break_long_words=False))
              for label in labels]
    present = [name for name in COMPONENTS if any(inv.component(name) for inv in inventories)]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(inventories) + 2), 5.2))
    positions = range(len(inventories))
    bottoms = [0] * len(inventories)
    for name in present:
        heights = [inv.component(name) for inv in inventories]
        ax.bar(positions, heights, bottom=bottoms, color=color(name), label=name, width=0.62,
               edgecolor="white", linewidth=0.5)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    base_total = inventories[0].total
    for i, inv in enumerate(inventories):
        text = f"{inv.total:,}"
        if i:
            change = (inv.total - base_total) / base_total * 100 if base_total else 0.0
            text += f"\n({change:+.2f} %)".replace("-", "\u2212")
        ax.text(i, inv.total, text, ha="center", va="bottom", fontsize=8)
    ax.set_xticks(list(positions), labels, fontsize=8)
    ax.set_ylabel("parameters")
    ax.yaxis.set_major_formatter(FuncFormatter(_at_a_glance))
    ax.set_ylim(0, max(inv.total for inv in inventories) * 1.18)
    ax.set_title("parameters by component (each shared tensor counted once)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    _save(fig, path)


def _series(plan: Any, columns: Mapping[str, Any]) -> list[tuple[str, dict[str, int], Any]]:
    """(label, the other axes' values, mask) per line: every combination of the axes after
    the first, at most MAX_SERIES of them, evenly picked."""
    import numpy as np

    others = [axis.key for axis in plan.axes[1:]]
    if not others:
        return [("", {}, np.ones(len(columns["total"]), dtype=bool))]
    stacked = np.stack([columns[key] for key in others], axis=1)
    combos = np.unique(stacked, axis=0)
    if len(combos) > MAX_SERIES:
        combos = combos[np.linspace(0, len(combos) - 1, MAX_SERIES).round().astype(int)]
    out = []
    for combo in combos:
        values = {key: int(v) for key, v in zip(others, combo)}
        mask = np.all(stacked == combo, axis=1)
        out.append((", ".join(f"{k}={v:,}" for k, v in values.items()), values, mask))
    return out


def sweep_plot(plan: Any, columns: Mapping[str, Any], path: str) -> None:
    """The total against the first axis; against vocab_size also the embedding share with
    the break-even vocabulary marked."""
    from matplotlib.ticker import FuncFormatter, PercentFormatter

    from .analysis import break_even_vocab_size

    plt = _pyplot()
    key = plan.axes[0].key
    if not len(columns["total"]):
        raise OptionError("--plot", "no points to plot (--where kept none)")
    vocab = key == "vocab_size"
    fig, axes = plt.subplots(1, 2 if vocab else 1, figsize=(12 if vocab else 7, 4.8), squeeze=False)
    total_ax = axes[0][0]
    series = _series(plan, columns)
    for label, values, mask in series:
        x = columns[key][mask]
        total_ax.plot(x, columns["total"][mask], marker="." if len(x) <= 60 else None, label=label or None)
        if vocab:
            share_ax = axes[0][1]
            be = break_even_vocab_size(plan.architecture.replace(**values)) if values else \
                break_even_vocab_size(plan.architecture)
            shown = be is not None and x.min() <= be <= x.max()
            text = f"break-even V = {be:,}" if be is not None else "no break-even (untied)"
            line, = share_ax.plot(x, columns["embedding_share"][mask] * 100,
                                  label=f"{label}: {text}" if label else text)
            if shown:
                share_ax.axvline(be, color=line.get_color(), linestyle=":", linewidth=1)
                share_ax.plot([be], [50], marker="o", color=line.get_color(), markersize=4)
    total_ax.set_xlabel(key)
    total_ax.set_ylabel("parameters")
    total_ax.yaxis.set_major_formatter(FuncFormatter(_at_a_glance))
    total_ax.set_title(f"total against {key} ({plan.architecture.source})", fontsize=10)
    total_ax.grid(alpha=0.3)
    if len(series) > 1:
        total_ax.legend(fontsize=8, frameon=False)
    if vocab:
        share_ax = axes[0][1]
        share_ax.axhline(50, color="#999999", linewidth=0.8, linestyle="--")
        share_ax.set_xlabel("vocab_size")
        share_ax.set_ylabel("embedding share (token table / total)")
        share_ax.yaxis.set_major_formatter(PercentFormatter())
        share_ax.set_title("embedding share; dotted: break-even (table > everything else)", fontsize=10)
        share_ax.grid(alpha=0.3)
        share_ax.legend(fontsize=8, frameon=False, loc="lower right")
    for ax in axes[0]:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _position: f"{value:,.0f}"))
        ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    _save(fig, path)
