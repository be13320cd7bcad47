"""Sweeps: the vectorized grid equals the per-point engine; every refusal has its message."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_formula import architectures

import paramledger
from paramledger import OptionError
from paramledger.sweep import compile_where, engine_row, parse_axis, plan, sweep

MOE_SPEC = """\
vocab_size = 5000
hidden_size = 96
num_hidden_layers = 4
num_attention_heads = 6
num_key_value_heads = 2
mlp_gated = true
intermediate_size = 256
num_experts = 8
num_experts_per_tok = 2
moe_intermediate_size = 48
n_shared_experts = 1
mlp_only_layers = [0]
tie_word_embeddings = false
"""
RATIO_SPEC = """\
vocab_size = 32000
hidden_size = 512
num_hidden_layers = 8
num_attention_heads = 8
intermediate_ratio = "8/3"
intermediate_multiple_of = 256
mlp_gated = true
"""
MLA_SPEC = """\
vocab_size = 1000
hidden_size = 64
num_hidden_layers = 3
num_attention_heads = 4
q_lora_rank = 24
kv_lora_rank = 16
qk_nope_head_dim = 8
qk_rope_head_dim = 4
v_head_dim = 8
intermediate_size = 128
"""


@pytest.fixture
def spec(tmp_path):
    def write(text: str, name: str = "design.toml") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


def _check_sample(result, count: int = 40, seed: int = 0) -> None:
    """A random sample of kept points equals the inventory engine, column by column."""
    rng = random.Random(seed)
    keys = [axis.key for axis in result.plan.axes]
    assert result.kept > 0
    for i in rng.sample(range(result.kept), min(count, result.kept)):
        point = {key: int(result.columns[key][i]) for key in keys}
        expected = engine_row(result.plan, point)
        assert expected is not None, point
        got = {name: result.columns[name][i].item() for name in result.plan.columns}
        assert got == expected, point


def test_seed_grid_equals_the_engine():
    result = sweep("seed-baseline", ["hidden_size=64:512:16", "num_hidden_layers=1:24", "vocab_size=1000:64000:3000"])
    assert result.points == result.kept == 29 * 24 * 22
    assert not result.python_ints
    _check_sample(result)
    # the seed's own point is on the grid
    at = np.flatnonzero((result.columns["hidden_size"] == 256) & (result.columns["num_hidden_layers"] == 6)
                        & (result.columns["vocab_size"] == 31000))
    assert result.columns["total"][at].item() == paramledger.inventory("seed-baseline", vocab_size=31000).total


def test_moe_grid_equals_the_engine(spec):
    result = sweep(spec(MOE_SPEC), ["num_hidden_layers=1:8", "num_experts=2:16:2", "moe_intermediate_size=16:64:16"])
    # num_experts_per_tok = 2 fits every count; layer 0 stays dense at every depth
    _check_sample(result, count=60)
    routed = (result.columns["num_hidden_layers"] > 1) & (result.columns["num_experts"] > 2)
    assert (result.columns["active"][routed] < result.columns["total"][routed]).all()
    assert (result.columns["active"][~routed] == result.columns["total"][~routed]).all()


def test_ratio_coupling_follows_the_width(spec):
    result = sweep(spec(RATIO_SPEC), ["hidden_size=256:1024:8"])
    _check_sample(result, count=30)
    assert not result.invalid


def test_mla_grid_equals_the_engine(spec):
    result = sweep(spec(MLA_SPEC), ["kv_lora_rank=8:64:8", "qk_rope_head_dim=0:8:2", "hidden_size=60:68:1"])
    assert not result.invalid  # MLA does not divide the width by the heads
    _check_sample(result, count=40)


def test_points_the_architecture_refuses_are_counted():
    result = sweep("seed-baseline", ["num_attention_heads=1:8", "hidden_size=250:256"])
    assert result.points == 56
    assert result.invalid == {"num_attention_heads does not divide hidden_size": 56 - result.kept}
    for heads, width in zip(result.columns["num_attention_heads"], result.columns["hidden_size"]):
        assert width % heads == 0
    _check_sample(result)


def test_kv_heads_must_divide_heads(spec):
    result = sweep(spec(MOE_SPEC), ["num_key_value_heads=1:6"])
    assert list(result.columns["num_key_value_heads"]) == [1, 2, 3, 6]
    assert result.invalid == {"num_key_value_heads does not divide num_attention_heads": 2}
    _check_sample(result)


def test_where_filters_exactly():
    result = sweep("seed-baseline", ["num_hidden_layers=1:48", "hidden_size=128:1024:128"],
                   where="total <= 20e6 and embedding_share < 0.5 or kv_bytes_per_token == 1024")
    totals, shares, kv = (result.columns[k] for k in ("total", "embedding_share", "kv_bytes_per_token"))
    assert (((totals <= 20_000_000) & (shares < 0.5)) | (kv == 1024)).all()
    everything = sweep("seed-baseline", ["num_hidden_layers=1:48", "hidden_size=128:1024:128"])
    expected = (((everything.columns["total"] <= 20e6) & (everything.columns["embedding_share"] < 0.5))
                | (everything.columns["kv_bytes_per_token"] == 1024)).sum()
    assert result.kept == expected > 0


def test_kv_bytes_per_token_is_the_stated_formula():
    result = sweep("seed-1.1b", ["num_hidden_layers=24:24"])
    # seed 002: 24 layers × 4 KV heads × 128 → 24,576 values per token (K and V), 2 bytes each
    assert result.columns["kv_bytes_per_token"].item() == 24_576 * 2


def test_narrow_value_heads_in_the_kv_column(spec):
    """v_head_dim without MLA (MiMo-V2-Flash's layout): a key of head_dim, a value of v_head_dim."""
    design = ("vocab_size = 100\nhidden_size = 64\nnum_hidden_layers = 2\nnum_attention_heads = 4\n"
              "num_key_value_heads = 2\nv_head_dim = 8\nmlp_gated = true\n")
    result = sweep(spec(design), ["num_hidden_layers=1:6", "hidden_size=32:128:32"])
    _check_sample(result, count=20)
    at = np.flatnonzero((result.columns["num_hidden_layers"] == 3) & (result.columns["hidden_size"] == 64))
    assert result.columns["kv_bytes_per_token"][at].item() == 3 * 2 * (16 + 8) * 2  # L × h_kv × (d + d_v) × bf16


def test_beyond_int64_falls_back_to_python_ints():
    result = sweep("seed-baseline", ["vocab_size=4000000000000:4000000000002", "hidden_size=4000000:4000000"])
    assert result.python_ints
    arch = paramledger.load("seed-baseline").replace(vocab_size=4_000_000_000_001, hidden_size=4_000_000)
    assert result.columns["total"][1] == paramledger.inventory(arch).total > 2**63


def test_where_language():
    where = compile_where("-total + 2 * embedding > 0 and total / 2 >= 1_000 or total != total",
                          ["total", "embedding"])
    mask = where({"total": np.array([10, 4000]), "embedding": np.array([6, 1000])})
    assert list(mask) == [False, False]
    assert list(compile_where("1 < total < 5", ["total"])({"total": np.array([0, 3, 9])})) == [False, True, False]


@pytest.mark.parametrize("expression, message", [
    ("__import__('os').system('true')", r"--where: \"__import__\('os'\).system\('true'\)\" is not allowed"),
    ("total.real > 3", r"--where: 'total.real' is not allowed: only column names"),
    ("total ** 2 > 3", r"--where: 'total \*\* 2' is not allowed"),
    ("total > 'a'", r"--where: \"'a'\" is not allowed"),
    ("[total][0] > 1", r"is not allowed"),
    ("(lambda: 1)() > 0", r"is not allowed"),
    ("not total > 1", r"--where: 'not total > 1' is not allowed"),
    ("totl > 1", r"--where: unknown column 'totl' \(did you mean 'total'\?\)"),
    ("total", r"--where: 'total' is not a condition"),
    ("total >", r"--where: cannot parse 'total >'"),
])
def test_unsafe_or_bad_where_is_refused(expression, message):
    with pytest.raises(OptionError, match=message):
        compile_where(expression, ["total", "embedding_share"])


@pytest.mark.parametrize("text, message", [
    ("hidden_size", r"--grid: expected KEY=START:STOP\[:STEP\], got 'hidden_size'"),
    ("hidden_size=1:2:3:4", r"--grid: expected KEY=START:STOP\[:STEP\]"),
    ("hidden_size=a:b", r"--grid: START, STOP and STEP must be whole numbers"),
    ("hidden_size=1:10:0", r"--grid: hidden_size: STEP must not be 0"),
    ("hidden_size=1:10:-1", r"--grid: hidden_size: STEP must be positive"),
    ("hidden_size=10:1", r"--grid: hidden_size: START 10 is above STOP 1"),
    ("hidden_size=0:10", r"--grid: hidden_size: START must be at least 1"),
    ("hiden_size=1:10", r"--grid: hiden_size: unknown key \(did you mean 'hidden_size'\?\)"),
    ("tie_word_embeddings=0:1", r"--grid: tie_word_embeddings cannot be swept \(not a size\)"),
    ("vocab_size=1:10000000000000000000", r"--grid: vocab_size: STOP 10,000,000,000,000,000,000 is beyond"),
])
def test_bad_axes(text, message):
    with pytest.raises(OptionError, match=message):
        parse_axis(text)


def test_grid_too_large_is_refused_before_any_work():
    with pytest.raises(OptionError, match=r"--grid: 100,000,000 points is more than the 50,000,000 a sweep"):
        plan("seed-baseline", ["hidden_size=1:10000", "num_hidden_layers=1:10000"])


def test_switching_keys_are_refused():
    with pytest.raises(OptionError, match=r"--grid: num_experts would switch seed-baseline to another kind"):
        plan("seed-baseline", ["num_experts=1:4"])


def test_same_key_twice_is_refused():
    with pytest.raises(OptionError, match=r"--grid: hidden_size is swept twice"):
        plan("seed-baseline", ["hidden_size=1:4", "hidden_size=5:8"])


@pytest.mark.parametrize("args, message", [
    (["--grid", "hidden_size=1:10:0"], "paramledger: error: --grid: hidden_size: STEP must not be 0"),
    (["--grid", "hidden_size=10:1"], "paramledger: error: --grid: hidden_size: START 10 is above STOP 1"),
    (["--grid", "hiden_size=1:10"],
     "paramledger: error: --grid: hiden_size: unknown key (did you mean 'hidden_size'?)"),
    (["--grid", "hidden_size=1:100000", "--grid", "num_hidden_layers=1:1000"],
     "paramledger: error: --grid: 100,000,000 points is more than the 50,000,000"),
    (["--grid", "hidden_size=4:8", "--where", "__import__('os')"],
     "paramledger: error: --where: \"__import__('os')\" is not allowed"),
    (["--grid", "hidden_size=4:8", "--where", "total"], "paramledger: error: --where: 'total' is not a condition"),
    ([], "paramledger: error: --grid: give at least one axis"),
    (["--grid", "hidden_size=4:8", "-o", "out.txt"], "paramledger: error: -o: cannot tell the format of 'out.txt'"),
    (["--grid", "hidden_size=4:8", "--plot", "out.gif"],
     "paramledger: error: --plot: 'out.gif': the file must end in .png or .svg"),
])
def test_sweep_cli_refusals(cli, args, message):
    status, out, err = cli("sweep", "seed-baseline", *args)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_sweep_cli_table(cli):
    status, out, err = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=1:48", "--where", "total <= 20e6")
    assert status == 0, err
    assert "13,110,528" in out and "63.9838 %" in out
    assert "48 points evaluated (num_hidden_layers=1:48:1); 14 kept by --where 'total <= 20e6'" in out
    assert "more points" not in out
    status, out, _ = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=1:48")
    assert "... 28 more points (use --csv, --json or -o FILE for all of them)" in out


def test_sweep_cli_csv_and_json(cli, tmp_path):
    status, out, err = cli("sweep", "seed-baseline", "--grid", "vocab_size=8192:32768:8192", "--csv")
    assert status == 0 and "4 points evaluated" in err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["total"]) for r in rows] == [paramledger.inventory("seed-baseline", vocab_size=v).total
                                               for v in (8192, 16384, 24576, 32768)]
    assert rows[0]["total"] == "6819072"  # seed 000's V = 8,192 design
    target = tmp_path / "grid.json"
    status, out, err = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=3:6:3", "-o", str(target))
    assert status == 0 and out == "" and f"written to {target}" in err
    data = json.loads(target.read_text())
    assert [(r["num_hidden_layers"], r["total"]) for r in data] == [(3, 10_749_696), (6, 13_110_528)]
    status, out, _ = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=3:6:3", "--json",
                         "--where", "total > 1e9")
    assert status == 0 and json.loads(out) == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_and_only_after_a_moment():
    from paramledger.commands.sweep import _Progress

    terminal = _Terminal()
    bar = _Progress(terminal)
    bar(10, 100)  # too soon: nothing yet
    assert terminal.getvalue() == ""
    bar.start -= 1.0
    bar(50, 100)
    bar.close()
    assert terminal.getvalue() == "\rsweep [###############...............] 50/100 points\n"
    pipe = io.StringIO()
    quiet = _Progress(pipe)
    quiet.start -= 1.0
    quiet(50, 100)
    quiet.close()
    assert pipe.getvalue() == ""


