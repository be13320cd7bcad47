"""Views of an inventory for people who would rather look than read: seed 001's
calculator table, a treemap of where the parameters go, and a self-contained HTML report.

The calculator page (server.py) and the report share these views, so both show the
same rows.  Every count below is a sum over the inventory's tensor list; nothing is
recounted from the architecture.  The report's bytes (weights at a few dtypes, the KV
cache, a linear-attention state) are memory.py's reports, shown as they come.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path

from ._files import output_file
from ._json import indented
from .inventory import COMPONENTS, Inventory, Layers, StampedTensors, Tensor
from .palette import color
from .render import (GROUPED_MANIFEST, LISTED_LAYERS, beside_decoder, heading, human, inventory_json, layers_text,
                     manifest_grouped, manifest_rows, percent, text_only_said)
from .report_memory import REPORT_DTYPES, memory_section, table_cells  # noqa: F401 (REPORT_DTYPES: the report's rows)
from .treemap import LISTED_RUNS as TREEMAP_RUNS
from .treemap import Group, Leaf, layer_view, squarify, treemap_groups, treemap_svg  # noqa: F401 (the report's treemap)

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


def _signature(tensors: list[Tensor]) -> tuple[tuple[str, int], ...]:
    """A block's count per component: equal signatures, equal blocks in the table."""
    sums: dict[str, int] = {}
    for t in tensors:
        sums[t.component] = sums.get(t.component, 0) + t.count
    return tuple(sorted(sums.items()))


def _block_kinds(runs: list[tuple[range, tuple, int]]) -> str:
    """"layers 0–2: 3 × 583,483,392; layers 3–60: 58 × 11,507,073,024": runs of equal blocks."""
    if len(runs) > 6:
        return f"{len(runs)} runs of different blocks; the sum over every layer"
    return "; ".join(f"layer{'s' if len(r) > 1 else ''} {r[0]}{f'–{r[-1]}' if len(r) > 1 else ''}"
                     f"{f' in {r.runs:,} runs' if isinstance(r, Layers) else ''}: "
                     f"{len(r)} × {count:,}" for r, _, count in runs)


