"""The page's colours are palette.py's: app.js holds a copy of COLORS and OTHER (JavaScript cannot import the
Python table), and this test fails the moment the two differ in a key, a value or its case."""

from __future__ import annotations

import re
from importlib import resources

from paramledger import palette

APP_JS = (resources.files("paramledger") / "web" / "app.js").read_text(encoding="utf-8")


def app_colors() -> dict[str, str]:
    """app.js's COLORS object, entry by entry; anything in it that is not `key: "#RRGGBB"` fails."""
    found = re.search(r"^const COLORS = \{(.*?)\};", APP_JS, re.DOTALL | re.MULTILINE)
    assert found, "app.js has no `const COLORS = {...};`"
    body = found.group(1)
    entries = re.findall(r'(\w+): "(#[0-9A-Fa-f]{6})"', body)
    leftover = re.sub(r'(\w+): "(#[0-9A-Fa-f]{6})"', "", body)
    assert re.fullmatch(r"[\s,]*", leftover), f"COLORS holds something else: {leftover.strip()!r}"
    keys = [key for key, _ in entries]
    assert len(keys) == len(set(keys)), "a component is listed twice"
    return dict(entries)


def test_the_pages_colors_are_the_palettes():
    assert app_colors() == palette.COLORS


def test_the_pages_colour_for_another_component_is_the_palettes():
    assert re.search(r'^const OTHER = "(#[0-9A-Fa-f]{6})";', APP_JS, re.MULTILINE).group(1) == palette.OTHER


def test_the_page_draws_components_with_that_table_only():
    assert "COLOURS" not in APP_JS
    assert APP_JS.count("COLORS[c.name] || OTHER") == 2  # the stacked bar and the per-component bars


def test_ffn_and_experts_differ():
    assert palette.COLORS["ffn"] != palette.COLORS["experts"]
