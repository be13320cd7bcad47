"""One call for `paramledger inspect`: read a checkpoint, find its config, reconcile."""

from __future__ import annotations

import os
from pathlib import Path

from .._exceptions import ParamledgerError
from . import find_config, read
from .reconcile import Report, reconcile


def inspect_path(path: str | os.PathLike[str], *, config: str | os.PathLike[str] | None = None,
                 name: str | None = None, file: str | None = None) -> tuple[Report, str | None]:
    """The reconciled report of ``path`` (a file or folder, or a hub id ``org/name[@revision]``,
    read header by header over HTTP; ``file`` picks one of its files) and the label of the config
    used (None without one).

    A config given explicitly must load; a config.json merely found beside the weights
    that paramledger cannot read (an unsupported family) is noted and skipped."""
    from .. import families, inventory, load
    from ..sources import read_config, read_json

    explicit = config is not None
    hub_id = _hub_id(path)
    tokenizer: Path | None
    config_label = None
    if hub_id is not None:
        from ..hub.remote import read_repo

        repo = read_repo(hub_id, file)
        checkpoint, tokenizer = repo.checkpoint, repo.tokenizer
        config_path = Path(config) if explicit else repo.config
        if not explicit and config_path is not None:
            config_label = f"{hub_id.repo}/config.json"
    else:
        if file is not None:
            from .._exceptions import OptionError

            raise OptionError("--file", "picks a file of a hub repo; give a local file as PATH itself")
        checkpoint = read(path)
        config_path = Path(config) if explicit else find_config(path)
        folder = Path(path) if Path(path).is_dir() else Path(path).parent
        tokenizer = folder / "tokenizer.json"
    inv = raw = naming = None
    label = None
    extra_notes: list[str] = []
    if config_path is not None:
        try:
            arch = read_config(config_path, config_label) if config_label else load(config_path)
            raw = read_json(config_path) if config_path.suffix == ".json" else {}
        except ParamledgerError as error:
            if explicit:
                raise
            extra_notes.append(f"config.json beside the weights not used ({error})")
        else:
            inv = inventory(arch)
            naming = families.naming_of(arch) if families.get(arch.model_type) is not None else None
            label = config_label or str(config_path)
    tokens = tokenizer_vocabulary(tokenizer) if tokenizer is not None and tokenizer.is_file() else None
    report = reconcile(checkpoint, inv, config=raw if isinstance(raw, dict) else {}, naming=naming, name=name,
                       tokenizer_size=tokens)
    if extra_notes:
        from dataclasses import replace

        report = replace(report, checkpoint=replace(checkpoint, notes=(*checkpoint.notes, *extra_notes)))
    return report, label


def _hub_id(path: str | os.PathLike[str]):
    """The hub id ``path`` names when nothing local does (a folder "org/name" stays a folder)."""
    text = os.fspath(path)
    if os.path.exists(text):
        return None
    from ..hub import parse

    return parse(text)


def tokenizer_vocabulary(path: str | Path) -> int | None:
    """Tokens a tokenizer.json defines (its vocabulary plus the added tokens not in it), as
    ``count`` reads it (tokenizer_vocab); None when it cannot be read."""
    from ..tokenizer_vocab import read_tokenizer_vocabulary

    try:
        return read_tokenizer_vocabulary(path).size
    except ParamledgerError:
        return None
