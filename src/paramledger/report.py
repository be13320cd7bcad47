"""Views of an inventory for people who would rather look than read: seed 001's
calculator table, a treemap of where the parameters go, and a self-contained HTML report.

The calculator page (server.py) and the report share these views, so both show the
same rows.  Every count below is a sum over the inventory's tensor list; nothing is
recounted from the architecture.  The report's bytes (weights at a few dtypes, the KV
cache, a linear-attention state) are memory.py's reports, shown as they come.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ._files import output_file
from .inventory import COMPONENTS, Inventory, Tensor
from .render import heading, inventory_json, percent
from .report_memory import REPORT_DTYPES, memory_section, table_cells  # noqa: F401 (REPORT_DTYPES: the report's rows)

# ---------------------------------------------------------------- seed 001's table

# Seed 001's row labels ("attention (4 matrices of d×d)", "MLP (2 matrices of d×f)",
# "norm scales", "one block", ...), extended to the components a block may hold.
_BLOCK_LABELS = {
    "attention": "attention",
    "mixer": "token mixer (recurrent)",
    "ffn": "MLP",
    "router": "router",
    "experts": "routed experts",
    "shared_experts": "shared experts",
    "norm": "norm scales",
}
_ALWAYS_SHOWN = ("attention", "norm")  # seed 001 shows "norm scales 0" too


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the calculator table; ``key`` is stable (the page and tests use it)."""

    key: str
    label: str
    detail: str
    count: int


def _module(tensor: Tensor) -> tuple[str, str]:
    """(module path, parameter kind): "model.layers.0.self_attn.q_proj", "weight"."""
    path, _, kind = tensor.name.rpartition(".")
    return (path, kind) if kind in ("weight", "bias") else (tensor.name, "")


def _shape(shape: tuple[int, ...]) -> str:
    return " × ".join(str(s) for s in shape)


def _describe(tensors: list[Tensor]) -> str:
    """"q_proj 4 × 4, k_proj 4 × 4 + bias": one entry per module, its weight's shape."""
    modules: dict[str, list[Tensor]] = {}
    for t in tensors:
        modules.setdefault(_module(t)[0], []).append(t)
    parts = []
    for path, members in modules.items():
        short = path.rsplit(".", 1)[-1]
        main = next((t for t in members if _module(t)[1] != "bias"), members[0])
        extra = " + bias" if any(_module(t)[1] == "bias" for t in members) else ""
        parts.append(f"{short} {_shape(main.shape)}{extra}")
    return ", ".join(parts)


def _by_layer(inv: Inventory) -> dict[int | None, list[Tensor]]:
    """Layer -> its tensors, in one pass (select() per layer would be quadratic)."""
    out: dict[int | None, list[Tensor]] = {}
    for t in inv.tensors:
        out.setdefault(t.layer, []).append(t)
    return out


def _signature(tensors: list[Tensor]) -> tuple[tuple[str, int], ...]:
    """A block's count per component: equal signatures, equal blocks in the table."""
    sums: dict[str, int] = {}
    for t in tensors:
        sums[t.component] = sums.get(t.component, 0) + t.count
    return tuple(sorted(sums.items()))


def _block_kinds(inv: Inventory, layers: list[int], signatures: dict[int, tuple]) -> str:
    """"layers 0–2: 3 × 583,483,392; layers 3–60: 58 × 11,507,073,024": runs of equal blocks."""
    runs: list[list[int]] = []
    for i in layers:
        if runs and signatures[runs[-1][-1]] == signatures[i] and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    parts = [f"layer{'s' if len(r) > 1 else ''} {r[0]}{f'–{r[-1]}' if len(r) > 1 else ''}: "
             f"{len(r)} × {inv.by_layer[r[0]]:,}" for r in runs]
    return "; ".join(parts) if len(parts) <= 6 else f"{len(parts)} runs of different blocks; the sum over every layer"


