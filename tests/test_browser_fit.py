"""The fit panel in a real browser (Debian's chromium through Playwright, test_browser.py's fixtures).

Pick a GPU, move the context slider, and the verdict must follow the library's plan for the design the page
shows: Llama-3.1-70B at int4 fits one H100 at 64k tokens, not at 128k, and fits two at 128k.  The panel must
read on a 390 px phone without sideways scrolling, and no script error may reach the console (the page
fixture fails the test on one).  PARAMLEDGER_UPDATE_SCREENSHOTS=1 copies the panel's screenshots to docs/.
"""

# ruff: noqa: F811 -- test_browser.py's browser and page fixtures, imported, are redefined as each test's argument
from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect
from test_browser import CHROMIUM, DOCS, browser, page, wait_for_total  # noqa: F401 (fixtures)

import paramledger
from paramledger.fit import fit_plan, plan_json
from paramledger.server_fit import _short

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium (/usr/bin/chromium) is not installed")

LLAMA = "Llama-3.1-70B"


@pytest.fixture(scope="module")
def llama():
    return paramledger.inventory(LLAMA)


def verdict(page, text: str) -> None:
    expect(page.locator("#fit .verdict")).to_contain_text(text)


def device_total(page) -> str:
    return page.locator("#fit .device tr[data-key=total] td.n").first.text_content()


def open_llama(server, page, query: str = "") -> None:
    page.goto(f"{server.url}?source={LLAMA}&dtype=int4{query}")
    expect(page.locator("#fit")).to_be_visible()
    expect(page.locator("#fit .verdict")).not_to_be_empty()


def test_the_slider_and_the_gpus_turn_the_verdict(server, page, llama):
    open_llama(server, page)
    page.select_option("#fit [data-fit=gpu]", "h100")
    slider = page.locator("#fit-context")
    # 16 .. max_position_embeddings in KV blocks of 16 tokens
    assert slider.evaluate("s => [s.min, s.max, s.step]") == ["16", "131072", "16"]
    slider.fill("65536")
    plan = plan_json(fit_plan(llama, gpu="h100", dtype="int4", context=65536))
    assert plan["fits"]
    verdict(page, f"fits: {_short(plan['per_device'][0]['total_bytes'])} of 85.52 GB")
    expect(page.locator("#fit .device tr[data-key=kv_cache] td.n")).to_have_text(
        _short(plan["per_device"][0]["kv_cache_bytes"]))
    expect(page.locator("#fit .reach-text")).to_have_text("longest context that fits at batch 1: 117,840 tokens")
    # the memory panel shows the same context: one choice, two controls
    expect(page.locator("#memory input[data-page=context]")).to_have_value("65536")

    # drag the thumb to the right end, as a hand would: 131,072 tokens do not fit
    box = slider.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] + 40, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    expect(slider).to_have_value("131072")
    over = plan_json(fit_plan(llama, gpu="h100", dtype="int4", context=131072))
    assert not over["fits"]
    verdict(page, f"does not fit: {_short(over['per_device'][0]['total_bytes'])} of 85.52 GB")
    suggestions = page.locator("#fit .suggestions li")
    expect(suggestions).to_have_text(over["suggestions"])  # planned with suggestions once the thumb is let go
    assert "--tp 2 (2 devices)" in over["suggestions"]
    assert "context=131072" in page.url and "gpu=h100" in page.url

    page.fill("#fit [data-fit=tp]", "2")
    two = plan_json(fit_plan(llama, gpu="h100", tp=2, dtype="int4", context=131072))
    verdict(page, f"fits: {_short(two['per_device'][0]['total_bytes'])} of 85.52 GB")
    expect(page.locator("#fit .device h3")).to_have_text("stage 0, tp ranks 0-1, each: layers 0-79")
    expect(suggestions).to_have_count(0)
    assert "tp=2" in page.url


def test_the_keyboard_moves_the_slider_one_block(server, page, llama):
    open_llama(server, page, "&gpu=h100&context=65536")
    verdict(page, "fits")
    page.focus("#fit-context")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#fit-context")).to_have_value(str(65536 + 16))
    plan = plan_json(fit_plan(llama, gpu="h100", dtype="int4", context=65536 + 16))
    expect(page.locator("#fit .device tr[data-key=kv_cache] td.n")).to_have_text(
        _short(plan["per_device"][0]["kv_cache_bytes"]))
    expect(page.locator("#fit .setup")).to_contain_text("65,552 tokens × batch 1")


