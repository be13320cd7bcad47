"""One call for `paramledger inspect`: read a checkpoint, find its config, reconcile."""

from __future__ import annotations

import os
from pathlib import Path

from .._exceptions import ParamledgerError
from . import find_config, read
from .reconcile import Report, reconcile


def inspect_path(path: str | os.PathLike[str], *, config: str | os.PathLike[str] | None = None,
                 name: str | None = None) -> tuple[Report, str | None]:
    """The reconciled report of ``path`` and the label of the config used (None without one).

    A config given explicitly must load; a config.json merely found beside the weights
    that paramledger cannot read (an unsupported family) is noted and skipped."""
    from .. import families, inventory, load
    from ..sources import read_json

    checkpoint = read(path)
    explicit = config is not None
    config_path = Path(config) if explicit else find_config(path)
    inv = raw = naming = None
    label = None
    extra_notes: list[str] = []
    if config_path is not None:
        try:
            arch = load(config_path)
            raw = read_json(config_path) if config_path.suffix == ".json" else {}
        except ParamledgerError as error:
            if explicit:
                raise
            extra_notes.append(f"config.json beside the weights not used ({error})")
        else:
            inv = inventory(arch)
            family = families.get(arch.model_type)
            naming = family.naming if family is not None else None
            label = str(config_path)
    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    tokenizer = folder / "tokenizer.json"
    tokens = tokenizer_vocabulary(tokenizer) if tokenizer.is_file() else None
    report = reconcile(checkpoint, inv, config=raw if isinstance(raw, dict) else {}, naming=naming, name=name,
                       tokenizer_size=tokens)
    if extra_notes:
        from dataclasses import replace

        report = replace(report, checkpoint=replace(checkpoint, notes=(*checkpoint.notes, *extra_notes)))
    return report, label


def tokenizer_vocabulary(path: str | Path) -> int | None:
    """Tokens a tokenizer.json defines (its vocabulary plus the added tokens not in it), as
    ``count`` reads it (tokenizer_vocab); None when it cannot be read."""
    from ..tokenizer_vocab import read_tokenizer_vocabulary

    try:
        return read_tokenizer_vocabulary(path).size
    except ParamledgerError:
        return None
