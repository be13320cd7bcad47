"""Writing a file the user named (a report, a sweep's table, a plot): all of it or nothing.

A regular file, or a new one, is written to a temporary file in the same folder and renamed over
the target only when complete (os.replace is atomic within one filesystem), so a failure leaves
no half-written file and an older file untouched. A device or a pipe (-o /dev/stdout) cannot be
renamed over, and must not be: it is written in place. A symlink is written through (the link
stays, the file it names is replaced) and a replaced file keeps its mode. A run killed by SIGKILL
leaves its temp file (.NAME.*.tmp); the next write to NAME removes those over an hour old (SIGTERM
and Ctrl-C remove it at once). Any OSError becomes one line naming the option and the file.
"""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ._exceptions import OptionError


@contextmanager
def output_file(path: str | os.PathLike[str], option: str, binary: bool = False,
                example: str | None = None) -> Iterator[IO[Any]]:
    """``example``: a file name to suggest when ``path`` is a folder."""
    target = Path(path)
    if target.is_symlink() and target.resolve().is_file():  # written through: the link stays a link
        target = target.resolve()
    if target.is_dir():
        such = f" such as {example}" if example else ""
        raise OptionError(option, f"{target} is a folder; give a file name{such}")
    text: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": ""}
    mode = "wb" if binary else "w"
    if target.exists() and not target.is_file():  # a device or a pipe: written in place
        try:
            with open(target, mode, **text) as handle:
                yield handle
        except OSError as error:
            raise _cannot_write(option, target, error) from None
        return
    _remove_stale(target)
    try:
        handle = tempfile.NamedTemporaryFile(mode, dir=target.parent, prefix=f".{target.name}.", suffix=".tmp",
                                             delete=False, **text)
    except OSError as error:
        raise _cannot_write(option, target, error) from None
    try:
        with handle:
            yield handle
        os.chmod(handle.name, _mode_for(target))  # NamedTemporaryFile makes 0600
        os.replace(handle.name, target)
    except OSError as error:
        Path(handle.name).unlink(missing_ok=True)
        raise _cannot_write(option, target, error) from None
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


STALE_SECONDS = 3600  # a temp file untouched this long was left by a killed run (SIGKILL, power loss)


def _remove_stale(target: Path) -> None:
    """Temp files of ``target`` left by a run that was killed: a writer that is alive keeps its
    file's mtime fresh, so only files an hour old are removed."""
    now = time.time()
    try:
        for stale in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - stale.lstat().st_mtime > STALE_SECONDS:
                    stale.unlink()
    except OSError:
        pass


def _mode_for(target: Path) -> int:
    """The mode of the file replaced (a 0600 file stays 0600), else what open() would give a new one."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _cannot_write(option: str, target: Path, error: OSError) -> OptionError:
    return OptionError(option, f"cannot write {target}: {error.strerror or error.__class__.__name__}")
