"""One CLI run of a fuzz example, in-process, held to issue 23's bounds and checked.

Each run is either a success (exit 0, or 1 for `fit` "does not fit") with valid output, nothing on
stderr, JSON without NaN or Infinity and a count's total equal to the sum of its components; or a
refusal: exit 2, one line on stderr, nothing on stdout. Anything else, an exception out of ``main``
included, fails the example. Each run must end within ``SECONDS`` (a timer interrupts it) and may grow
the process's peak RSS (``resource``'s ru_maxrss, reset before each run) by at most ``GROWTH_BOUND``.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import resource
import signal
import time

from _fuzz_counts import measured

from paramledger.cli import main

SECONDS = 10
# A fresh `paramledger` process peaks at 20 MB for count, fit and memory and 55 MB for formula (sympy):
# growth within 245 MB keeps any one run, as its own process, under issue 23's 300 MB.
GROWTH_BOUND = 245 * 2**20
# Address space allowed beyond what the process holds before a run: a runaway allocation ends in a
# MemoryError (a failed example) rather than in the machine's OOM killer.
ADDRESS_HEADROOM = 2 * 2**30
PAGE = resource.getpagesize()


class Hang(BaseException):
    """A run outlived SECONDS (a BaseException, so no ``except Exception`` in the product can swallow it)."""


def _hang(signum, frame):
    raise Hang(f"still running after {SECONDS} s")


def _reset_peak() -> bool:
    """Resets the process's peak RSS (Linux: /proc/self/clear_refs "5" resets VmHWM, which ru_maxrss reads)."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def _resident_bytes() -> tuple[int, int]:
    with open("/proc/self/statm") as statm:
        size, resident = statm.read().split()[:2]
    return int(size) * PAGE, int(resident) * PAGE


@contextlib.contextmanager
def bounded(what: str = ""):
    """Interrupts the block after SECONDS; fails it if it grew peak RSS past GROWTH_BOUND (both figures
    reported to _fuzz_counts.measured under ``what``)."""
    address, resident = _resident_bytes()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = address + ADDRESS_HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    before = resident if _reset_peak() else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    previous = signal.signal(signal.SIGALRM, _hang)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    elapsed = time.monotonic() - start
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    measured(what, elapsed, growth)
    assert elapsed < SECONDS, f"took {elapsed:.1f} s"
    assert growth <= GROWTH_BOUND, f"peak RSS grew by {growth // 2**20:,} MB"


def _finite(text: str) -> float:
    value = float(text)
    assert math.isfinite(value), f"JSON number {text[:40]} is not finite"
    return value


def _no_constant(name: str):
    raise AssertionError(f"JSON holds {name}")


def run(argv: list[str]) -> str:
    """Runs ``paramledger argv`` bounded, checks the verdict and returns it: "refused", "accepted" or
    "does not fit"."""
    out, err = io.StringIO(), io.StringIO()
    with bounded(f"paramledger {' '.join(argv)}"), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse's own exits: usage errors
            status = exit_.code if isinstance(exit_.code, int) else 1
        except Hang as hang:  # raised between two bytecodes, in a frame pytest cannot always print
            raise AssertionError(f"paramledger {' '.join(argv)!r}: {hang}") from None
    out, err = out.getvalue(), err.getvalue()
    assert "Traceback" not in err, err
    if status == 2:
        assert err.startswith("paramledger") and ": error: " in err and err.count("\n") == 1, err[:4000]
        assert out == "", out[:2000]
        return "refused"
    fits = status == 0
    assert fits or (status == 1 and argv[0] == "fit"), (status, err[:2000])
    assert err == "", err[:2000]
    assert out.strip(), "nothing printed"
    if "--json" in argv:
        answer = json.loads(out, parse_float=_finite, parse_constant=_no_constant)
        if argv[0] == "count":
            assert isinstance(answer["total"], int) and answer["total"] >= 0, answer["total"]
            assert answer["total"] == sum(answer["components"].values()), (answer["total"], answer["components"])
        if argv[0] == "fit":
            assert answer["fits"] is fits, (answer["fits"], status)
    return "accepted" if fits else "does not fit"
