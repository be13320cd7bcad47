"""Progress on stderr for whatever takes over a second: nothing before that, nothing with --json.

The CLI turns it on (``shown(True)``) for the text views; the library alone stays silent.  On a
terminal one status line is rewritten in place and cleared at the end; elsewhere (a log, a pipe) nothing,
as git and the sweep's bar do: a refusal there is its one line alone, however slow the transfer before it.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

DELAY = 1.0  # seconds of silence before the first status line

_SHOWN: contextvars.ContextVar[bool] = contextvars.ContextVar("paramledger_progress", default=False)


@contextmanager
def shown(enabled: bool) -> Iterator[None]:
    """Progress on stderr within the block when ``enabled`` (the CLI without --json)."""
    token = _SHOWN.set(enabled)
    try:
        yield
    finally:
        _SHOWN.reset(token)


class Progress:
    """One task's status ("reading headers: 3 of 163 shards"), shown once the task has taken DELAY."""

    def __init__(self, task: str) -> None:
        self.task = task
        self.status = ""
        self.enabled = _SHOWN.get() and sys.stderr.isatty()
        self.started = time.monotonic()
        self.written = 0.0  # when the last line went out; 0 before the first
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None
        if self.enabled:  # a stalled request still says what it waits for after DELAY
            self.timer = threading.Timer(DELAY, self._write)
            self.timer.daemon = True
            self.timer.start()

    def update(self, status: str) -> None:
        self.status = status
        if self.enabled and time.monotonic() - self.started >= DELAY:
            self._write()

    def _write(self) -> None:
        with self.lock:
            if not self.enabled:  # closed while the timer fired
                return
            now = self.written = time.monotonic()
            line = f"{self.task}: {self.status}" if self.status else f"{self.task} ..."
            sys.stderr.write(f"\r{line} ({now - self.started:.0f} s)\x1b[K")
            sys.stderr.flush()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        with self.lock:
            if self.enabled and self.written:
                sys.stderr.write("\r\x1b[K")
                sys.stderr.flush()
            self.enabled = False


@contextmanager
def task(name: str) -> Iterator[Progress]:
    progress = Progress(name)
    try:
        yield progress
    finally:
        progress.close()