def calculator_rows(inv: Inventory) -> list[Row]:
    """Seed 001's table: the parts of one block, one block, all blocks, then the
    tensors outside the blocks, the output head and the total.

    The rows partition the inventory: ``blocks`` plus every row after it (but the total)
    adds up to ``total``."""
    tensors = _by_layer(inv)
    layers = sorted(k for k in tensors if k is not None)
    rows: list[Row] = []
    if layers:
        first = layers[0]
        in_first = tensors[first]
        signatures = {i: _signature(tensors[i]) for i in layers}
        uniform = len(set(signatures.values())) == 1
        routed = any(t.component == "experts" for t in in_first)
        for component, label in _BLOCK_LABELS.items():
            members = [t for t in in_first if t.component == component]
            if members or component in _ALWAYS_SHOWN or (component == "ffn" and not routed):
                rows.append(Row(component, label, _describe(members), sum(t.count for t in members)))
        rows.append(Row("block", "one block" if uniform else f"block {first} (blocks differ)",
                        f"layer {first}", inv.by_layer[first]))
        n = len(layers)
        rows.append(Row("blocks", f"{n} block" + ("s" if n != 1 else ""),
                        f"{n} × one block" if uniform else _block_kinds(inv, layers, signatures),
                        sum(inv.by_layer[i] for i in layers)))
    outside = tensors.get(None, [])
    embedding = [t for t in outside if t.component == "embedding"]
    shared = "shared with the output layer" if inv.tied else "input side only"
    rows.append(Row("embedding", f"embedding table ({shared})", _describe(embedding),
                    sum(t.count for t in embedding)))
    labels = {"positions": "learned position table", "norm": "final norm"}
    order = {name: i for i, name in enumerate(COMPONENTS)}
    for component in sorted({t.component for t in outside} - {"embedding", "lm_head"}, key=order.get):
        members = [t for t in outside if t.component == component]
        rows.append(Row(component if component != "norm" else "final_norm", labels.get(component, component),
                        _describe(members), sum(t.count for t in members)))
    head = [t for t in outside if t.component == "lm_head"]
    if inv.tied:
        pairs = ", ".join(f"{alias} → {target}" for alias, target in inv.aliases.items())
        detail = f"tied ({pairs}), counted once" + (f"; {_describe(head)}" if head else "")
    else:
        detail = _describe(head)
    rows.append(Row("lm_head", "output head", detail, sum(t.count for t in head)))
    rows.append(Row("total", "total", f"{len(inv.tensors):,} unique tensors", inv.total))
    return rows


def component_rows(inv: Inventory) -> list[tuple[str, int, str]]:
    """(component, count, share of the total as text), in COMPONENTS order."""
    return [(name, count, percent(count, inv.total)) for name, count in inv.components.items()]


def summary(inv: Inventory) -> str:
    return heading(inv)


# ---------------------------------------------------------------- the treemap

# One colour per component (colour-blind-safe Okabe-Ito hues).
COLOURS = {
    "embedding": "#0072B2",
    "positions": "#56B4E9",
    "attention": "#E69F00",
    "mixer": "#F0E442",
    "ffn": "#009E73",
    "router": "#CC79A7",
    "experts": "#009E73",
    "shared_experts": "#66C2A5",
    "norm": "#999999",
    "lm_head": "#D55E00",
}


@dataclass(frozen=True, slots=True)
class Leaf:
    label: str
    component: str
    count: int
    tensors: tuple[str, ...]


def treemap_groups(inv: Inventory) -> list[tuple[str, list[Leaf]]]:
    """Where the parameters go, two levels deep: a group for the tensors outside the
    blocks and one per block; inside a block one leaf per attention projection (q, k, v,
    o, ...), one for the FFN (or experts) and one for its norms."""
    groups: list[tuple[str, list[Leaf]]] = []
    outside: list[Leaf] = []
    for t in inv.select(layer=None):
        label = {"embedding": "embedding", "positions": "positions", "norm": "final norm",
                 "lm_head": "output head"}.get(t.component, t.component)
        if t.component == "embedding" and inv.tied:
            label = "embedding (= output head)"
        outside.append(Leaf(label, t.component, t.count, (t.name,)))
    groups.append(("outside the blocks", outside))
    tensors = _by_layer(inv)
    for layer in sorted(k for k in tensors if k is not None):
        leaves: dict[tuple[str, str], list[Tensor]] = {}
        for t in tensors[layer]:
            if t.component == "attention":  # q_proj -> q: the boxes are small
                key = (t.component, _module(t)[0].rsplit(".", 1)[-1].removesuffix("_proj"))
            else:
                key = (t.component, {"ffn": "FFN", "norm": "norms"}.get(t.component, t.component))
            leaves.setdefault(key, []).append(t)
        groups.append((f"block {layer}", [
            Leaf(label, component, sum(t.count for t in members), tuple(t.name for t in members))
            for (component, label), members in leaves.items()
        ]))
    return groups


