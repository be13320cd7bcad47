"""The standalone HTML report: written whole or not at all, offline, every tensor in it."""

from __future__ import annotations

import html
import json
import math
import os
import re
import resource
import signal
import stat
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger import OptionError
from paramledger.report import calculator_rows, squarify, treemap_groups, write_report

_URL = re.compile(r"""(?:src|href|action|xlink:href)\s*=\s*["']?\s*(?:[a-z]+:)?//""", re.IGNORECASE)


@pytest.mark.parametrize(("source", "sets"), [
    ("seed-baseline", []),
    ("seed-untied", ["--set", "position_embedding_type=learned", "--set", "attention_bias=true"]),
    ("Mixtral-8x7B-v0.1", ["--set", "num_hidden_layers=4"]),
    ("gpt2", []),
])
def test_report_is_whole_offline_and_names_every_tensor(cli, tmp_path, source, sets):
    out = tmp_path / "report.html"
    status, stdout, err = cli("report", source, *sets, "-o", str(out))
    assert status == 0, err
    overrides = dict(pair.split("=", 1) for pair in sets[1::2])
    inv = paramledger.inventory(source, **overrides)
    assert stdout == f"wrote {out} ({inv.total:,} parameters, {len(inv.tensors):,} tensors)\n"
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and text.rstrip().endswith("</html>")
    assert not _URL.search(text)  # nothing to fetch: no src/href to another place
    assert "http://" not in text and "https://" not in text  # no URL at all
    assert "<script src" not in text and "<link" not in text
    page = html.unescape(text)
    for t in inv.tensors:
        assert t.name in page
    for alias in inv.aliases:
        assert alias in page
    assert f'<strong id="total">{inv.total:,}</strong>' in text
    for name, count in inv.components.items():
        assert f"<td>{name}</td><td class=\"n\">{count:,}</td>" in text
    assert text.count('<g class="group"') >= 2  # a box per run of alike layers, in each treemap
    embedded = re.search(r'<script type="application/json" id="inventory-json">(.*?)</script>', text, re.S)
    assert json.loads(embedded.group(1).replace("<\\/", "</")) == json.loads(
        cli("count", source, *sets, "--json", "--manifest")[1])
    assert not list(tmp_path.glob(".*.tmp"))


def test_report_treemap_has_q_k_v_o_ffn_and_norms_per_block():
    inv = paramledger.inventory("seed-baseline")
    groups = treemap_groups(inv)
    assert [g.label for g in groups] == ["embedding (= output head)", "layers 0–5 (6 alike)", "final norm"]
    assert [leaf.label for leaf in groups[1].leaves] == ["q", "k", "v", "o", "FFN", "norms"]
    assert sum(g.count for g in groups) == inv.total
    first_layer = {t.name for t in inv.tensors if t.layer in (None, 0)}
    assert {name for g in groups for leaf in g.leaves for name in leaf.tensors} == first_layer


def test_report_replaces_an_old_report_whole(tmp_path):
    out = tmp_path / "report.html"
    out.write_text("old")
    write_report(paramledger.inventory("seed-shallow"), out)
    assert "seed-shallow" in out.read_text()
    assert out.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.parametrize(("where", "message"), [
    ("missing/report.html", r"--output: cannot write .*missing/report.html: No such file or directory"),
    ("a-file/report.html", r"--output: cannot write .*a-file/report.html: Not a directory"),
    ("a-folder", r"--output: .*a-folder is a folder; give a file name such as report.html"),
])
def test_unwritable_output_is_one_line_exit_2_and_no_file(cli, tmp_path, where, message):
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-folder").mkdir()
    before = sorted(p.name for p in tmp_path.rglob("*"))
    status, out, err = cli("report", "seed-baseline", "-o", str(tmp_path / where))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and re.fullmatch(r"paramledger: error: " + message + "\n", err), err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    with pytest.raises(OptionError, match=message):
        write_report(paramledger.inventory("seed-baseline"), tmp_path / where)


def _limit_file_size() -> None:
    # A real write failure half-way: files may not grow past 4 kB (EFBIG, as on a full quota).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_write_that_fails_half_way_leaves_no_partial_file(tmp_path):
    out = tmp_path / "report.html"
    out.write_text("the previous report")
    process = subprocess.run([sys.executable, "-m", "paramledger", "report", "seed-1.1b", "-o", str(out)],
                             capture_output=True, text=True, preexec_fn=_limit_file_size, timeout=60)
    assert process.returncode == 2
    assert process.stderr == f"paramledger: error: --output: cannot write {out}: File too large\n"
    assert out.read_text() == "the previous report"  # untouched: no half report over it
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # and no temporary file left


