"""One check the refusal tests share: a bad config.json counted by the installed CLI in a process of its own."""

from __future__ import annotations

import subprocess
import sys


def refused_by_the_cli(tmp_path, config: str, message: str) -> None:
    """``paramledger count`` of ``config`` (the JSON text) exits with status 2 and says ``message`` in one line."""
    path = tmp_path / "config.json"
    path.write_text(config)
    done = subprocess.run([sys.executable, "-m", "paramledger", "count", str(path)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def refused_in_one_line(config: dict, message: str) -> None:
    """``paramledger.load(config)`` refuses it with an ArchitectureError matching ``message``, on one line."""
    import pytest

    import paramledger
    from paramledger._exceptions import ArchitectureError

    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)
