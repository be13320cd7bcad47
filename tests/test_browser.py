"""The calculator page in a real browser: Debian's chromium driven by Playwright.

The page's numbers must be the library's for the same design, a shared URL must restore
the same state, and an invalid combination must show the server's message inline without
breaking the page.  Screenshots of the page and of the report are taken here; set
PARAMLEDGER_UPDATE_SCREENSHOTS=1 to copy them to docs/ for the README.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import paramledger
from paramledger.memory import format_bytes, memory_report
from paramledger.report import write_report
from paramledger.server import BLANK_DESIGN

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).resolve().parent.parent / "docs"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium (/usr/bin/chromium) is not installed")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh page that records every script error and every request to another host."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    # Chromium logs every non-2xx fetch as a console error; the API's 400s are expected.
    expected = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    page.on("console", lambda message: message.type == "error" and message.text != expected
            and page.errors.append(message.text))
    local = ("http://127.0.0.1:", "data:", "file://")
    page.on("request", lambda request: not request.url.startswith(local)
            and page.errors.append(f"request to {request.url}"))
    yield page
    assert page.errors == []
    page.close()


def table(page) -> dict[str, int]:
    """The calculator table as key -> count, read from the page's text."""
    cells = page.eval_on_selector_all(
        "#rows tbody tr", "rows => rows.map(r => [r.dataset.key, r.querySelector('td.n').textContent])")
    return {key: int(text.replace(",", "")) for key, text in cells}


def library_rows(inv) -> dict[str, int]:
    """The same rows computed here from the inventory's tensors, not from the page's views."""
    layers = sorted(k for k in inv.by_layer if k is not None)
    first = [t for t in inv.tensors if t.layer == layers[0]]
    outside = [t for t in inv.tensors if t.layer is None]
    rows = {component: sum(t.count for t in first if t.component == component)
            for component in ("attention", "ffn", "norm")}
    rows["block"] = inv.by_layer[layers[0]]
    rows["blocks"] = sum(inv.by_layer[i] for i in layers)
    rows["embedding"] = inv.embedding
    if any(t.component == "positions" for t in outside):
        rows["positions"] = inv.component("positions")
    if any(t.component == "norm" for t in outside):
        rows["final_norm"] = sum(t.count for t in outside if t.component == "norm")
    rows["lm_head"] = inv.component("lm_head")
    rows["total"] = inv.total
    return rows


