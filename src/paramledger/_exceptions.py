"""Every failure paramledger reports to a user.

Each error is one line that names what is wrong and where (the key, the file, the
model).  The CLI prints ``str(error)`` on stderr and exits with status 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to ``word``, or None when nothing is close."""
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    match = closest(word, candidates)
    return f" (did you mean {match!r}?)" if match else ""


class ParamledgerError(Exception):
    """Base class: a one-line message for the user."""


class ArchitectureError(ParamledgerError, ValueError):
    """A declared architecture is inconsistent; ``key`` names the field at fault."""

    def __init__(self, key: str, message: str, where: str | None = None) -> None:
        self.key = key
        self.where = where
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{key}: {message}")


class UnknownKeyError(ArchitectureError):
    """A key that no architecture field (and no family alias) understands."""

    def __init__(self, key: str, known: Iterable[str], where: str | None = None) -> None:
        super().__init__(key, "unknown key" + did_you_mean(key, known), where)


class SourceError(ParamledgerError):
    """A source (file, folder, bundled name, hub id) that cannot be read."""

    def __init__(self, source: str, message: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")


class UnknownModelError(SourceError):
    """A name that is neither a bundled model nor a file."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(
            name, "not a file, a folder or a bundled model name" + did_you_mean(name, known)
            + " (see `paramledger models`)"
        )


class UnsupportedFamilyError(SourceError):
    """A config whose model_type has no family table."""

    def __init__(self, source: str, model_type: str, supported: Iterable[str]) -> None:
        supported = sorted(supported)
        self.model_type = model_type
        super().__init__(
            source,
            f"model_type {model_type!r} is not supported{did_you_mean(model_type, supported)}; "
            f"supported: {', '.join(supported)}",
        )


class FileFormatError(SourceError):
    """A malformed file (JSON, TOML, safetensors, GGUF); ``source`` is its path."""


class OptionError(ParamledgerError, ValueError):
    """A command option or API argument that makes no sense (a negative context, an unknown dtype)."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"{option}: {message}")


class ReferenceUnavailableError(ParamledgerError):
    """Verification needs torch and transformers, which are not installed."""