def calculator_rows(inv: Inventory) -> list[Row]:
    """Seed 001's table: the parts of one block, one block, all blocks, then the
    tensors outside the blocks, the output head and the total.

    The rows partition the inventory: ``blocks`` plus every row after it (but the total)
    adds up to ``total``.  Read per run of identical layers (treemap.layer_view), never per layer."""
    if isinstance(inv.tensors, StampedTensors):  # every run, however many: a signature per kind of block
        if inv.tensors.run_count() > TREEMAP_RUNS:  # kinds alternate: each kind once, its layers (as the treemap)
            (before, after), layered = inv.tensors.outside(), inv.tensors.layer_kinds()
        else:
            before, layered, after = inv.tensors.layer_runs()
        layered, outside = [(layers, block) for layers, block in layered if block], [*before, *after]
    else:
        view = layer_view(inv)
        layered = sorted((item for item in view if not isinstance(item, Tensor)), key=lambda item: item[0][0])
        outside = [item for item in view if isinstance(item, Tensor)]
    rows: list[Row] = []
    if layered:
        first, in_first = layered[0][0][0], layered[0][1]
        runs: list[tuple[range, tuple, int]] = []  # (layers, signature, one block's count): consecutive equal blocks
        kinds: dict[int, tuple[tuple, int]] = {}  # each kind of block once: its signature and count
        for layers, tensors in layered:
            if id(tensors) not in kinds:
                kinds[id(tensors)] = (_signature(tensors), sum(t.count for t in tensors))
            signature, count = kinds[id(tensors)]
            if runs and runs[-1][1] == signature and runs[-1][0][-1] == layers[0] - 1 and type(layers) is range:
                runs[-1] = (range(runs[-1][0][0], layers[-1] + 1), signature, runs[-1][2])
            else:
                runs.append((layers, signature, count))
        uniform = len({signature for _, signature, _ in runs}) == 1
        routed = any(t.component == "experts" for t in in_first)
        for component, label in _BLOCK_LABELS.items():
            members = [t for t in in_first if t.component == component]
            if members or component in _ALWAYS_SHOWN or (component == "ffn" and not routed):
                rows.append(Row(component, label, _describe(members), sum(t.count for t in members)))
        rows.append(Row("block", "one block" if uniform else f"block {first} (blocks differ)",
                        f"layer {first}", runs[0][2]))
        n = sum(len(layers) for layers, _, _ in runs)
        rows.append(Row("blocks", f"{n} block" + ("s" if n != 1 else ""),
                        f"{n} × one block" if uniform else _block_kinds(runs),
                        sum(len(layers) * count for layers, _, count in runs)))
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
svg.treemap{max-width:100%;height:auto;font:11px system-ui,sans-serif}svg.treemap text{pointer-events:none}
svg.treemap.narrow{display:none}@media (max-width:600px){svg.treemap.wide{display:none}svg.treemap.narrow{display:block}}
@media (max-width:600px){body{margin:1rem auto}td,th{padding:.2rem .35rem}td.detail,.manifest td{overflow-wrap:anywhere}
table{display:block;max-width:100%;overflow-x:auto}}
.caveats{background:#fff8e1;border-left:4px solid #E69F00;padding:.4rem .8rem;margin:1rem 0}.caveats ul{margin:.2rem 0;padding-left:1.2rem}
.legend span{display:inline-block;margin-right:1rem}.treemap-order{color:#555;font-size:.85em}.legend i{display:inline-block;width:.9em;height:.9em;
margin-right:.3em;vertical-align:-.1em}footer{margin-top:3rem;color:#777;font-size:.85em}
"""


def caveats(inv: Inventory) -> list[str]:
    """What a reader must know before reading a figure, shown at the top: the inventory's notes (a
    multimodal config counted through its text decoder, ...), the stored format memory assumed, and
    what a tensor list without an architecture cannot answer."""
    notes = list(inv.notes)
    arch = inv.architecture
    if arch is not None and arch.stored is not None:
        notes.append(f"Memory \"as stored\": {arch.stored.description}.")
    if arch is None:
        notes.append("These tensors come without an architecture (a checkpoint's header or a live module): "
                     "no KV cache is sized, and the layers are grouped by their tensors' shapes.")
    return notes


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
           f'<p class="big">total <strong id="total">{total:,}</strong> (≈ {human(total)}) parameters in '
           f"{len(inv.tensors):,} unique tensors; embedding share "
           f"{html.escape(percent(inv.embedding_share, digits=6))}; output head "
           f"{'tied to the token table (counted once)' if inv.tied else 'untied (its own table)'}</p>"]
    if inv.has_towers:  # a whole multimodal model: its decoder's own total
        out.append(f'<p>text decoder <strong id="text-decoder">{inv.text_decoder:,}</strong> '
                   f"(≈ {human(inv.text_decoder)}): the total less {beside_decoder(inv)}{text_only_said(inv)}</p>")
    if notes := caveats(inv):
        out.append('<div class="caveats" id="caveats"><strong>Read this first</strong><ul>'
                   + "".join(f"<li>{html.escape(note)}</li>" for note in notes) + "</ul></div>")
    out.append("<h2>Where the parameters go</h2>")
    # A phone gets a tall treemap of its own (the wide one's labels would shrink to 4 px); CSS picks one.
    view = layer_view(inv)  # read once for the treemaps, their legend and the manifest
    groups = treemap_groups(inv, view)
    out.append(treemap_svg(inv, groups=groups))
    out.append(treemap_svg(inv, 350, 520, variant="narrow", groups=groups))
    out.append('<p class="legend">' + "".join(
        f'<span data-component="{html.escape(c)}"><i style="background:{color(c)}"></i>{html.escape(c)}</span>'
        for c in inv.components) + "</p>")
    # The boxes in order with their shares, for the ones too small to label (DeepSeek-V3's embedding: 0.14 %)
    out.append('<p class="treemap-order">In order: ' + " · ".join(
        f"{html.escape(group.label)} {html.escape(percent(group.count, total))}"
        for group in groups if group.count) + "</p>")
    out.append("<h2>The calculator's table</h2>")
    out.append('<table class="rows"><tr><th>part</th><th class="n">parameters</th><th>tensors</th></tr>')
    for row in calculator_rows(inv):
        out.append(f'<tr class="{row.key}" data-key="{row.key}">'
                   + table_cells(("", row.label), ("n", f"{row.count:,}"), ("detail", row.detail)) + "</tr>")
    out.append("</table>")
    out.append("<h2>Components</h2>")
    out.append('<table class="components"><tr><th>component</th><th class="n">parameters</th><th class="n">≈</th>'
               '<th class="n">share</th></tr>')
    for name, count, share in component_rows(inv):
        out.append(f'<tr data-key="{name}">' + table_cells(("", name), ("n", f"{count:,}"), ("n", human(count)),
                                                           ("n", share)) + "</tr>")
    out.append('<tr class="total">' + table_cells(("", "total"), ("n", f"{total:,}"), ("n", human(total)),
                                                  ("n", "100.00 %")) + "</tr>")
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
            cell = ("list", _listed(value)) if isinstance(value, list) else ("n", str(value))
            out.append("<tr>" + table_cells(("", key), cell) + "</tr>")
        out.append("</table>")
    out.append(f"<h2>Manifest: every tensor ({len(inv.tensors):,})</h2>")
    grouped = manifest_grouped(inv)
    if grouped:
        note = GROUPED_MANIFEST.format(LISTED_LAYERS)
        out.append(f"<p>{html.escape(note[0].upper() + note[1:])}.</p>")
    out.append('<table class="manifest"><tr><th>tensor</th><th class="n">shape</th><th class="n">parameters</th>'
               "<th>component</th><th>layer</th></tr>")
    for name, t, layers in manifest_rows(inv, view):
        mark = " (frozen)" if t.frozen else ""
        out.append("<tr>" + table_cells(("", name + mark), ("n", _shape(t.shape)), ("n", f"{t.count:,}"),
                                   ("", t.component), ("", layers_text(layers, grouped))) + "</tr>")
    out.append("</table>")
    if inv.aliases:
        out.append("<p>Aliases (counted once, with the tensor they share):</p><ul>")
        out.extend(f"<li><code>{html.escape(a)}</code> → <code>{html.escape(t)}</code></li>"
                   for a, t in inv.aliases.items())
        out.append("</ul>")
    # The same JSON as `paramledger count --json --manifest`, for a reader that wants data;
    # "</" is escaped so no tensor name can close the element.
    payload = "".join(indented(data, 1)).replace("</", "<\\/")
    out.append(f'<script type="application/json" id="inventory-json">{payload}</script>')
    out.append(f"<footer>paramledger {html.escape(__version__)}: every unique learned tensor counted once. "
               "This file is self-contained and needs no network.</footer></body></html>")
    return "\n".join(out) + "\n"


LISTED_VALUES = 1_000  # a per-layer list in the architecture table: past this many values, the first ones and a count


def _listed(values: list) -> str:
    if len(values) <= LISTED_LAYERS:
        return ", ".join(map(str, values))
    shown = ", ".join(map(str, values[:LISTED_VALUES]))
    return f"{shown}, … ({len(values):,} values, the first {LISTED_VALUES:,} shown)"


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
