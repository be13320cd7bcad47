"""What each fuzz test saw (examples run, refused, accepted, ...), printed in pytest's terminal summary.

A fuzz test is one function called once per example, so it cannot print its own totals at the end; it
tallies each example here and the summary prints every test's tallies after the run (with or without -s).
"""

from __future__ import annotations

from collections import Counter

import pytest

COUNTS: dict[str, Counter[str]] = {}
# Each test's slowest example and its largest memory growth (seconds or bytes, and what ran), as measured()
# reported them for the examples tallied since.
WORST: dict[str, dict[str, tuple[float, str]]] = {}
_MEASURED: dict[str, tuple[float, str]] = {}


def measured(what: str, seconds: float, memory: int, memory_label: str = "peak RSS growth") -> None:
    """The run about to be tallied took ``seconds`` and grew ``memory_label`` by ``memory`` bytes."""
    _MEASURED["time"] = (seconds, what)
    _MEASURED[memory_label] = (memory, what)


def tally(test: str, outcome: str) -> None:
    """One example of ``test`` ended as ``outcome`` ("refused", "accepted", ...)."""
    counts = COUNTS.setdefault(test, Counter())
    counts["examples"] += 1
    counts[outcome] += 1
    worst = WORST.setdefault(test, {})
    for figure, (value, what) in _MEASURED.items():
        if figure not in worst or value > worst[figure][0]:
            worst[figure] = (value, what)
    _MEASURED.clear()


class _Summary:
    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not COUNTS:
            return
        terminalreporter.section("fuzz counts")
        for test, counts in COUNTS.items():
            rest = "; ".join(f"{outcome}: {count:,}" for outcome, count in sorted(counts.items())
                             if outcome != "examples")
            terminalreporter.write_line(f"{test}: {counts['examples']:,} examples ({rest})")
            for figure, (value, what) in WORST.get(test, {}).items():
                shown = f"{value:.2f} s" if figure == "time" else f"{value / 2**20:,.1f} MB"
                terminalreporter.write_line(f"    worst {figure}: {shown} ({what[:160]})")


@pytest.fixture(autouse=True, scope="module")
def fuzz_counts_reported(request):
    """Registers the summary once per session; a module that imports this fixture gets its counts printed."""
    plugins = request.config.pluginmanager
    if not plugins.has_plugin("paramledger-fuzz-counts"):
        plugins.register(_Summary(), "paramledger-fuzz-counts")
    yield
