"""The report's treemap: where the parameters go, in the inventory's order, one inline SVG.

The tensors before the layers, the layers, the tensors after, as the inventory lists them (the
embedding, layers 0..L-1, the final norm and the head).  A run of identical layers is one box,
sized as their sum, holding one layer's parts: DeepSeek-V3's 61 layers are "layers 0–2 (3 alike)"
and "layers 3–60 (58 alike)", not 61 boxes of slivers.  Identical means what the builder says it
means: layers sharing one block (StampedTensors.blocks, one per layer kind of design/layers.py's
LayerPlan).  A flat tensor list (a checkpoint's header, a live module) has no kinds: its layers are
alike when their tensors have the same components and shapes.

Every box has a title (the browser's tooltip) with its full text; a label is written only where it
fits its box, shortened first, else left out.  No script: the report runs none.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from .inventory import Inventory, Layers, StampedTensors, Tensor
from .palette import color
from .render import percent


@dataclass(frozen=True, slots=True)
class Leaf:
    """One part of a layer (or one tensor outside the layers); ``count`` covers every layer of its
    group, ``tensors`` names the first layer's."""

    label: str
    component: str
    count: int
    tensors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Group:
    """A box of the treemap: a run of identical layers (``layers``, in order) or, with no layers,
    one tensor outside them."""

    label: str
    layers: Sequence[int]  # a range (a tuple, empty, for a tensor outside the layers)
    leaves: tuple[Leaf, ...]

    @property
    def count(self) -> int:
        return sum(leaf.count for leaf in self.leaves)


_OUTSIDE_LABELS = {"embedding": "embedding", "positions": "positions", "lm_head": "output head"}
_TOWER_LABELS = {"encoder": "encoder", "vision": "vision tower", "audio": "audio tower",
                 "projector": "projector", "talker": "talker", "vocoder": "vocoder"}  # a run of them is one box
_PART_LABELS = {"ffn": "FFN", "norm": "norms", "router": "router", "experts": "routed experts",
                "shared_experts": "shared experts", "mixer": "mixer"}


def _module(name: str) -> str:
    """"model.layers.0.self_attn.q_proj.weight" -> "q_proj"."""
    path, _, kind = name.rpartition(".")
    return (path if kind in ("weight", "bias") and path else name).rsplit(".", 1)[-1]


LISTED_RUNS = 1_000
"""Past this many runs of identical layers (kinds that alternate), the report groups the layers by kind."""


def layer_view(inv: Inventory) -> list[Tensor | tuple[range | Layers, list[Tensor]]]:
    """The inventory in its order with each run of identical consecutive layers once: a tensor outside
    the layers, or (the run's layers, its first layer's tensors); past LISTED_RUNS runs, each kind of layer
    once, its layers a Layers.  A builder's inventory is read per run
    (StampedTensors.layer_runs: a 10^6-layer design is a few items, never expanded); a flat list per
    tensor, its layers identical when their tensors have the same components and shapes."""
    tensors = inv.tensors
    if isinstance(tensors, StampedTensors):
        if tensors.run_count() > LISTED_RUNS:  # kinds alternate: one item per kind of layer, its layers a Layers
            (before, after), runs = tensors.outside(), tensors.layer_kinds()
        else:
            before, runs, after = tensors.layer_runs()
        prefix = tensors.layer_prefix
        return [*before, *((layers, [t._replace(name=prefix.format(i=layers[0]) + t.name, layer=layers[0])
                                     for t in block]) for layers, block in runs if block), *after]
    order: list[int | Tensor] = []  # a tensor outside the layers, or a layer's index at its first tensor
    per_layer: dict[int, list[Tensor]] = {}
    for t in tensors:
        if t.layer is None:
            order.append(t)
        else:
            if t.layer not in per_layer:
                per_layer[t.layer] = []
                order.append(t.layer)
            per_layer[t.layer].append(t)
    kinds = {i: tuple((t.component, t.shape, t.experts, t.frozen) for t in members) for i, members in per_layer.items()}
    out: list[Tensor | tuple[range, list[Tensor]]] = []
    for item in order:
        if not isinstance(item, int):
            out.append(item)
            continue
        last = out[-1] if out else None
        if (last is not None and not isinstance(last, Tensor) and last[0][-1] == item - 1
                and kinds[last[0][0]] == kinds[item]):
            out[-1] = (range(last[0][0], item + 1), last[1])
        else:
            out.append((range(item, item + 1), per_layer[item]))
    return out


