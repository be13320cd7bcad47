"""Writing a file the user named (a report, a sweep's table, a plot): all of it or nothing.

A regular file, or a new one, is written to a temporary file in the same folder and renamed over
the target only when complete (os.replace is atomic within one filesystem), so a failure leaves
no half-written file and an older file untouched. A device or a pipe (-o /dev/stdout) cannot be
renamed over, and must not be: it is written in place. Any OSError becomes one line naming the
option and the file.
"""

from __future__ import annotations

import os
import tempfile
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
    try:
        handle = tempfile.NamedTemporaryFile(mode, dir=target.parent, prefix=f".{target.name}.", suffix=".tmp",
                                             delete=False, **text)
    except OSError as error:
        raise _cannot_write(option, target, error) from None
    try:
        with handle:
            yield handle
        os.chmod(handle.name, 0o644)  # NamedTemporaryFile makes 0600; what we write is for sharing
        os.replace(handle.name, target)
    except OSError as error:
        Path(handle.name).unlink(missing_ok=True)
        raise _cannot_write(option, target, error) from None
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def _cannot_write(option: str, target: Path, error: OSError) -> OptionError:
    return OptionError(option, f"cannot write {target}: {error.strerror or error.__class__.__name__}")