def test_a_device_is_written_in_place_never_replaced(tmp_path):
    """-o /dev/stdout is the report on stdout (the "wrote" line on stderr); -o /dev/full fails in one line and
    stays a device. (Renaming a finished temporary file over it, as for a regular file, replaced /dev/full
    with a regular file when run as root.)"""
    process = subprocess.run([sys.executable, "-m", "paramledger", "report", "seed-baseline", "-o", "/dev/stdout"],
                             capture_output=True, text=True, timeout=60)
    assert process.returncode == 0
    assert process.stdout.startswith("<!doctype html>") and process.stdout.endswith("</html>\n")
    assert process.stderr.startswith("wrote /dev/stdout (")
    process = subprocess.run([sys.executable, "-m", "paramledger", "report", "seed-baseline", "-o", "/dev/full"],
                             capture_output=True, text=True, timeout=60)
    assert process.returncode == 2
    assert process.stderr == "paramledger: error: --output: cannot write /dev/full: No space left on device\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_report_needs_an_output(cli):
    status, out, err = cli("report", "seed-baseline")
    assert status == 2
    assert "the following arguments are required: -o/--output" in err


def test_report_refuses_an_unknown_source(cli, tmp_path):
    status, out, err = cli("report", "seed-basline", "-o", str(tmp_path / "r.html"))
    assert status == 2
    assert err.startswith("paramledger: error: seed-basline: not a file, a folder or a bundled model name")
    assert "did you mean 'seed-baseline'?" in err
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- the views' properties

@given(st.lists(st.integers(0, 10**12), min_size=1, max_size=40),
       st.floats(10, 2000), st.floats(10, 2000))
def test_squarify_tiles_the_box_in_proportion(values, width, height):
    rects = squarify(values, 0.0, 0.0, width, height)
    assert len(rects) == len(values)
    total = sum(values)
    slack = 1e-6 * (width + height)  # floats: drawing, not counting
    for value, (x, y, w, h) in zip(values, rects):
        assert w >= -slack and h >= -slack
        assert x >= -slack and y >= -slack and x + w <= width + slack and y + h <= height + slack
        if total:
            assert math.isclose(w * h, value * width * height / total, rel_tol=1e-6, abs_tol=1e-6)


@given(st.integers(1, 6), st.integers(1, 8).map(lambda n: 8 * n), st.integers(1, 300), st.booleans(),
       st.sampled_from(["pre", "post", "sandwich", "parallel", "none"]), st.booleans(), st.booleans())
def test_calculator_rows_partition_the_inventory(layers, width, vocab, tied, placement, gated, bias):
    inv = paramledger.inventory(paramledger.load({
        "vocab_size": vocab, "hidden_size": width, "num_hidden_layers": layers, "num_attention_heads": 2,
        "intermediate_size": 3 * width, "tie_word_embeddings": tied, "norm_placement": placement,
        "mlp_gated": gated, "attention_bias": bias, "mlp_bias": bias}))
    rows = {row.key: row.count for row in calculator_rows(inv)}
    outside = sum(c for k, c in rows.items()
                  if k not in ("attention", "ffn", "norm", "block", "blocks", "total"))
    assert rows["blocks"] + outside == rows["total"] == inv.total
    assert rows["attention"] + rows["ffn"] + rows["norm"] == rows["block"]
    assert rows["blocks"] == layers * rows["block"]
    assert rows["embedding"] == vocab * width
    assert rows["lm_head"] == (0 if tied else vocab * width)


def test_seed_001_page_rows():
    """Seed 001's table for d=4, f=8, 1 layer, vocabulary 100: 64, 64, 0, 128, 128, 400, 528."""
    from paramledger.server import BLANK_DESIGN

    rows = [(row.key, row.count) for row in calculator_rows(paramledger.inventory(paramledger.load(BLANK_DESIGN)))]
    assert rows == [("attention", 64), ("ffn", 64), ("norm", 0), ("block", 128), ("blocks", 128),
                    ("embedding", 400), ("lm_head", 0), ("total", 528)]


# ---------------------------------------------------------------- the memory section

def _memory_json(text: str) -> dict:
    embedded = re.search(r'<script type="application/json" id="memory-json">(.*?)</script>', text, re.S)
    return json.loads(embedded.group(1).replace("<\\/", "</"))