def _span(layers: Sequence[int]) -> str:
    if isinstance(layers, Layers):
        return f"layers {layers[0]}–{layers[-1]}, {layers.runs:,} runs ({len(layers):,} alike)"
    return f"layer {layers[0]}" if len(layers) == 1 else f"layers {layers[0]}–{layers[-1]} ({len(layers)} alike)"


def _parts(tensors: list[Tensor], times: int) -> tuple[Leaf, ...]:
    """One layer's parts: a leaf per attention projection (q, k, v, o, ...), one per other component."""
    leaves: dict[tuple[str, str], list[Tensor]] = {}
    for t in tensors:
        label = (_module(t.name).removesuffix("_proj") if t.component == "attention"
                 else _PART_LABELS.get(t.component, t.component))
        leaves.setdefault((t.component, label), []).append(t)
    return tuple(Leaf(label, component, times * sum(t.count for t in members), tuple(t.name for t in members))
                 for (component, label), members in leaves.items())


def treemap_groups(inv: Inventory, view: list | None = None) -> list[Group]:
    """The treemap's boxes in the inventory's order: each tensor outside the layers (a run of a multimodal
    model's tower tensors, or its projector's, one box), and each run of identical consecutive layers
    (``view``: layer_view(inv), when the caller has it)."""
    groups: list[Group] = []
    seen_layers = False
    for item in layer_view(inv) if view is None else view:
        if not isinstance(item, Tensor):
            layers, first = item
            groups.append(Group(_span(layers), layers, _parts(first, len(layers))))
            seen_layers = True
            continue
        if item.component in _TOWER_LABELS:  # a tower's tensors, and a projector's, one box each
            label, last = _TOWER_LABELS[item.component], groups[-1] if groups else None
            if last is not None and not last.layers and last.label == label:
                held = last.leaves[0]
                groups[-1] = Group(label, (), (Leaf(label, item.component, held.count + item.count,
                                                    (*held.tensors, item.name)),))
                continue
            groups.append(Group(label, (), (Leaf(label, item.component, item.count, (item.name,)),)))
            continue
        label = _OUTSIDE_LABELS.get(item.component) or (
            ("final norm" if seen_layers else _module(item.name)) if item.component == "norm" else _module(item.name))
        if item.component == "embedding" and inv.tied and item.name in inv.aliases.values():
            label = "embedding (= output head)"
        groups.append(Group(label, (), (Leaf(label, item.component, item.count, (item.name,)),)))
    return groups


def squarify(values: list[int], x: float, y: float, w: float, h: float) -> list[tuple[float, float, float, float]]:
    """Rectangles with areas proportional to ``values`` (positive, in the given order: strips laid from
    the left or top edge, so the order reads left to right, top to bottom), kept as square as the
    squarified algorithm gets them without sorting (Bruls, Huizing and van Wijk, "Squarified Treemaps",
    2000).  Floats: this is drawing, not counting."""
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


# ---------------------------------------------------------------- labels that fit

FONT_PX = 11
_NARROW, _WIDE = set("ijlft.,:;|!'()[] rI1–-"), set("mwMW%×@")


def text_width(text: str, size: float = FONT_PX) -> float:
    """A label's width, on the wide side of the sans fonts a browser falls back to (DejaVu Sans,
    Verdana): the report cannot measure its text, having no script."""
    em = 0.0
    for ch in text:
        em += 0.42 if ch in _NARROW else 1.0 if ch in _WIDE else 0.74 if ch.isupper() else 0.64
    return em * size


_LINE = FONT_PX * 1.2 + 4  # a line's height (ascent and descent) and its margins
_MARGIN = 8  # 4 px either side


def _ink(fill: str) -> str:
    """Dark text on a light fill (the yellow mixer, the sky-blue positions), white on the others."""
    red, green, blue = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#1b1b1b" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#fff"


def _label(x: float, y: float, w: float, h: float, fill: str, candidates: Sequence[str]) -> str:
    """The first candidate that fits the box across (or, in a tall narrow box, upwards), as SVG text."""
    for text in candidates:
        room = text_width(text) + _MARGIN
        if w >= room and h >= _LINE:
            return f'<text x="{x + 4:.2f}" y="{y + 13:.2f}" fill="{_ink(fill)}">{html.escape(text)}</text>'
        if h >= room and h > w >= _LINE:
            return (f'<text transform="translate({x + 13:.2f} {y + h - 4:.2f}) rotate(-90)" fill="{_ink(fill)}">'
                    f"{html.escape(text)}</text>")
    return ""


def _shorter(label: str) -> list[str]:
    """A label, then shorter forms of it: "layers 3–60 (58 alike)" -> "layers 3–60" -> "3–60"."""
    out = [label]
    if label.endswith(" alike)"):
        out.append(label.rsplit(" (", 1)[0])
        out.append(out[-1].removeprefix("layers "))
    if label.startswith("embedding ("):
        out.append("embedding")
    if len(label) > 6 and "_" in label:
        out.append(label.split("_")[0] + "…")
    return out