def squarify(values: list[int], x: float, y: float, w: float, h: float) -> list[tuple[float, float, float, float]]:
    """Rectangles with areas proportional to ``values`` (positive, in the given order),
    kept as square as the squarified algorithm gets them (Bruls, Huizing and van Wijk,
    "Squarified Treemaps", 2000).  Floats: this is drawing, not counting."""
    total = sum(values)
    out: list[tuple[float, float, float, float]] = [(x, y, 0.0, 0.0)] * len(values)  # zeros: no area
    if total <= 0 or w <= 0 or h <= 0:
        return out
    positive = [i for i, v in enumerate(values) if v > 0]
    areas = [values[i] * w * h / total for i in positive]
    placed: list[tuple[float, float, float, float]] = []

    def worst(row: list[float], side: float) -> float:
        s = sum(row)
        return max(max(row) * side * side / (s * s), s * s / (side * side * min(row)))

    def place(row: list[float], x: float, y: float, w: float, h: float,
              last: bool = False) -> tuple[float, float, float, float]:
        # Lengths along the side are shares of the side, and the last row takes what is left:
        # dividing a tiny area by a tiny remainder overshoots the box (a 1 beside 3.9e10).
        s = sum(row)
        if w >= h:  # a column along the left edge
            width = w if last else min(s / h, w)
            cy = y
            for a in row:
                placed.append((x, cy, width, a / s * h))
                cy += a / s * h
            return x + width, y, w - width, h
        height = h if last else min(s / w, h)  # a row along the top edge
        cx = x
        for a in row:
            placed.append((cx, y, a / s * w, height))
            cx += a / s * w
        return x, y + height, w, h - height

    row: list[float] = []
    i = 0
    while i < len(areas):
        side = min(w, h)
        if not row or worst(row + [areas[i]], side) <= worst(row, side):
            row.append(areas[i])
            i += 1
        else:
            x, y, w, h = place(row, x, y, w, h)
            row = []
    if row:
        place(row, x, y, w, h, last=True)
    for index, rect in zip(positive, placed):
        out[index] = rect
    return out


def _rect(x: float, y: float, w: float, h: float, fill: str, title: str, label: str | None) -> str:
    parts = [f'<g><title>{html.escape(title)}</title>',
             f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" '
             'stroke="#fff" stroke-width="0.5"/>']
    room = 6.5 * len(label or "") + 6  # 11px sans: about 6.5px a character
    if label and w > room and h > 16:
        parts.append(f'<text x="{x + 4:.2f}" y="{y + 13:.2f}">{html.escape(label)}</text>')
    elif label and h > room and h > w > 16:  # a tall, narrow box: write upwards
        parts.append(f'<text transform="translate({x + 13:.2f} {y + h - 4:.2f}) rotate(-90)">'
                     f'{html.escape(label)}</text>')
    parts.append("</g>")
    return "".join(parts)