def _row(text: str, key: str) -> str:
    """The text of the report's row ``data-key=key`` (one row: the keys are unique)."""
    rows = re.findall(rf'<tr data-key="{key}"[^>]*>(.*?)</tr>', text, re.S)
    assert len(rows) == 1, (key, rows)
    return html.unescape(rows[0])


def _report(cli, tmp_path, *argv: str) -> str:
    out = tmp_path / "report.html"
    status, _, err = cli("report", *argv, "-o", str(out))
    assert status == 0, err
    return out.read_text(encoding="utf-8")


def _memory(cli, *argv: str) -> dict:
    status, stdout, err = cli("memory", *argv, "--json")
    assert status == 0, err
    return json.loads(stdout)


@pytest.mark.parametrize(("source", "options"), [
    ("seed-baseline", []),
    ("gpt2", []),
    ("gemma-2-2b", []),  # sliding layers
    ("Qwen3.5-9B", []),  # Gated DeltaNet layers: a fixed state beside the KV cache
    ("Qwen3-Next-80B-A3B-Instruct", ["--context", "4096", "--kv-dtype", "fp8_e4m3"]),
    ("gemma-2-2b", ["--context", "100000", "--kv-dtype", "fp32"]),
])
def test_report_memory_equals_paramledger_memory_json(cli, tmp_path, source, options):
    from paramledger.memory import format_bytes, memory_report, state_label, total_label
    from paramledger.report import REPORT_DTYPES

    text = _report(cli, tmp_path, source, *options)
    assert not _URL.search(text) and "http://" not in text and "https://" not in text
    reference = _memory(cli, source, *options)  # --dtype bf16, its default
    assert _memory_json(text) == reference
    kv_options = ["--kv-dtype", reference["kv_dtype"]]  # the same cache at every weight dtype
    for dtype in REPORT_DTYPES:
        status, stdout, err = cli("memory", source, *options, *kv_options, "--dtype", dtype, "--json")
        row = _row(text, f"weights_{dtype}")
        if status == 2:  # the dtype refuses the design: the row says why, as the CLI does
            assert err.removeprefix("paramledger: error: ").strip() in row
            continue
        expected = json.loads(stdout)
        assert format_bytes(expected["weights_bytes"]) in row
        assert format_bytes(expected["total_bytes"]) in row
    per_token = _row(text, "kv_per_token")
    assert f"{reference['kv_values_per_token']:,} values = {reference['kv_bytes_per_token']:,} bytes" in per_token
    assert f"at {reference['kv_dtype']}" in per_token
    assert f"1 × {reference['context']:,} tokens" in _row(text, "kv_cache")
    assert format_bytes(reference["kv_cache_bytes"]) in _row(text, "kv_cache")
    assert reference["kv_definition"] in _row(text, "kv_cache")
    kv = memory_report(source, context=reference["context"], kv_dtype=reference["kv_dtype"]).kv
    if reference["linear_attention_state_bytes"]:
        assert _row(text, "linear_attention_state").startswith(f"<td>{state_label(kv)}</td>")
        assert format_bytes(reference["linear_attention_state_bytes"]) in _row(text, "linear_attention_state")
    else:
        assert 'data-key="linear_attention_state"' not in text
    total = _row(text, "total_bytes")
    # the weights as `paramledger memory` sizes them by default: as the config stores them (issue #18)
    weights = "weights as stored" if reference["weights_as"] == "stored" else "weights at bf16"  # a design: bf16
    assert total.startswith(f"<td>total ({total_label(kv)}), {weights}</td>")
    assert format_bytes(reference["total_bytes"]) in total


def test_report_memory_defaults_are_paramledger_memory_defaults(cli, tmp_path):
    """No --context: max_position_embeddings (GPT-2's 1,024), as `paramledger memory`; the cache at bf16."""
    from paramledger.memory import format_bytes

    reference = _memory(cli, "gpt2")
    assert (reference["context"], reference["kv_dtype"]) == (1024, "bf16")
    text = _report(cli, tmp_path, "gpt2")
    assert _memory_json(text) == reference
    assert "1 × 1,024 tokens (max_position_embeddings, the default of paramledger memory) at bf16" in text
    # the fp32 row's total adds the same bf16 cache, not an fp32 one (memory's default for --dtype fp32)
    fp32 = _memory(cli, "gpt2", "--dtype", "fp32", "--kv-dtype", "bf16")
    assert fp32["total_bytes"] == fp32["weights_bytes"] + reference["kv_cache_bytes"]
    assert format_bytes(fp32["total_bytes"]) in _row(text, "weights_fp32")


