"""The pasted config, the model search and the notes in a real browser (test_browser.py's fixtures).

A bundled config's JSON pasted into the page must give the library's total for that config; garbage must give
the library's one line beside the box and leave the page as it was; the search must filter the list as
`paramledger models` does; gemma-3-4b-it's "text decoder only" note must sit at the top of the results; and the
page must not scroll sideways at 390 or 1,400 px.  The page fixture fails a test on any console error.
"""

# ruff: noqa: F811 -- test_browser.py's browser and page fixtures, imported, are redefined as each test's argument
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from test_browser import CHROMIUM, browser, page, wait_for_total  # noqa: F401 (fixtures)

import paramledger
from paramledger.registry import get

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium (/usr/bin/chromium) is not installed")

GEMMA_NOTE = "gemma3 is multimodal: counting the whole model (vision tower, projector and text decoder); --text-only counts the decoder alone"


def paste(page, text: str) -> None:
    if not page.eval_on_selector("#paste", "d => d.open"):
        page.locator("#paste summary").click()
    page.fill("#paste-text", text)
    page.click("#paste-count")


def options(page) -> list[str]:
    return page.eval_on_selector_all("#source option", "os => os.map(o => o.value)")


def no_sideways_scroll(page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_pasted_config_is_counted(server, page):
    page.goto(server.url)
    wait_for_total(page, 528)
    config = get("Qwen3-30B-A3B").config
    paste(page, json.dumps(config, indent=2))
    inv = paramledger.inventory(paramledger.load(config))
    wait_for_total(page, inv.total)
    expect(page.locator("#summary")).to_contain_text("pasted config.json: qwen3_moe, 48 layers")
    expect(page.locator("#source")).to_have_value("(pasted)")
    expect(page.locator("#pasted-note")).to_be_visible()
    assert "source=" not in page.url and "hidden_size" not in page.url  # the config is not in the link
    expect(page.locator("#memory tr[data-key=weights]")).to_be_visible()
    expect(page.locator("#fit .verdict")).not_to_be_empty()
    # the inputs change the pasted config as --set does, and the link still holds no design
    page.fill("[data-key=num_hidden_layers]", "2")
    wait_for_total(page, paramledger.inventory(paramledger.load(config, num_hidden_layers=2)).total)
    assert "num_hidden_layers" not in page.url
    # a bundled name chosen again leaves the paste behind
    page.select_option("#source", "Qwen3-4B")
    wait_for_total(page, paramledger.inventory("Qwen3-4B").total)
    assert "(pasted)" not in options(page) and "source=Qwen3-4B" in page.url
    expect(page.locator("#pasted-note")).to_be_hidden()


@pytest.mark.parametrize(("text", "message"), [
    ("this is not json", "pasted config.json: invalid JSON at line 1 column 1: Expecting value"),
    ('["a", "list"]', "pasted config.json: a config must be a JSON object"),
    ('{"model_type": "no-such-family"}', "pasted config.json: model_type 'no-such-family' is not supported"),
    ('{"model_type": "llama", "hidden_size": -5}', "pasted config.json: hidden_size: must be positive, got -5"),
])
def test_a_bad_paste_is_the_librarys_line_and_the_page_stays(server, page, text, message):
    page.goto(f"{server.url}?source=seed-baseline")
    wait_for_total(page, 13_110_528)
    paste(page, text)
    problem = page.locator("#paste .problem")
    expect(problem).to_contain_text(message)
    assert "\n" not in problem.text_content()
    page.wait_for_timeout(300)
    assert page.locator("#rows tr[data-key=total] td.n").text_content() == "13,110,528"
    assert "source=seed-baseline" in page.url and page.locator("#error").is_hidden()


def test_a_paste_past_the_bound_is_refused(server, page):
    page.goto(server.url)
    wait_for_total(page, 528)
    page.locator("#paste summary").click()
    page.eval_on_selector("#paste-text", "t => { t.value = ' '.repeat(16 * 1024 * 1024 + 1); }")
    page.click("#paste-count")
    expect(page.locator("#paste .problem")).to_contain_text(
        "pasted config.json: 16,777,217 bytes: beyond the 16,777,216-byte bound for a config json")
    wait_for_total(page, 528)


def test_the_search_filters_the_list(server, page):
    page.goto(server.url)
    wait_for_total(page, 528)
    every = options(page)
    assert every[:7] == ["", "seed-1.1b", "seed-baseline", "seed-narrow", "seed-shallow", "seed-small-vocab",
                         "seed-untied"]  # the blank design, the designs, then the models
    page.fill("#search", "qwen3 a3b")
    expect(page.locator("#matches")).to_have_text(f"3 of {len(every) - 1} designs and models")
    assert options(page) == ["", "Qwen3-30B-A3B", "Qwen3-Next-80B-A3B-Instruct", "Qwen3-VL-30B-A3B-Instruct"]
    page.fill("#search", "GEMMA3")  # any case; model_type gemma3 and gemma3_text
    expect(page.locator("#matches")).to_contain_text("4 of")
    assert options(page) == ["", "gemma-3-1b-it", "gemma-3-4b-it", "gemma-3-27b-it", "gemma-3-270m"]  # natural order
    page.select_option("#source", "gemma-3-270m")
    wait_for_total(page, paramledger.inventory("gemma-3-270m").total)
    page.fill("#search", "llama")  # the chosen model stays shown while the search hides it
    expect(page.locator("#matches")).not_to_have_text(re.compile(r"^4 of "))
    expect(page.locator("#source")).to_have_value("gemma-3-270m")
    page.fill("#search", "")
    expect(page.locator("#matches")).to_have_text(f"{len(every) - 1} designs and models")
    assert options(page) == every


def test_the_notes_are_at_the_top(server, page):
    page.goto(f"{server.url}?source=gemma-3-4b-it")
    wait_for_total(page, paramledger.inventory("gemma-3-4b-it").total)
    notes = page.locator("#notes")
    expect(notes).to_have_text(GEMMA_NOTE)
    top = page.evaluate("[...document.querySelector('#results').children].find(e => !e.hidden).id")
    assert top == "notes"
    assert notes.bounding_box()["y"] < page.locator("#rows").bounding_box()["y"]
    page.select_option("#source", "gpt-oss-20b")  # a quantization_config read: what the weights are stored as
    expect(notes).to_contain_text("stored as: mxfp4 experts")
    page.select_option("#source", "Llama-3.2-1B")
    expect(notes).to_be_hidden()


def test_one_layer_is_one_layer(server, page):
    page.goto(f"{server.url}?source=gemma-2-2b&num_hidden_layers=1&context=8192")
    wait_for_total(page, paramledger.inventory("gemma-2-2b", num_hidden_layers=1).total)
    expect(page.locator("#summary")).to_contain_text("gemma2, 1 layer,")
    expect(page.locator("#memory tr[data-key=kv_cache]")).to_contain_text("its one layer slides")
    assert "1 layers" not in page.locator("body").inner_text()


@pytest.mark.parametrize("width", [390, 1400])
def test_nothing_runs_past_the_window(server, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}?source=gemma-3-4b-it")
    wait_for_total(page, paramledger.inventory("gemma-3-4b-it").total)
    expect(page.locator("#fit .verdict")).not_to_be_empty()
    page.locator("#paste summary").click()
    page.fill("#search", "a-search-that-is-long-enough-to-matter")
    expect(page.locator("#matches")).to_contain_text("0 of")
    no_sideways_scroll(page, width)
    paste(page, "{" + '"model_type": "llama", ' * 40 + '"hidden_size": "an-unbroken-value-' + "x" * 300 + '"}')
    expect(page.locator("#paste .problem")).to_be_visible()
    no_sideways_scroll(page, width)
