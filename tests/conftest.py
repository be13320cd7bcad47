"""Shared test settings: hypothesis profiles and the CLI runner."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# "ci" keeps the suite inside its time budget; "thorough" is for a local deep run:
#   HYPOTHESIS_PROFILE=thorough pytest
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def cli(capsys):
    """Run ``paramledger ARGS`` in-process: returns (exit status, stdout, stderr)."""
    from paramledger.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            status = main(list(argv))
        except SystemExit as exit_:  # argparse's own exits (usage errors, --help)
            status = exit_.code if isinstance(exit_.code, int) else 1
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return run


def serving():
    """`paramledger serve` in-process on a free loopback port, for a fixture to yield from; no request may
    end in a 500."""
    import threading

    from paramledger.server import make_server

    server = make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    assert server.internal_errors == 0


@pytest.fixture(scope="module")
def server():
    """One server for a module's tests."""
    yield from serving()
