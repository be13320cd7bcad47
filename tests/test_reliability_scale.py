"""Issue 23: a design of 10^6 layers is answered in bounded time and memory by every command and the API,
each run in a child of its own (its peak RSS its own VmHWM, so no other run's peak is counted).  Per-layer
work happens only where names are printed, grouped ("model.layers.{0-999999}...") past a printable size.

The bounds are loose for CI (10 s, 300 MB); on the machine this was written on each run takes 0.2-1.4 s
and 40-160 MB, the hybrid's compare 3 s and 240 MB."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from test_reliability_inputs import _CHILD, llama_config, write_config

LAYERS = "num_hidden_layers=1000000"
SECONDS, MEGABYTES = 10, 300


def bounded(tmp_path: Path, *argv: str, child: str = _CHILD) -> str:
    """``paramledger argv`` (or ``child``, a script given the file for its peak RSS and ``argv``) in a fresh
    child: exit status 0 within SECONDS and MEGABYTES of peak RSS (the child's VmHWM, which exec resets:
    ru_maxrss would keep the forking test process's peak); its stdout."""
    rss = tmp_path / "rss"
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-c", child, str(rss), *argv], capture_output=True, text=True, check=False,
                         timeout=SECONDS, cwd=tmp_path)
    elapsed = time.monotonic() - start
    assert run.returncode == 0, run.stderr[-2000:]
    assert elapsed < SECONDS, f"{elapsed:.1f} s"
    assert int(rss.read_text()) < MEGABYTES * 1024, f"peak RSS {int(rss.read_text()) // 1024} MB"
    return run.stdout


@pytest.fixture(scope="module")
def deep(tmp_path_factory) -> str:
    """seed-baseline at 10^6 layers as a spec file, so that compare's A is deep too."""
    spec = Path(__file__).parents[1] / "src" / "paramledger" / "designs" / "seed-baseline.toml"
    path = tmp_path_factory.mktemp("deep") / "deep.toml"
    path.write_text(spec.read_text().replace("num_hidden_layers = 6", "num_hidden_layers = 1000000"))
    return str(path)


def test_count(tmp_path):
    out = bounded(tmp_path, "count", "seed-baseline", "--set", LAYERS)
    assert "1000000 layers" in out and "786,952,388,864" in out


def test_count_json(tmp_path):
    data = json.loads(bounded(tmp_path, "count", "seed-baseline", "--set", LAYERS, "--json"))
    assert data["total"] == 786_952_388_864 and data["by_layer"] == {"outside": 8_388_864, "0-999999": 786_944}


def test_count_manifest_groups_the_layers(tmp_path):
    out = bounded(tmp_path, "count", "seed-baseline", "--set", LAYERS, "--manifest")
    assert "past 10,000 layers each run of identical layers is one row per tensor" in out
    row = r"\nmodel\.layers\.\{0-999999\}\.mlp\.up_proj\.weight +1024 × 256 +262,144 +ffn +0–999,999\n"
    assert re.search(row, out)
    assert len(out.splitlines()) < 40
    data = json.loads(bounded(tmp_path, "count", "seed-baseline", "--set", LAYERS, "--manifest", "--json"))
    assert {"name": "model.layers.{0-999999}.mlp.up_proj.weight", "shape": [1024, 256], "count": 262_144,
            "component": "ffn", "layers": "0-999999", "frozen": False, "aliases": []} in data["tensors"]
    assert sum(t["count"] * _layers(t) if "layers" in t else t["count"] for t in data["tensors"]) == data["total"]


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_memory(tmp_path, json_flag):
    bounded(tmp_path, "memory", "seed-baseline", "--set", LAYERS, *json_flag)


def test_whatif(tmp_path):
    assert "+786,939,278,336" in bounded(tmp_path, "whatif", "seed-baseline", "--vary", LAYERS)


def test_fit(tmp_path):
    # each kind of layer placed once (fit/_rows.py): 10^6 layers took over 200 s and 4.5 GB tensor by tensor
    data = json.loads(bounded(tmp_path, "fit", "seed-baseline", "--set", LAYERS, "--gpu-memory", "4TB", "--pp", "2",
                              "--json"))
    assert data["fits"] and len(data["per_device"]) == 2


def test_formula(tmp_path):
    pytest.importorskip("sympy")
    bounded(tmp_path, "formula", "seed-baseline", "--set", LAYERS)


def test_compare_tensors_groups_the_layers_added(tmp_path):
    out = bounded(tmp_path, "compare", "seed-baseline", "seed-baseline", "--set", LAYERS, "--tensors")
    assert "added (7999952 tensors, 786,939,278,336 parameters):" in out
    assert "  model.layers.{6-999999}.mlp.up_proj.weight  1024 × 256  262,144 each (999,994 layers)" in out
    assert len(out.splitlines()) < 20


def test_compare_tensors_of_different_depths_and_widths(tmp_path, deep):
    out = bounded(tmp_path, "compare", deep, "seed-narrow", "--set", "num_hidden_layers=1000002", "--tensors")
    assert ("  model.layers.{0-999999}.mlp.up_proj.weight  1024 × 256 -> 512 × 128  −196,608 each "
            "(1,000,000 layers)") in out
    assert "  model.layers.{1000000-1000001}.mlp.up_proj.weight  512 × 128  65,536 each (2 layers)" in out
    assert "tensors: identical" in bounded(tmp_path, "compare", deep, deep, "--tensors")


