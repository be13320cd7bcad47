"""The bundled registry: real releases whose config.json ships with paramledger.

Each entry is ``paramledger/models/<Name>.json``: {"repo": "org/Name", "source": where the
config values were read, "config": the release's config.json}.  The name is the release
name without its org; lookups ignore case and accept the "org/" prefix, as ``load`` does.

A summary counts each model from its inventory (never from a number stored beside it); a
model whose family is not supported yet is listed with the reason instead of a count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from . import sources
from ._exceptions import FileFormatError, ParamledgerError, UnknownModelError
from .architecture import Architecture
from .hf_config import architecture_from_config


@dataclass(frozen=True, slots=True)
class BundledModel:
    name: str  # the release name without its org, e.g. "Llama-3.2-1B"
    repo: str  # "meta-llama/Llama-3.2-1B"
    source: str  # where the config values were read
    model_type: str  # the config's model_type (the family that names its tensors)
    path: Path  # the entry file

    @property
    def config(self) -> dict[str, Any]:
        """The release's config.json, as bundled (a fresh dict each time)."""
        return read_entry(self.path)["config"]


@dataclass(frozen=True, slots=True)
class ModelSummary:
    """One line of `paramledger models`: the counts, or why there are none."""

    model: BundledModel
    total: int | None = None
    active: int | None = None  # per token (equals total for a dense model)
    embedding_share: Fraction | None = None  # token table / total
    is_moe: bool = False
    text_decoder_only: bool = False  # a multimodal release: its text_config decoder is counted
    reason: str | None = None  # set when the model could not be counted

    @property
    def counted(self) -> bool:
        return self.reason is None


def read_entry(path: Path) -> dict[str, Any]:
    """A bundled model entry, checked: its config object, repo and source."""
    entry = sources.read_json(path)
    if not isinstance(entry, dict) or not isinstance(entry.get("config"), dict):
        raise FileFormatError(str(path), "a bundled model entry needs a 'config' object")
    for key in ("repo", "source"):
        if not isinstance(entry.get(key), str) or not entry[key]:
            raise FileFormatError(str(path), f"a bundled model entry needs a '{key}' string")
    return entry


@cache
def parsed_entry(path: Path) -> dict[str, Any]:
    """``read_entry(path)`` once per process, for counting: bundled entries are package data,
    as fixed as the code (a count by name then does not parse a file each time, as importing a
    family's table does not).  Shared, so read only; BundledModel.config gives a fresh copy."""
    return read_entry(path)


def architecture(path: Path) -> Architecture:
    """The architecture of the bundled entry at ``path``, read by its family's table."""
    entry = parsed_entry(path)
    return sources.keep_config(architecture_from_config(entry["config"], entry["repo"], bundled=True),
                               entry["config"], entry["repo"])


@lru_cache(maxsize=1)
def bundled() -> tuple[BundledModel, ...]:
    """Every bundled model, sorted by name (case-insensitive)."""
    models: dict[str, BundledModel] = {}
    for name, path in sources.bundled_models().items():
        entry = read_entry(path)
        key = name.lower()
        if key in models:  # a duplicate would silently shadow an entry (litgpt's registry does)
            raise RuntimeError(f"bundled model {name!r} is declared twice ({models[key].path.name}, {path.name})")
        models[key] = BundledModel(name, entry["repo"], entry["source"],
                                   str(entry["config"].get("model_type", "")), path)
    return tuple(sorted(models.values(), key=lambda m: m.name.lower()))


def names() -> list[str]:
    return [m.name for m in bundled()]


def get(name: str) -> BundledModel:
    """The bundled model called ``name`` (case-insensitive; "org/" prefix optional)."""
    short = name.split("/")[-1].lower()
    for model in bundled():
        if model.name.lower() == short:
            return model
    raise UnknownModelError(name, names())


def summarize(model: BundledModel) -> ModelSummary:
    """Count ``model`` from its inventory; an unsupported family becomes a reason, not a crash."""
    from . import families, inventory

    try:
        arch = architecture(model.path)
        inv = inventory(arch)
    except ParamledgerError as error:
        return ModelSummary(model, reason=_reason(error))
    family = families.get(model.model_type)
    return ModelSummary(model, inv.total, inv.active, inv.embedding_share, arch.is_moe,
                        text_decoder_only=bool(family and family.text_decoder_only))


def _reason(error: ParamledgerError) -> str:
    from ._exceptions import UnsupportedFamilyError

    if isinstance(error, UnsupportedFamilyError):
        return f"model_type {error.model_type!r} is not supported yet"
    return str(error)


def summaries() -> list[ModelSummary]:
    return [summarize(m) for m in bundled()]


def summary_json(summary: ModelSummary) -> Mapping[str, Any]:
    m = summary.model
    out: dict[str, Any] = {"name": m.name, "repo": m.repo, "model_type": m.model_type, "source": m.source}
    if summary.counted:
        out.update(total=summary.total, active=summary.active, moe=summary.is_moe,
                   embedding_share=float(summary.embedding_share), text_decoder_only=summary.text_decoder_only)
    else:
        out["not_counted"] = summary.reason
    return out