def test_report_context_and_kv_dtype_change_the_cache(cli, tmp_path):
    default = _memory_json(_report(cli, tmp_path, "seed-1.1b"))
    text = _report(cli, tmp_path, "seed-1.1b", "--context", "8192", "--kv-dtype", "fp16")
    changed = _memory_json(text)
    assert changed == _memory(cli, "seed-1.1b", "--context", "8192", "--kv-dtype", "fp16")
    assert (default["context"], default["kv_dtype"]) == (2048, "bf16")
    assert (changed["context"], changed["kv_dtype"]) == (8192, "fp16")
    # seed 002 with 4 KV heads: 24,576 values per token × 2 bytes × 8,192 tokens
    assert changed["kv_values_per_token"] == 24_576
    assert changed["kv_cache_bytes"] == 24_576 * 2 * 8192 == 402_653_184
    assert "402,653,184 bytes (402.65 MB, 384.00 MiB)" in _row(text, "kv_cache")
    assert changed["kv_cache_bytes"] == 4 * default["kv_cache_bytes"]
    assert changed["weights_bytes"] == default["weights_bytes"]  # the weights stay as they were
    fp8 = _memory_json(_report(cli, tmp_path, "seed-1.1b", "--kv-dtype", "fp8_e4m3"))
    assert fp8["kv_bytes_per_token"] * 2 == default["kv_bytes_per_token"]


def test_report_memory_of_a_dtype_the_design_refuses_says_why(cli, tmp_path):
    """int4's 128-value groups do not divide Qwen3-Next's conv kernel of 4: that row gives the CLI's refusal,
    the other rows stand."""
    text = _report(cli, tmp_path, "Qwen3-Next-80B-A3B-Instruct")
    status, _, err = cli("memory", "Qwen3-Next-80B-A3B-Instruct", "--dtype", "int4")
    assert status == 2
    assert err.startswith("paramledger: error: group-size: 128 does not divide the last dimension (4) of "
                          "model.layers.0.linear_attn.conv1d.weight")
    cells = re.findall(r"<td[^>]*>(.*?)</td>", _row(text, "weights_int4"))
    assert cells[:3] == ["int4", err.removeprefix("paramledger: error: ").rstrip("\n"), ""]
    assert "bytes (" in _row(text, "weights_int8")


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--kv-dtype", "int4", r"kv-dtype: int4 is a group-quantized weight format; the KV cache takes fp32, .*"),
    ("--kv-dtype", "fp7", r"kv-dtype: unknown dtype 'fp7'.*; one of fp32, .*"),
    ("--context", "-8", r"context: must be a whole number of at least 1, got -8"),
    ("--context", "0", r"context: must be a whole number of at least 1, got 0"),
])
def test_report_bad_memory_option_is_one_line_exit_2_and_no_file(cli, tmp_path, option, value, message):
    out = tmp_path / "report.html"
    status, stdout, err = cli("report", "seed-baseline", option, value, "-o", str(out))
    assert status == 2
    assert stdout == ""
    assert err.count("\n") == 1 and re.fullmatch(r"paramledger: error: " + message + "\n", err), err
    assert not list(tmp_path.iterdir())
    options = {"context": int(value)} if option == "--context" else {"kv_dtype": value}
    with pytest.raises(OptionError, match=message):
        write_report(paramledger.inventory("seed-baseline"), out, **options)
    assert not list(tmp_path.iterdir())


def test_report_context_that_is_not_a_number_is_argparse_usage_exit_2(cli, tmp_path):
    status, stdout, err = cli("report", "seed-baseline", "--context", "many", "-o", str(tmp_path / "r.html"))
    assert status == 2
    assert err == ("paramledger report: error: argument --context: expected a token count like 20000000, 128k or 20M, "
                   "got 'many'\n")
    assert not list(tmp_path.iterdir())


def test_report_of_tensors_without_an_architecture_has_weights_but_no_cache():
    import dataclasses

    from paramledger.memory import format_bytes, weight_bytes
    from paramledger.report import report_html

    inv = dataclasses.replace(paramledger.inventory("gpt2"), architecture=None)
    text = report_html(inv)
    for dtype in ("fp32", "bf16", "int8", "int4"):
        assert format_bytes(weight_bytes(inv, dtype).total) in _row(text, f"weights_{dtype}")
    assert "No KV cache: this inventory has no architecture" in text
    assert 'id="memory-json"' not in text and 'data-key="kv_cache"' not in text
