"""The report's layout: the treemap in the inventory's order with identical layers grouped, the caveats
at the top, and one palette (palette.py) for the report and the plots."""

from __future__ import annotations

import re

import pytest

import paramledger
from paramledger.inventory import inventory_from_tensors
from paramledger.palette import COLORS, OTHER, color
from paramledger.report import report_html, treemap_groups, treemap_svg


def _inventory_order(inv) -> list[object]:
    """The inventory's boxes as it lists them: each tensor outside the layers by name, each layer once."""
    out: list[object] = []
    for t in inv.tensors:
        item = t.name if t.layer is None else ("layer", t.layer)
        if not out or out[-1] != item:
            out.append(item)
    return out


def _groups_order(groups) -> list[object]:
    out: list[object] = []
    for group in groups:
        if group.layers:
            out += [("layer", i) for i in group.layers]
        else:
            out += [name for leaf in group.leaves for name in leaf.tensors]
    return out


def _flat(inv):
    """The same tensors as a plain list, as a checkpoint's header gives them: no layer kinds to ask."""
    return inventory_from_tensors(tuple(inv.tensors), inv.aliases, source=inv.source)


@pytest.mark.parametrize("source", ["seed-baseline", "gpt2", "Llama-3.1-8B", "DeepSeek-V3", "Qwen3.5-9B",
                                    "gemma-4-31B-it", "Qwen3-Next-80B-A3B-Instruct"])
def test_treemap_boxes_follow_the_inventory_order(source):
    inv = paramledger.inventory(source)
    for inventory in (inv, _flat(inv)):
        groups = treemap_groups(inventory)
        assert _groups_order(groups) == _inventory_order(inventory)
        assert sum(g.count for g in groups) == inventory.total
        # the SVG draws them in that order: its boxes' indices count up
        drawn = [int(i) for i in re.findall(r'data-group="(\d+)"', treemap_svg(inventory))]
        assert drawn == [i for i, g in enumerate(groups) if g.count]


def test_a_run_of_identical_layers_is_one_box_sized_as_their_sum():
    inv = paramledger.inventory("DeepSeek-V3")
    groups = treemap_groups(inv)
    assert [g.label for g in groups] == ["embedding", "layers 0–2 (3 alike)", "layers 3–60 (58 alike)",
                                         "final norm", "output head"]
    moe = groups[2]
    assert moe.count == sum(inv.by_layer[i] for i in range(3, 61))
    assert [leaf.label for leaf in moe.leaves] == ["q_a", "norms", "q_b", "kv_a_proj_with_mqa", "kv_b", "o",
                                                   "routed experts", "router", "shared experts"]
    assert all(name.startswith("model.layers.3.") for leaf in moe.leaves for name in leaf.tensors)
    # a checkpoint's flat list has no kinds: its layers are alike by their tensors' shapes, the same runs
    assert [g.label for g in treemap_groups(_flat(inv))] == [g.label for g in groups]


def test_layers_that_differ_are_runs_in_depth_order():
    inv = paramledger.inventory("Qwen3.5-9B")  # three linear-attention layers, then a full one, eight times
    layered = [g.label for g in treemap_groups(inv) if g.layers]
    assert layered[:4] == ["layers 0–2 (3 alike)", "layer 3", "layers 4–6 (3 alike)", "layer 7"]
    assert len(layered) == 16


@pytest.mark.parametrize("source", ["DeepSeek-V3", "Llama-3.1-8B", "Qwen3.5-9B"])
def test_every_box_is_labelled_or_titled_and_their_number_is_bounded(source):
    inv = paramledger.inventory(source)
    for width, height in ((960, 540), (350, 520)):
        svg = treemap_svg(inv, width, height)
        cells = re.findall(r'<g class="cell"[^>]*>(.*?)</g>', svg)
        assert len(cells) <= 25 if source != "Qwen3.5-9B" else len(cells) <= 100
        filled = re.findall(r'<rect [^>]*fill="#', svg)
        assert len(filled) == len(cells)  # every drawn box is a cell...
        for cell in cells:  # ... with its full text as a tooltip
            title = re.match(r"<title>([^<]+)</title><rect ", cell)
            assert title and ":" in title.group(1), cell
        labels = re.findall(r"<text[^>]*>([^<]+)</text>", svg)
        assert len(labels) >= 2  # the big boxes say what they are
    if source == "DeepSeek-V3":
        labels = re.findall(r"<text[^>]*>([^<]+)</text>", treemap_svg(inv))
        assert "layers 3–60 (58 alike) 99.46 %" in labels and "routed experts 97.45 %" in labels


