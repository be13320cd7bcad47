"""One call for `paramledger inspect`: read a checkpoint, find its config, reconcile."""

from __future__ import annotations

import json
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
    """Token ids a tokenizer.json defines (its vocabulary plus added tokens), or None."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    model = data.get("model") if isinstance(data, dict) else None
    vocab = model.get("vocab") if isinstance(model, dict) else None
    ids: set[int] = set()
    if isinstance(vocab, dict):
        ids.update(v for v in vocab.values() if isinstance(v, int))
    elif isinstance(vocab, list):
        ids.update(range(len(vocab)))
    for token in data.get("added_tokens", []) or []:
        if isinstance(token, dict) and isinstance(token.get("id"), int):
            ids.add(token["id"])
    return max(ids) + 1 if ids else None
