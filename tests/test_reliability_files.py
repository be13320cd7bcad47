"""Issue 23: output files under signals, links and modes: SIGTERM is handled as Ctrl-C (the
target untouched, no temp file left), a killed run's stale temp file is removed by the next
write, a symlink is written through and a replaced file keeps its mode."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from paramledger._files import STALE_SECONDS, output_file


def test_sigterm_during_a_large_sweep_csv_leaves_no_temp_file(tmp_path):
    target = tmp_path / "big.csv"
    child = subprocess.Popen([sys.executable, "-m", "paramledger", "sweep", "seed-baseline", "--grid",
                              "vocab_size=1:20000000", "--csv", "-o", str(target)],
                             stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".big.csv.*.tmp")) and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=60)
    assert "Traceback" not in err
    if child.returncode == 0:  # it finished first: the file is whole (a slow machine would not get here)
        assert target.stat().st_size > 0
    else:
        assert child.returncode == 143, err
        assert err.strip().splitlines() == ["paramledger: terminated"]
        assert not target.exists()
    assert not list(tmp_path.glob(".big.csv.*.tmp"))


def test_stale_temp_file_of_a_killed_run_is_removed_by_the_next_write(tmp_path):
    stale = tmp_path / ".out.csv.abc123.tmp"
    stale.write_text("half")
    old = time.time() - STALE_SECONDS - 60
    os.utime(stale, (old, old))
    fresh = tmp_path / ".out.csv.def456.tmp"  # another run writing right now: kept
    fresh.write_text("busy")
    with output_file(tmp_path / "out.csv", "-o") as handle:
        handle.write("whole\n")
    assert not stale.exists() and fresh.exists()
    assert (tmp_path / "out.csv").read_text() == "whole\n"


def test_writing_over_a_symlink_writes_through_it(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    with output_file(link, "-o") as handle:
        handle.write("new")
    assert link.is_symlink() and real.read_text() == "new"


def test_writing_over_a_0600_file_keeps_its_mode(tmp_path):
    target = tmp_path / "private.csv"
    target.write_text("old")
    target.chmod(0o600)
    with output_file(target, "-o") as handle:
        handle.write("new")
    assert target.stat().st_mode & 0o777 == 0o600 and target.read_text() == "new"


def test_a_new_file_gets_the_umask_mode(tmp_path):
    umask = os.umask(0o022)
    try:
        with output_file(tmp_path / "new.csv", "-o") as handle:
            handle.write("x")
    finally:
        os.umask(umask)
    assert (tmp_path / "new.csv").stat().st_mode & 0o777 == 0o644


def test_newline_in_an_output_path_makes_one_error_line(cli, tmp_path):
    from test_reliability_inputs import refused

    refused(cli, "report", "seed-baseline", "-o", str(tmp_path / "no\nsuch" / "r.html"),
            match=r"no\\nsuch")


def test_sigterm_inside_a_callback_is_no_traceback(monkeypatch, capsys):
    """SIGTERM can arrive while a weakref or import-lock callback runs, where Python only prints what the handler
    raises (the flaky run of the test above: a traceback after the sweep was written). The command ends as
    terminated instead, in one line."""
    import weakref

    from paramledger import cli
    from paramledger.commands import count

    class Held:
        pass

    def run(args):
        held = Held()
        ref = weakref.ref(held, lambda _: cli._terminate(15, None))  # noqa: F841 (kept alive: its callback runs)
        del held  # its callback raises _Terminated: unraisable
        return 0

    monkeypatch.setattr(count, "run", run)
    monkeypatch.setattr(cli, "_LATE", [])
    assert cli.main(["count", "seed-baseline"]) == 143
    err = capsys.readouterr().err
    assert "Traceback" not in err and err == "paramledger: terminated\n"
