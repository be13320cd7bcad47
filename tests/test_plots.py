"""Every plot is written, non-empty and a valid PNG or SVG; bad plot paths are refused."""

from __future__ import annotations

import pytest

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _assert_plot(path) -> None:
    data = path.read_bytes()
    assert len(data) > 5_000, f"{path} is nearly empty"
    if path.suffix == ".png":
        assert data.startswith(PNG_MAGIC)
    else:
        head = data[:2_000].decode("utf-8")
        assert head.startswith("<?xml") and "<svg" in head


SEED_000 = ["--vary", "num_hidden_layers=3", "--vary", "tie_word_embeddings=false",
            "--vary", "hidden_size=128,intermediate_size=512", "--vary", "vocab_size=8192"]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_whatif_component_bars(cli, tmp_path, suffix):
    target = tmp_path / f"whatif{suffix}"
    status, out, err = cli("whatif", "seed-baseline", *SEED_000, "--plot", str(target))
    assert status == 0, err
    assert "10,749,696" in out  # the table is still printed
    _assert_plot(target)


def test_compare_component_bars(cli, tmp_path):
    target = tmp_path / "compare.svg"
    status, _, err = cli("compare", "seed-baseline", "seed-1.1b", "--plot", str(target))
    assert status == 0, err
    _assert_plot(target)


@pytest.mark.parametrize("grid, name", [
    (["--grid", "vocab_size=1024:65536:1024"], "share.png"),  # embedding share with the break-even marked
    (["--grid", "vocab_size=1024:65536:1024", "--grid", "num_hidden_layers=3:12:3"], "shares.svg"),
    (["--grid", "num_hidden_layers=1:24"], "depth.png"),  # total against depth
    (["--grid", "hidden_size=64:1024:64", "--grid", "num_hidden_layers=6:24:6"], "width.png"),  # and width
])
def test_sweep_plots(cli, tmp_path, grid, name):
    target = tmp_path / name
    status, _, err = cli("sweep", "seed-baseline", *grid, "--plot", str(target))
    assert status == 0, err
    _assert_plot(target)


def test_sweep_plot_through_the_library(tmp_path):
    from paramledger.plots import sweep_plot
    from paramledger.sweep import sweep

    result = sweep("seed-untied", ["vocab_size=1000:50000:1000"])  # an untied head: no break-even
    target = tmp_path / "untied.png"
    sweep_plot(result.plan, result.columns, str(target))
    _assert_plot(target)


@pytest.mark.parametrize("command", [
    ["whatif", "seed-baseline", "--vary", "num_hidden_layers=3"],
    ["compare", "seed-baseline", "seed-shallow"],
    ["sweep", "seed-baseline", "--grid", "num_hidden_layers=1:4"],
])
def test_bad_plot_paths_are_refused_before_any_work(cli, tmp_path, command):
    status, out, err = cli(*command, "--plot", str(tmp_path / "plot.jpg"))
    assert status == 2 and out == ""
    assert "paramledger: error: --plot:" in err and "the file must end in .png or .svg" in err
    status, out, err = cli(*command, "--plot", str(tmp_path / "missing" / "plot.png"))
    assert status == 2 and out == "" and "no such folder" in err


def test_plot_of_nothing_is_refused(cli, tmp_path):
    status, _, err = cli("sweep", "seed-baseline", "--grid", "num_hidden_layers=1:4", "--where", "total < 0",
                         "--plot", str(tmp_path / "empty.png"))
    assert status == 2 and "paramledger: error: --plot: no points to plot (--where kept none)" in err
    assert not (tmp_path / "empty.png").exists()


def test_heavy_libraries_stay_lazy():
    """Registering whatif, compare, formula and sweep imports none of sympy, numpy, matplotlib."""
    import subprocess
    import sys

    code = ("import argparse, importlib, sys\n"
            "sub = argparse.ArgumentParser().add_subparsers()\n"
            "for name in ('whatif', 'compare', 'formula', 'sweep'):\n"
            "    importlib.import_module(f'paramledger.commands.{name}').register(sub)\n"
            "import paramledger.whatif, paramledger.formula, paramledger.sweep, paramledger.plots\n"
            "print(sorted(m for m in ('sympy', 'numpy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_plot_says_which_file_it_wrote_and_reads_its_axis_at_a_glance(cli, tmp_path):
    pytest.importorskip("matplotlib")
    from paramledger.plots import _at_a_glance

    target = tmp_path / "bars.png"
    code, out, err = cli("whatif", "seed-baseline", "--vary", "hidden_size=512", "--plot", str(target))
    assert code == 0 and target.stat().st_size > 0
    assert err == f"paramledger: wrote {target}\n" and "hidden_size=512" in out
    assert [_at_a_glance(v) for v in (7e11, 1.5e6, 2_000, 0)] == ["700 B", "1.5 M", "2 k", "0"]