def test_compare_tensors_json_groups_past_10000_layers(tmp_path, deep):
    data = json.loads(bounded(tmp_path, "compare", deep, "seed-narrow", "--set", "num_hidden_layers=1000002",
                              "--tensors", "--json"))
    tensors = data["tensors"]
    assert {"name": "model.layers.{1000000-1000001}.mlp.up_proj.weight", "shape": [512, 128], "count": 65_536,
            "layers": "1000000-1000001"} in tensors["added"]
    assert {"name": "model.layers.{0-999999}.mlp.up_proj.weight", "from": [1024, 256], "to": [512, 128],
            "delta": -196_608, "layers": "0-999999"} in tensors["reshaped"]
    deltas = sum(e["delta"] * _layers(e) for e in tensors["reshaped"])
    added = sum(e["count"] * _layers(e) for e in tensors["added"])
    assert deltas + added == data["delta"]


def _layers(entry: dict) -> int:
    first, _, last = entry.get("layers", "0").partition("-")
    return int(last or first) - int(first) + 1


def test_report_is_a_useful_page(tmp_path):
    bounded(tmp_path, "report", "seed-baseline", "--set", LAYERS, "-o", "r.html")
    text = (tmp_path / "r.html").read_text()
    assert len(text) < 200_000
    assert 'id="total">786,952,388,864<' in text and "Manifest: every tensor (8,000,002)" in text
    assert "model.layers.{0-999999}.mlp.up_proj.weight" in text and "layers 0–999999 (1000000 alike)" in text
    data = json.loads(re.search(r'id="inventory-json">(.*?)</script>', text, re.DOTALL).group(1))
    assert {"name": "model.layers.{0-999999}.mlp.up_proj.weight", "shape": [1024, 256], "count": 262_144,
            "component": "ffn", "layers": "0-999999", "frozen": False, "aliases": []} in data["tensors"]
    assert sum(t["count"] * _layers(t) if "layers" in t else t["count"] for t in data["tensors"]) == data["total"]


# The API: a server in the child, one request.  The page bounds depth at 10^6 layers (server.MAX_REPEATS):
# one more is refused at once, the bound itself is answered.
_REQUEST = textwrap.dedent("""
    import sys, threading, urllib.error, urllib.request
    from paramledger.server import make_server
    server = make_server(quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    body = open(sys.argv[3], "rb").read() if len(sys.argv) > 3 else None
    try:
        reply = urllib.request.urlopen(urllib.request.Request(server.url + sys.argv[2], data=body), timeout=20)
        print(reply.status, reply.read().decode())
    except urllib.error.HTTPError as error:
        print(error.code, error.read().decode())
    with open("/proc/self/status") as status, open(sys.argv[1], "w") as out:
        out.write(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
""")
ROUTES = ["count", "count?manifest=true", "view", "memory", "fit?gpu=h100", "fit/view?gpu=h100"]


def ask(tmp_path: Path, path: str, config: dict | None = None) -> tuple[int, dict]:
    argv = [path]
    if config is not None:
        write_config(tmp_path / "pasted", json.dumps(config))
        argv.append(str(tmp_path / "pasted" / "config.json"))
    status, _, body = bounded(tmp_path, *argv, child=_REQUEST).partition(" ")
    return int(status), json.loads(body)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("layers, answered", [(1_000_001, False), (1_000_000, True)])
def test_api(tmp_path, route, layers, answered):
    name, _, query = route.partition("?")
    status, body = ask(tmp_path, f"api/{name}?source=seed-baseline&num_hidden_layers={layers}"
                                 + (f"&{query}" if query else ""))
    assert status == (200 if answered else 400), body
    assert answered or "above the page's bound of 1,000,000" in body["error"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("layers, answered", [(1_000_001, False), (1_000_000, True)])
def test_api_pasted(tmp_path, route, layers, answered):
    name, _, query = route.partition("?")
    config = {**llama_config(), "num_hidden_layers": layers}
    status, body = ask(tmp_path, f"api/paste/{name}" + (f"?{query}" if query else ""), config)
    assert status == (200 if answered else 400), body


def test_compare_tensors_of_a_hybrid_groups_each_kind_of_layer(tmp_path):
    """Qwen3-Next alternates three linear-attention layers and one full: past 2,000 runs each kind is one line."""
    model = "Qwen3-Next-80B-A3B-Instruct"
    out = bounded(tmp_path, "compare", model, model, "--set", LAYERS, "--tensors")
    assert ("  model.layers.{51-999999, 249,988 runs}.self_attn.q_proj.weight  8192 × 2048  16,777,216 each "
            "(249,988 layers)") in out
    assert len(out.splitlines()) < 60


def test_kinds_of_layers_account_for_every_tensor(monkeypatch):
    """The grouping by kind that a deep hybrid gets, forced on a small one: the same tensors, the same sums."""
    import paramledger
    from paramledger import report, tensor_diff, treemap, whatif

    base = paramledger.inventory(paramledger.load("Qwen3-Next-80B-A3B-Instruct", num_hidden_layers=2))
    other = paramledger.inventory(paramledger.load("Qwen3-Next-80B-A3B-Instruct", num_hidden_layers=13))
    row = whatif.compare(base, other)
    flat = {t.name for t in row.tensor_diff().added}
    monkeypatch.setattr(tensor_diff, "LISTED_RUNS", 2)
    diff = row.tensor_diff()
    assert {t.name for t in diff.added} == flat and diff.delta == row.delta
    assert "model.layers.{3-11, 3 runs}.self_attn.q_proj.weight" in whatif.tensor_diff_text(diff)
    monkeypatch.setattr(treemap, "LISTED_RUNS", 2)
    groups = treemap.treemap_groups(other)
    assert [g.label for g in groups if g.layers] == ["layers 0–12, 4 runs (10 alike)",
                                                     "layers 3–11, 3 runs (3 alike)"]
    assert sum(g.count for g in groups) == other.total
    blocks = {r.key: r.count for r in report.calculator_rows(other)}["blocks"]
    assert blocks == sum(other.by_layer[i] for i in range(13))