def test_a_shared_link_restores_the_panel(server, page, llama):
    open_llama(server, page, "&gpu=a100-80gb&tp=2&context=131072&batch=2&kv_dtype=fp8_e4m3")
    plan = plan_json(fit_plan(llama, gpu="a100-80gb", tp=2, dtype="int4", context=131072, batch=2,
                              kv_dtype="fp8_e4m3"))
    verdict(page, ("fits: " if plan["fits"] else "does not fit: ") + _short(plan["per_device"][0]["total_bytes"]))
    assert page.input_value("#fit [data-fit=gpu]") == "a100-80gb"
    assert page.input_value("#fit [data-fit=tp]") == "2"
    assert page.input_value("#fit [data-page=kv_dtype]") == "fp8_e4m3"
    assert page.input_value("#fit [data-page=dtype]") == "int4"
    assert page.input_value("#fit [data-page=batch]") == "2"
    assert page.input_value("#fit-context") == "131072"
    expect(page.locator("#fit .batch")).to_have_text(f"largest batch at 131,072 tokens: {plan['max_batch']:,}")


def test_a_refused_split_is_the_librarys_line_in_the_panel(server, page):
    open_llama(server, page, "&gpu=h100&context=65536")
    verdict(page, "fits")
    page.fill("#fit [data-fit=tp]", "3")
    problem = page.locator("#fit .problem")
    expect(problem).to_have_text("--tp: 3 does not divide num_attention_heads 64; vLLM refuses it "
                                 "(vllm/config/model.py ModelConfig.verify_with_parallel_config)")
    assert "invalid" in page.get_attribute("#fit [data-fit=tp]", "class")
    verdict(page, "fits")  # the last good verdict stays, dimmed
    page.fill("#fit [data-fit=tp]", "2")
    expect(problem).to_be_hidden()
    assert "invalid" not in (page.get_attribute("#fit [data-fit=tp]", "class") or "")


def test_a_memory_size_of_ones_own(server, page):
    page.goto(f"{server.url}?source=gemma-2-2b&context=8192")
    wait_for_total(page, paramledger.inventory("gemma-2-2b").total)
    expect(page.locator("#fit .verdict")).not_to_be_empty()
    expect(page.locator("#fit .custom")).to_be_hidden()
    page.select_option("#fit [data-fit=gpu]", "")
    expect(page.locator("#fit .custom")).to_be_visible()
    page.fill("#fit [data-fit=gpu_memory]", "6GB")
    plan = plan_json(fit_plan(paramledger.inventory("gemma-2-2b"), gpu_memory=6 * 10**9, context=8192))
    verdict(page, ("fits: " if plan["fits"] else "does not fit: ") + f"{_short(plan['per_device'][0]['total_bytes'])}"
            " of 6.00 GB")
    assert "gpu_memory=6GB" in page.url and "gpu=&" in page.url + "&"


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("source", [LLAMA, "DeepSeek-V3", "Qwen3.5-9B", "gemma-4-31B-it"])
def test_the_page_fits_the_screen_with_the_panel(server, page, width, source):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}?source={source}&gpu=h100&tp=2&context=32768")
    expect(page.locator("#fit .device").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for element in page.locator("#fit .controls label:visible, #fit .device, #fit .verdict").all():
        box = element.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, element.text_content()


def test_screenshots_of_the_fit_panel(server, page, tmp_path):
    for width, name in ((390, "page-fit.png"), (1280, "page-fit-desktop.png")):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{server.url}?source={LLAMA}&dtype=int4&gpu=h100&context=131072")
        expect(page.locator("#fit .suggestions li").first).to_be_visible()
        page.locator("#fit").screenshot(path=str(tmp_path / name))
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000
        if os.environ.get("PARAMLEDGER_UPDATE_SCREENSHOTS"):
            DOCS.mkdir(exist_ok=True)
            shutil.copy(tmp_path / name, DOCS / name)