def _cell(x: float, y: float, w: float, h: float, fill: str, title: str, labels: Sequence[str],
          attributes: str = "") -> str:
    return (f'<g class="cell"{attributes}><title>{html.escape(title)}</title>'
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" '
            f'stroke="#fff" stroke-width="0.5"/>{_label(x, y, w, h, fill, labels)}</g>')


_HEADER = 17.0  # a group's title strip


def treemap_svg(inv: Inventory, width: int = 960, height: int = 540, variant: str = "wide",
                groups: list[Group] | None = None) -> str:
    """The treemap as one inline SVG element (no script, no external reference): the tensors before the
    layers, one box holding every layer, the tensors after, each box in the inventory's order (``groups``:
    treemap_groups(inv), when the caller has them)."""
    groups = [g for g in (treemap_groups(inv) if groups is None else groups) if g.count > 0]
    total = inv.total
    layered = [i for i, g in enumerate(groups) if g.layers]
    # The layers' box takes the place of the first layer group among the tensors outside them.
    top_items: list[list[int]] = []
    for i, g in enumerate(groups):
        if not g.layers:
            top_items.append([i])
        elif i == layered[0]:
            top_items.append(layered)
    top = squarify([sum(groups[i].count for i in item) for item in top_items], 0, 0, width, height)
    body: list[str] = []
    for item, box in zip(top_items, top):
        if len(item) == 1 and not groups[item[0]].layers:
            body.append(_outside(groups[item[0]], item[0], box, total))
        else:
            rects = squarify([groups[i].count for i in item], *box)
            body.extend(_layers(groups[i], i, rect, total) for i, rect in zip(item, rects))
    # No xmlns: inline SVG in HTML needs none, and the report holds no URL at all.
    return (f'<svg class="treemap {variant}" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-label="treemap of the {total:,} parameters">' + "".join(body) + "</svg>")


def _outside(group: Group, index: int, box: tuple[float, float, float, float], total: int) -> str:
    (leaf,) = group.leaves
    share = percent(leaf.count, total)
    title = f"{leaf.label}: {leaf.count:,} ({share}) — {', '.join(leaf.tensors)}"
    return _cell(*box, color(leaf.component), title, [f"{leaf.label} {share}", *_shorter(leaf.label)],
                 f' data-group="{index}" data-component="{leaf.component}"')


def _layers(group: Group, index: int, box: tuple[float, float, float, float], total: int) -> str:
    """A run of identical layers: a title strip when the box has room, one layer's parts inside (each
    sized for the whole run), an outline."""
    x, y, w, h = box
    n = len(group.layers)
    span = f"{group.layers[0]}–{group.layers[-1]}" if n > 1 else str(group.layers[0])
    share = percent(group.count, total)
    heading = f"{group.label}: {group.count:,} ({share})" + (f", {group.count // n:,} each" if n > 1 else "")
    out = [f'<g class="group" data-group="{index}" data-layers="{span}"><title>{html.escape(heading)}</title>']
    pad = 2.0 if w > 12 and h > 12 else 0.0
    top = y + pad
    if w >= 40 and h >= 3 * _HEADER:
        out.append(_cell(x, y, w, _HEADER + pad, "#333333", heading, [f"{group.label} {share}", *_shorter(group.label)],
                         ' data-header=""'))
        top = y + _HEADER + pad
    inner = squarify([leaf.count for leaf in group.leaves], x + pad, top, w - 2 * pad, y + h - pad - top)
    rest = group.layers[1:] if isinstance(group.layers, range) else None
    others = (f"the {n - 1:,} other layers of its kind" if rest is None else "" if not rest
              else f"layer {rest[0]}" if len(rest) == 1 else f"layers {rest[0]}–{rest[-1]}")
    for leaf, rect in zip(group.leaves, inner):
        per_layer = f"{n} × {leaf.count // n:,} = " if n > 1 else ""
        title = (f"{group.label}, {leaf.label}: {per_layer}{leaf.count:,} ({percent(leaf.count, total)}) — "
                 + ", ".join(leaf.tensors) + (f" (the same in {others})" if others else ""))
        out.append(_cell(*rect, color(leaf.component), title,
                         [f"{leaf.label} {percent(leaf.count, total)}", *_shorter(leaf.label)],
                         f' data-component="{leaf.component}"'))
    out.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="none" '
               'stroke="#333" stroke-width="1"/></g>')
    return "".join(out)