def test_a_label_is_shortened_or_left_out_where_it_does_not_fit():
    from paramledger.treemap import _LINE, _MARGIN, text_width

    inv = paramledger.inventory("DeepSeek-V3")
    svg = treemap_svg(inv, 350, 520)
    # the estimate's arithmetic; the browser measures the real text (tests/test_browser_report.py)
    for w, h, attributes, text in re.findall(
            r'<rect x="[^"]*" y="[^"]*" width="([^"]*)" height="([^"]*)"[^>]*/><text ([^>]*)>([^<]+)</text>', svg):
        across, along = (float(w), float(h)) if "rotate" not in attributes else (float(h), float(w))
        assert across >= text_width(text) + _MARGIN and along >= _LINE, text


def test_caveats_come_first():
    text = report_html(paramledger.inventory("gemma-3-4b-it"))
    note = "gemma3 is multimodal: counting the whole model (vision tower, projector and text decoder); --text-only counts the decoder alone"
    caveats = text.index('<div class="caveats"')
    assert caveats < text.index(note) < text.index("Where the parameters go") < text.index("Manifest: every tensor")
    assert text.partition("<script")[0].count(note) == 1  # said once (and in the embedded JSON)
    text = report_html(paramledger.inventory("DeepSeek-V3"))
    stored = "fp8 e4m3, 128×128 block scales"
    assert text.index('<div class="caveats"') < text.index(stored) < text.index("Where the parameters go")
    assert text.index(stored) < text.index("Manifest: every tensor")


def test_a_plain_design_has_no_caveats_box():
    assert '<div class="caveats"' not in report_html(paramledger.inventory("seed-baseline"))


def test_a_tensor_list_without_an_architecture_says_what_it_cannot_answer():
    text = report_html(_flat(paramledger.inventory("seed-baseline")))
    assert text.index("come without an architecture") < text.index("Where the parameters go")


@pytest.mark.parametrize("source", ["DeepSeek-V3", "Qwen3.5-9B", "gpt2"])
def test_the_report_colours_are_the_palette(source):
    inv = paramledger.inventory(source)
    text = report_html(inv)
    legend = dict(re.findall(r'<span data-component="([^"]+)"><i style="background:(#[0-9A-Fa-f]{6})">', text))
    assert legend == {c: COLORS[c] for c in inv.components}
    for component, fill in re.findall(r'data-component="([^"]+)"><title>[^<]*</title><rect [^>]*fill="([^"]+)"',
                                      text):
        assert fill == color(component) != OTHER
    assert COLORS["ffn"] != COLORS["experts"]


def test_plots_use_the_palette(cli, tmp_path):
    target = tmp_path / "compare.svg"
    status, _, err = cli("compare", "seed-baseline", "Mixtral-8x7B-v0.1", "--set", "num_hidden_layers=2",
                         "--plot", str(target))
    assert status == 0, err
    fills = {fill.upper() for fill in re.findall(r"fill: ?(#[0-9a-fA-F]{6})", target.read_text())}
    components = set(paramledger.inventory("seed-baseline").components) | {"router", "experts"}
    assert {COLORS[c].upper() for c in components} <= fills
    from paramledger import plots

    assert not [name for name, value in vars(plots).items() if isinstance(value, dict) and "ffn" in value]


def test_counts_come_with_a_human_scale_figure(tmp_path):
    from paramledger.report import write_report

    text = write_report(paramledger.inventory("Meta-Llama-3-8B"), tmp_path / "r.html").read_text()
    assert "8,030,261,248</strong> (≈ 8.03 B)" in text  # the headline
    assert "<td class=\"n\">525,336,576</td><td class=\"n\">525.34 M</td>" in text  # the components table