def test_no_progress_or_solve_for_a_size_the_total_ignores():
    from paramledger.formula import solve_budget

    with pytest.raises(OptionError, match="--budget: no bound: the total does not grow with num_attention_heads"):
        solve_budget("seed-baseline", "num_attention_heads", 20_000_000)


@st.composite
def designs_and_grids(draw):
    arch = draw(architectures())
    keys = ["vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
            "head_dim", "intermediate_size"]
    if arch.is_moe:
        keys += ["num_experts", "moe_intermediate_size", "num_experts_per_tok"]
    if arch.is_mla:
        keys += ["kv_lora_rank", "qk_rope_head_dim", "v_head_dim"]
    chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True))
    axes = []
    for key in chosen:
        start = draw(st.integers(0 if key == "qk_rope_head_dim" else 1, 12))
        axes.append(f"{key}={start}:{start + draw(st.integers(0, 10))}:{draw(st.integers(1, 3))}")
    return arch, axes


@given(designs_and_grids())
def test_every_point_equals_the_engine(design):
    """Random designs, random small grids: every kept point equals the inventory, and every
    point the sweep drops is one the architecture refuses (and no other)."""
    arch, axes = design
    result = sweep(arch, axes)
    keys = [axis.key for axis in result.plan.axes]
    kept = {tuple(int(result.columns[k][i]) for k in keys): i for i in range(result.kept)}
    import itertools

    refused = 0
    for point in itertools.product(*(axis.values() for axis in result.plan.axes)):
        expected = engine_row(result.plan, dict(zip(keys, point)))
        if expected is None:
            refused += 1
            assert point not in kept, point
            continue
        i = kept[point]
        assert {name: result.columns[name][i].item() for name in result.plan.columns} == expected, point
    assert refused == sum(result.invalid.values())