def wait_for_total(page, total: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#rows tr[data-key=total] td.n")).to_have_text(f"{total:,}")


def test_edits_give_the_librarys_numbers(server, browser, page):
    page.goto(server.url)
    wait_for_total(page, 528)  # seed 001's page as it opens
    assert table(page) == library_rows(paramledger.inventory(paramledger.load(BLANK_DESIGN)))

    page.fill("[data-key=hidden_size]", "64")
    page.fill("[data-key=num_hidden_layers]", "3")
    page.check("[data-key=mlp_gated]")
    page.uncheck("[data-key=tie_word_embeddings]")
    page.select_option("[data-key=norm_placement]", "pre")
    arch = paramledger.load(BLANK_DESIGN, hidden_size=64, num_hidden_layers=3, mlp_gated=True,
                            tie_word_embeddings=False, norm_placement="pre")
    inv = paramledger.inventory(arch)
    wait_for_total(page, inv.total)
    assert table(page) == library_rows(inv)
    assert table(page)["lm_head"] == 100 * 64  # untied: the head is its own table
    shares = page.eval_on_selector_all("#components tbody tr", "rows => rows.map(r => r.dataset.key)")
    assert shares == list(inv.components)
    assert page.locator("#chart rect").count() == 2 * len(inv.components)
    for key, value in (("hidden_size", "64"), ("num_hidden_layers", "3"), ("mlp_gated", "true"),
                       ("tie_word_embeddings", "false"), ("norm_placement", "pre")):
        assert f"{key}={value}" in page.url

    # The URL is the design: a new page opened on it shows the same inputs and table.
    shared = browser.new_page()
    shared.goto(page.url)
    wait_for_total(shared, inv.total)
    assert table(shared) == table(page)
    assert shared.input_value("[data-key=hidden_size]") == "64"
    assert shared.is_checked("[data-key=mlp_gated]") and not shared.is_checked("[data-key=tie_word_embeddings]")
    shared.close()


def test_a_shared_link_restores_every_input(server, page):
    link = (f"{server.url}?source=seed-baseline&hidden_size=512&num_hidden_layers=3&mlp_gated=true"
            "&attention_bias=true&qk_norm=head&position_embedding_type=learned&max_position_embeddings=1024")
    page.goto(link)
    overrides = {"hidden_size": 512, "num_hidden_layers": 3, "mlp_gated": True, "attention_bias": True,
                 "qk_norm": "head", "position_embedding_type": "learned", "max_position_embeddings": 1024}
    inv = paramledger.inventory("seed-baseline", **overrides)
    wait_for_total(page, inv.total)
    assert table(page) == library_rows(inv)
    assert page.input_value("#source") == "seed-baseline"
    assert page.input_value("[data-key=hidden_size]") == "512"
    assert page.input_value("[data-key=num_hidden_layers]") == "3"
    assert page.input_value("[data-key=intermediate_size]") == "2048"  # seed 000's m = 4d follows the width
    assert page.input_value("[data-key=vocab_size]") == "32768"  # from the design, not the link
    assert page.is_checked("[data-key=mlp_gated]") and page.is_checked("[data-key=attention_bias]")
    assert not page.is_checked("[data-key=mlp_bias]")
    assert page.input_value("[data-key=qk_norm]") == "head"
    assert page.input_value("[data-key=position_embedding_type]") == "learned"
    assert table(page)["positions"] == 1024 * 512


def test_choosing_a_bundled_model_fills_the_inputs(server, page):
    page.goto(server.url)
    wait_for_total(page, 528)
    page.select_option("#source", "Qwen3-4B")
    inv = paramledger.inventory("Qwen3-4B")
    wait_for_total(page, inv.total)
    arch = inv.architecture
    assert page.input_value("[data-key=hidden_size]") == str(arch.hidden_size)
    assert page.input_value("[data-key=num_key_value_heads]") == str(arch.kv_heads)
    assert page.input_value("[data-key=qk_norm]") == arch.qk_norm
    assert "source=Qwen3-4B" in page.url


def test_a_whole_multimodal_model_gives_its_text_decoder_and_says_so(server, page):
    """Issue #16: Gemma 3 4B counts whole on the page, its decoder's total a line of its own and the note saying
    what is counted."""
    from playwright.sync_api import expect

    page.goto(f"{server.url}?source=gemma-3-4b-it")
    wait_for_total(page, 4_300_079_472)
    expect(page.locator("#facts")).to_contain_text("text decoder: 3,880,263,168 (the total less the towers)")
    expect(page.locator("body")).to_contain_text("counting the whole model (vision tower, projector and text decoder)")


@pytest.mark.parametrize(("key", "value", "message"), [
    ("num_attention_heads", "3", "num_attention_heads: 3 heads do not divide hidden_size=256; set head_dim"),
    ("num_key_value_heads", "3", "num_key_value_heads: 3 does not divide num_attention_heads=4"),
    ("hidden_size", "-256", "hidden_size: must be positive, got -256"),
    ("vocab_size", "1" + "0" * 30, "vocab_size: 1e+30 is above the API's bound of 2**40"),
])
def test_an_invalid_combination_shows_the_servers_message(server, page, key, value, message):
    page.goto(f"{server.url}?source=seed-baseline")
    wait_for_total(page, 13_110_528)
    page.fill(f"[data-key={key}]", value)
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert message in error.text_content()
    assert "\n" not in error.text_content()
    assert "invalid" in page.get_attribute(f"[data-key={key}]", "class")
    assert table(page)["total"] == 13_110_528  # the last good table stays, dimmed
    page.fill(f"[data-key={key}]", {"vocab_size": "32768", "hidden_size": "256"}.get(key, "4"))
    error.wait_for(state="hidden")
    wait_for_total(page, 13_110_528)


def test_typing_key_by_key_ends_on_the_last_value(server, page):
    """Each keystroke sends a request (debounced); a late answer to "5" or "51" must not
    overwrite the answer to "512"."""
    page.goto(f"{server.url}?source=seed-baseline")
    wait_for_total(page, 13_110_528)
    page.fill("[data-key=hidden_size]", "")
    page.locator("[data-key=hidden_size]").press_sequentially("512", delay=60)
    wait_for_total(page, paramledger.inventory("seed-baseline", hidden_size=512).total)
    page.wait_for_timeout(400)  # any straggler would have landed by now
    assert table(page)["total"] == paramledger.inventory("seed-baseline", hidden_size=512).total


def test_a_broken_link_shows_a_message_not_a_broken_page(server, page):
    page.goto(f"{server.url}?source=no-such-model&hidden_size=8")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert "source: 'no-such-model' is not a bundled name" in error.text_content()
    page.select_option("#source", "seed-shallow")  # and the page still works
    wait_for_total(page, 10_749_696)
    assert error.is_hidden()
    page.goto(f"{server.url}?hiden_size=8")
    error.wait_for(state="visible")
    assert "unknown key 'hiden_size' (did you mean 'hidden_size'?)" in error.text_content()


def test_memory_panel_follows_dtype_and_context(server, page):
    page.goto(f"{server.url}?source=seed-1.1b&num_key_value_heads=16")
    inv = paramledger.inventory("seed-1.1b", num_key_value_heads=16)
    wait_for_total(page, inv.total)
    page.select_option("[data-page=dtype]", "fp16")
    page.fill("[data-page=context]", "8192")
    report = memory_report(inv, dtype="fp16", context=8192)
    from playwright.sync_api import expect

    # Seed 002: 16 MHA heads of 128 over 24 layers at fp16, 8,192 tokens: 1,610,612,736 bytes.
    expect(page.locator("#memory tr[data-key=kv_cache] td.n")).to_have_text(format_bytes(1_610_612_736))
    expect(page.locator("#memory tr[data-key=weights] td.n")).to_have_text(format_bytes(report.weights.total))
    assert "dtype=fp16" in page.url and "context=8192" in page.url


def test_a_sliding_window_shrinks_the_kv_cache_not_the_count(server, page):
    """Gemma 2 slides every other layer: typing a window changes the KV row, never the total."""
    from playwright.sync_api import expect

    inv = paramledger.inventory("gemma-2-2b")
    page.goto(f"{server.url}?source=gemma-2-2b&context=8192")
    wait_for_total(page, inv.total)
    expect(page.locator("[data-key=sliding_window]")).to_have_value("4096")
    page.fill("[data-key=sliding_window]", "512")
    arch = paramledger.load("gemma-2-2b", sliding_window=512)
    report = memory_report(paramledger.inventory(arch), context=8192)
    row = page.locator("#memory tr[data-key=kv_cache]")
    expect(row.locator("td.n")).to_have_text(format_bytes(report.kv.bytes))
    expect(row).to_contain_text("13 of 26 layers slide, each keeping 511")
    assert "sliding_window=512" in page.url
    wait_for_total(page, inv.total)


def test_a_hybrids_linear_attention_state_has_its_own_row(server, page):
    """Two Gated DeltaNet layers of four: a fixed state beside the KV cache, and the total says it holds it."""
    from playwright.sync_api import expect

    query = ("num_hidden_layers=4&linear_attention_layers=0,2&linear_num_value_heads=4&linear_num_key_heads=2"
             "&linear_key_head_dim=32&linear_value_head_dim=32&linear_conv_kernel_dim=4")
    page.goto(f"{server.url}?{query}")
    arch = paramledger.load(BLANK_DESIGN, num_hidden_layers=4, linear_attention_layers=(0, 2), linear_num_value_heads=4,
                            linear_num_key_heads=2, linear_key_head_dim=32, linear_value_head_dim=32,
                            linear_conv_kernel_dim=4)
    inv = paramledger.inventory(arch)
    wait_for_total(page, inv.total)
    report = memory_report(inv)
    row = page.locator("#memory tr[data-key=linear_attention_state]")
    expect(row.locator("td.n")).to_have_text(format_bytes(report.kv.state_bytes))
    expect(page.locator("#memory tr[data-key=total_bytes]")).to_contain_text("weights + KV cache + state")
    expect(page.locator("#memory tr[data-key=total_bytes] td.n")).to_have_text(format_bytes(report.total_bytes))


@pytest.mark.parametrize("source", ["seed-1.1b", "gemma-2-2b", "Qwen3.5-9B", "DeepSeek-V3", "gemma-4-31B-it"])
def test_the_report_fits_the_window_and_shows_every_declared_value(page, tmp_path, source):
    """A per-layer list in the declared keys once kept its cell from wrapping: the table ran off the page
    and every value stood out of sight to the right."""
    report = write_report(paramledger.inventory(source), tmp_path / "report.html")
    page.set_viewport_size({"width": 1100, "height": 900})
    page.goto(report.as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100
    for cell in page.locator("table.architecture td:nth-child(2)").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1100, cell.text_content()


def test_screenshots_of_the_page_and_the_report(server, page, tmp_path):
    from playwright.sync_api import expect

    page.goto(f"{server.url}?source=seed-1.1b")
    wait_for_total(page, 1_128_892_416)
    expect(page.locator("#fit .verdict")).not_to_be_empty()  # the fit panel answered too
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    report = write_report(paramledger.inventory("seed-1.1b"), tmp_path / "report.html")
    page.goto(report.as_uri())
    page.set_viewport_size({"width": 1100, "height": 1400})
    page.screenshot(path=str(tmp_path / "report.png"))
    for name in ("page.png", "report.png"):
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000
        if os.environ.get("PARAMLEDGER_UPDATE_SCREENSHOTS"):
            DOCS.mkdir(exist_ok=True)
            shutil.copy(tmp_path / name, DOCS / name)
