"""The command line: parse, call the library, render.  Nothing is computed here.

Each subcommand lives in ``paramledger/commands/<name>.py`` and exposes
``register(subparsers)``, which adds its parser and sets ``func(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

from ._exceptions import ParamledgerError, did_you_mean


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if "invalid choice" in message and "COMMAND" in message:
            word = message.split("'")[1] if "'" in message else ""
            message = f"unknown command {word!r}{did_you_mean(word, _command_names())}"
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def _command_modules() -> list[str]:
    from . import commands

    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_"))


def _command_names() -> list[str]:
    return _command_modules()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (a known subcommand) only that one is registered, so a
    run imports one command module, not all of them (start-up time)."""
    parser = _Parser(prog="paramledger", description="The exact parameter inventory of a transformer language model.")
    parser.add_argument("--version", action="version", version=f"paramledger {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    names = _command_modules()
    for name in [command] if command in names else names:
        importlib.import_module(f"{__package__}.commands.{name}").register(subparsers)
    return parser


# Optional libraries, by the extra that installs them (pyproject.toml): counting needs none.
_EXTRAS = {"sympy": "analysis", "numpy": "analysis", "matplotlib": "analysis", "torch": "reference",
           "transformers": "reference"}


def _version() -> str:
    from . import __version__

    return __version__


MAX_ERROR_CHARS = 2000  # an error line quotes its values cut short; this bounds whatever slips through


def one_line(message: str) -> str:
    """``message`` as one line of bounded length: a newline or an escape sequence in a file or
    tensor name is shown escaped, never obeyed."""
    from .limits import printable

    text = printable(message)
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 25] + f"... ({len(text):,} chars)"


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised as Ctrl-C is, so that every cleanup (a half-written -o file) runs."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def _raised_again(hook: Any) -> Any:
    """sys.unraisablehook for a command: SIGTERM arriving while a callback runs (a weakref's, an import lock's) raises
    _Terminated where Python only prints it and goes on; it is kept (never printed as a traceback), and the command
    ends as terminated once it returns."""

    def handle(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, _Terminated):
            _LATE.append(True)
            return
        hook(unraisable)

    return handle


_LATE: list[bool] = []  # a SIGTERM that arrived inside a callback (_raised_again)


def main(argv: Sequence[str] | None = None) -> int:
    import gc
    import signal
    import threading

    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if on_main else None
    # A command's objects mostly live until it answers: the cyclic collector's passes over the millions of tuples
    # of a deep design (a 10^6-layer hybrid's layer plan) cost more than the count did (4.5 s of CPU against 2.5
    # for formula at 10^6 layers of Jamba); collected 140 times less often, as a short-lived process can be.
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 20, 100)
    unraisable = sys.unraisablehook
    if on_main:
        sys.unraisablehook = _raised_again(unraisable)
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*thresholds)
        sys.unraisablehook = unraisable
        if on_main and previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv else None)
    if not argv:  # bare `paramledger`: what it does and its commands, not an error
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args) or 0)
        if _LATE:
            raise _Terminated
        return status
    except ParamledgerError as error:
        print(f"paramledger: error: {one_line(str(error))}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        extra = _EXTRAS.get((error.name or "").split(".")[0])
        if extra is None:
            raise
        print(f"paramledger: error: {args.command} needs {error.name}: pip install \"paramledger[{extra}]\"",
              file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except _Terminated:
        print("paramledger: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("paramledger: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