@pytest.mark.parametrize("source, words", [
    ("gemma-4-31B-it", r"layers differ \(head_dim_per_layer, num_key_value_heads_per_layer, attention_k_eq_v\)"),
    ({"model_type": "qwen3_next", "num_hidden_layers": 8}, r"layers differ \(linear_attention_layers\)"),
    ({"model_type": "gemma3n_text"}, r"layers differ \(intermediate_size_per_layer|layers differ \(num_kv_shared"),
])
def test_designs_whose_layers_differ_are_not_swept(source, words):
    """One closed form over layers of one shape cannot follow per-layer structure: refused in one line,
    never a silently wrong table (Gemma 4's depth sweep once gave fewer parameters than its token table)."""
    arch = paramledger.load(source)
    for axis in ("num_hidden_layers=4:8:4", "hidden_size=512:1024:512"):
        with pytest.raises(OptionError, match=words):
            plan(arch, [axis])


@pytest.mark.parametrize(("where", "message"), [
    ("missing/grid.csv", r"-o: cannot write .*missing/grid.csv: No such file or directory"),
    ("/dev/full", r"-o: cannot write /dev/full: No space left on device"),
])
def test_an_unwritable_output_is_one_line_and_no_file(cli, tmp_path, where, message):
    """It was a traceback (FileNotFoundError) for a missing folder."""
    target = where if where.startswith("/") else str(tmp_path / where)
    status, out, err = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=1:3", "--csv", "-o", target)
    assert status == 2
    assert err.count("\n") == 1 and re.fullmatch(r"paramledger: error: " + message + "\n", err), err
    assert list(tmp_path.iterdir()) == []


def test_a_sweep_file_is_written_whole(cli, tmp_path):
    """Through a temporary file renamed over the old one at the end; no temporary file stays."""
    target = tmp_path / "grid.csv"
    target.write_text("the previous grid")
    status, _, err = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=1:3", "-o", str(target))
    assert status == 0 and "written to" in err
    assert target.read_text().splitlines()[0].startswith("num_hidden_layers,total")
    assert [p.name for p in tmp_path.iterdir()] == ["grid.csv"]