def treemap_svg(inv: Inventory, width: int = 960, height: int = 540) -> str:
    """The treemap as one inline SVG element (no script, no external reference)."""
    groups = [(name, [leaf for leaf in leaves if leaf.count > 0]) for name, leaves in treemap_groups(inv)]
    groups = [(name, leaves) for name, leaves in groups if leaves]
    total = inv.total
    # The outside tensors are laid out as leaves beside one box holding every block.
    outside = next((leaves for name, leaves in groups if name == "outside the blocks"), [])
    blocks = [(name, leaves) for name, leaves in groups if name != "outside the blocks"]
    top_values = [leaf.count for leaf in outside]
    block_total = sum(leaf.count for _, leaves in blocks for leaf in leaves)
    if block_total:
        top_values.append(block_total)
    top = squarify(top_values, 0, 0, width, height)
    body: list[str] = []
    for leaf, (x, y, w, h) in zip(outside, top):
        title = f"{leaf.label}: {leaf.count:,} ({percent(leaf.count, total)}) — {', '.join(leaf.tensors)}"
        body.append(_rect(x, y, w, h, COLOURS.get(leaf.component, "#777"), title,
                          f"{leaf.label} {percent(leaf.count, total)}"))
    if block_total:
        bx, by, bw, bh = top[-1]
        block_rects = squarify([sum(leaf.count for leaf in leaves) for _, leaves in blocks], bx, by, bw, bh)
        for (name, leaves), (x, y, w, h) in zip(blocks, block_rects):
            count = sum(leaf.count for leaf in leaves)
            body.append(f'<g class="block"><title>{html.escape(name)}: {count:,} '
                        f'({html.escape(percent(count, total))})</title>')
            pad = 2.0 if w > 12 and h > 12 else 0.0
            inner = squarify([leaf.count for leaf in leaves], x + pad, y + pad, w - 2 * pad, h - 2 * pad)
            largest = max(leaves, key=lambda leaf: leaf.count)
            for leaf, (lx, ly, lw, lh) in zip(leaves, inner):
                title = (f"{name}, {leaf.label}: {leaf.count:,} ({percent(leaf.count, total)}) — "
                         + ", ".join(leaf.tensors))
                label = f"{name}: {leaf.label}" if leaf is largest else leaf.label
                body.append(_rect(lx, ly, lw, lh, COLOURS.get(leaf.component, "#777"), title, label))
            body.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="none" '
                        'stroke="#333" stroke-width="1"/></g>')
    # No xmlns: inline SVG in HTML needs none, and the report holds no URL at all.
    return (f'<svg class="treemap" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" '
            f'aria-label="treemap of the {total:,} parameters">' + "".join(body) + "</svg>")


# ---------------------------------------------------------------- the standalone report

_CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1000px;
padding:0 1rem;color:#1b1b1b}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
.summary{color:#555;margin-top:0}.big{font-size:1.25rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .6rem;border-bottom:1px solid #eee;
text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.total td,tr.blocks td{font-weight:600;border-top:1px solid #999}td.detail{color:#666;font-size:.85em}
.manifest td{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8em}td.list{font-size:.85em;overflow-wrap:anywhere}th.wrap{white-space:normal}
svg.treemap{max-width:100%;height:auto;font:11px system-ui,sans-serif}svg.treemap text{fill:#fff;pointer-events:none}
.legend span{display:inline-block;margin-right:1rem}.legend i{display:inline-block;width:.9em;height:.9em;
margin-right:.3em;vertical-align:-.1em}footer{margin-top:3rem;color:#777;font-size:.85em}
"""


def report_html(inv: Inventory, *, context: int | None = None, kv_dtype: str | None = None) -> str:
    """The whole report as one HTML document: inline CSS, inline SVG, no script to run
    and no URL, so it opens offline and from an e-mail attachment alike.  ``context`` and
    ``kv_dtype`` size the memory section's KV cache (memory_rows)."""
    from . import __version__

    total = inv.total
    title = inv.source or "design"
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width,initial-scale=1">',
           f"<title>paramledger report: {html.escape(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>Parameter inventory: {html.escape(title)}</h1>",
           f'<p class="summary">{html.escape(summary(inv))}</p>',
           f'<p class="big">total <strong id="total">{total:,}</strong> parameters in '
           f"{len(inv.tensors):,} unique tensors; embedding share "
           f"{html.escape(percent(inv.embedding_share, digits=6))}; output head "
           f"{'tied to the token table (counted once)' if inv.tied else 'untied (its own table)'}</p>"]
    out.append("<h2>Where the parameters go</h2>")
    out.append(treemap_svg(inv))
    present = [c for c in COLOURS if c in inv.components]
    out.append('<p class="legend">' + "".join(
        f'<span><i style="background:{COLOURS[c]}"></i>{html.escape(c)}</span>' for c in present) + "</p>")
    out.append("<h2>The calculator's table (seed 001)</h2>")
    out.append('<table class="rows"><tr><th>part</th><th class="n">parameters</th><th>tensors</th></tr>')
    for row in calculator_rows(inv):
        out.append(f'<tr class="{row.key}" data-key="{row.key}">'
                   + table_cells(("", row.label), ("n", f"{row.count:,}"), ("detail", row.detail)) + "</tr>")
    out.append("</table>")
    out.append("<h2>Components</h2>")
    out.append('<table class="components"><tr><th>component</th><th class="n">parameters</th>'
               '<th class="n">share</th></tr>')
    for name, count, share in component_rows(inv):
        out.append(f'<tr data-key="{name}">' + table_cells(("", name), ("n", f"{count:,}"), ("n", share)) + "</tr>")
    out.append('<tr class="total">' + table_cells(("", "total"), ("n", f"{total:,}"), ("n", "100.00 %")) + "</tr>")
    out.append("</table><table>")
    data = inventory_json(inv, manifest=True)
    for name, definition in data["non_embedding_definitions"].items():
        out.append("<tr>" + table_cells(("", f"non-embedding ({name})"), ("n", f"{data['non_embedding'][name]:,}"),
                                   ("detail", definition)) + "</tr>")
    if inv.frozen:
        out.append("<tr>" + table_cells(("", "frozen (still counted)"), ("n", f"{inv.frozen:,}"), ("", "")) + "</tr>")
    out.append("</table>")
    out += memory_section(inv, context, kv_dtype)
    if inv.architecture is not None:
        out.append("<h2>Architecture (declared keys)</h2><table class=\"architecture\">")
        for key, value in inv.architecture.to_mapping().items():
            # a per-layer list wraps in its cell (a number's cell never wraps: the table would leave the page)
            cell = ("list", ", ".join(map(str, value))) if isinstance(value, list) else ("n", str(value))
            out.append("<tr>" + table_cells(("", key), cell) + "</tr>")
        out.append("</table>")
    out.append(f"<h2>Manifest: every tensor ({len(inv.tensors):,})</h2>")
    out.append('<table class="manifest"><tr><th>tensor</th><th class="n">shape</th><th class="n">parameters</th>'
               "<th>component</th><th>layer</th></tr>")
    for t in inv.tensors:
        mark = " (frozen)" if t.frozen else ""
        out.append("<tr>" + table_cells(("", t.name + mark), ("n", _shape(t.shape)), ("n", f"{t.count:,}"),
                                   ("", t.component), ("", "" if t.layer is None else str(t.layer))) + "</tr>")
    out.append("</table>")
    if inv.aliases:
        out.append("<p>Aliases (counted once, with the tensor they share):</p><ul>")
        out.extend(f"<li><code>{html.escape(a)}</code> → <code>{html.escape(t)}</code></li>"
                   for a, t in inv.aliases.items())
        out.append("</ul>")
    if inv.notes:
        out.append("<h2>Notes</h2><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in inv.notes) + "</ul>")
    # The same JSON as `paramledger count --json --manifest`, for a reader that wants data;
    # "</" is escaped so no tensor name can close the element.
    payload = json.dumps(data, indent=1).replace("</", "<\\/")
    out.append(f'<script type="application/json" id="inventory-json">{payload}</script>')
    out.append(f"<footer>paramledger {html.escape(__version__)}: every unique learned tensor counted once. "
               "This file is self-contained and needs no network.</footer></body></html>")
    return "\n".join(out) + "\n"


def write_report(inv: Inventory, path: str | os.PathLike[str], *, context: int | None = None,
                 kv_dtype: str | None = None) -> Path:
    """Write the report to ``path`` all at once (``_files.output_file``: a failure never leaves
    half a report; ``-o /dev/stdout`` writes it in place).  A bad ``context`` or ``kv_dtype``
    raises before anything is written."""
    target = Path(path)
    text = report_html(inv, context=context, kv_dtype=kv_dtype)
    with output_file(target, "--output", example="report.html") as handle:
        handle.write(text)
    return target
