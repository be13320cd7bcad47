"""What each fuzz test saw (examples run, refused, accepted, ...), printed in pytest's terminal summary.

A fuzz test is one function called once per example, so it cannot print its own totals at the end; it
tallies each example here and the summary prints every test's tallies after the run (with or without -s).
"""

from __future__ import annotations

from collections import Counter

import pytest

COUNTS: dict[str, Counter[str]] = {}


def tally(test: str, outcome: str) -> None:
    """One example of ``test`` ended as ``outcome`` ("refused", "accepted", ...)."""
    counts = COUNTS.setdefault(test, Counter())
    counts["examples"] += 1
    counts[outcome] += 1


class _Summary:
    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not COUNTS:
            return
        terminalreporter.section("fuzz counts")
        for test, counts in COUNTS.items():
            rest = "; ".join(f"{outcome}: {count:,}" for outcome, count in sorted(counts.items())
                             if outcome != "examples")
            terminalreporter.write_line(f"{test}: {counts['examples']:,} examples ({rest})")


@pytest.fixture(autouse=True, scope="module")
def fuzz_counts_reported(request):
    """Registers the summary once per session; a module that imports this fixture gets its counts printed."""
    plugins = request.config.pluginmanager
    if not plugins.has_plugin("paramledger-fuzz-counts"):
        plugins.register(_Summary(), "paramledger-fuzz-counts")
    yield
