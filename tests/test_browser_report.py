"""The report in a real browser (Debian's chromium through Playwright, test_browser.py's fixtures): every
treemap label inside its box as the browser draws the text, and nothing past the window, on a desktop and
on a 390 px phone.  The report cannot measure its text (it runs no script): this checks its estimate."""

# ruff: noqa: F811 -- test_browser.py's browser and page fixtures, imported, are redefined as each test's argument
from __future__ import annotations

import pytest
from test_browser import CHROMIUM, browser, page  # noqa: F401 (fixtures)

import paramledger
from paramledger.report import write_report

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium (/usr/bin/chromium) is not installed")

# Each label's box and its cell's, in CSS pixels, for the treemap the window shows.
_MEASURE = """() => {
  const shown = [...document.querySelectorAll('svg.treemap')].filter(s => getComputedStyle(s).display !== 'none');
  return shown.map(svg => ({
    variant: svg.getAttribute('class'),
    right: svg.getBoundingClientRect().right,
    labels: [...svg.querySelectorAll('text')].map(text => {
      const t = text.getBoundingClientRect(), c = text.parentNode.querySelector('rect').getBoundingClientRect();
      return {text: text.textContent, height: t.height,
              text_box: [t.left, t.top, t.right, t.bottom], cell: [c.left, c.top, c.right, c.bottom]};
    }),
  }));
}"""


@pytest.mark.parametrize("width", [1400, 390])
@pytest.mark.parametrize("source", ["DeepSeek-V3", "Llama-3.1-8B"])
def test_treemap_labels_fit_their_cells_and_nothing_runs_past_the_window(page, tmp_path, source, width):
    report = write_report(paramledger.inventory(source), tmp_path / "report.html")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(report.as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    (shown,) = page.evaluate(_MEASURE)  # one treemap at a time: the phone gets its own
    assert shown["variant"] == ("treemap narrow" if width < 600 else "treemap wide")
    assert shown["right"] <= width
    assert len(shown["labels"]) >= 2
    for label in shown["labels"]:
        left, top, right, bottom = label["text_box"]
        cell_left, cell_top, cell_right, cell_bottom = label["cell"]
        slack = 0.5  # subpixel rounding
        assert cell_left - slack <= left and right <= cell_right + slack, label
        assert cell_top - slack <= top and bottom <= cell_bottom + slack, label
        assert right <= width
        assert label["height"] >= 11  # drawn at its size, not shrunk with a wide SVG on a phone
