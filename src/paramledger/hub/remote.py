"""A hub repo's checkpoint, header by header: the file the repo's listing picks (an index json,
else its one weights file), each safetensors header in two range requests (the 8-byte length,
then the header), each GGUF header in growing ranges until it parses, the shards of an index
one by one.  A file already in the local cache is read from there; offline, only from there.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import NamedTuple

from .._exceptions import MissingShardError, SourceError, UnknownCheckpointError
from ..checkpoints import Checkpoint, pick_name, read_file
from ..checkpoints.safetensors import MAX_HEADER_SIZE, checkpoint_from_header, parse_header
from . import HubId
from .errors import offline
from .files import cached_snapshot, download, is_offline, listing
from .progress import Progress, task
from .ranges import Counter, RangeStream, RemoteFile

_TORCH = (".bin", ".pt", ".pth", ".ckpt")


class Repo(NamedTuple):
    """What ``inspect`` needs of a repo: its checkpoint, and its config.json and tokenizer.json when
    the local cache holds them (config.json is fetched first)."""

    checkpoint: Checkpoint
    config: Path | None
    tokenizer: Path | None
    commit: str


def read_repo(hub_id: HubId, file: str | None = None) -> Repo:
    try:
        import huggingface_hub  # noqa: F401
    except ImportError:
        raise SourceError(str(hub_id), 'no such file or folder; as a hub id it is read through huggingface_hub: pip '
                                       'install "paramledger[hub]"') from None
    if is_offline():
        cached = cached_snapshot(hub_id)
        if cached is None:
            raise SourceError(str(hub_id), offline(f"no revision {hub_id.revision or 'main'!r} of the repo"))
        commit, folder = cached
        names = sorted(path.name for path in folder.iterdir() if path.is_file())
        config = folder / "config.json" if (folder / "config.json").is_file() else None
    else:
        config = _config_or_none(hub_id)
        commit, names = listing(hub_id, config.parent.name if config is not None else hub_id.revision or "main")
    cached = cached_snapshot(HubId(hub_id.repo, commit))
    folder = cached[1] if cached is not None else None
    reader = _Reader(hub_id, commit, set(names), folder)
    where = f"{hub_id} (on the hub)" if not is_offline() else f"{hub_id} (in the local cache)"
    try:
        chosen = file if file is not None else pick_name(set(names), where, "name one with --file")
    except UnknownCheckpointError:
        if is_offline():  # the snapshot holds the config only
            raise SourceError(str(hub_id), offline("no weights file of the repo", none=True)) from None
        raise
    if chosen not in names:
        raise SourceError(str(hub_id), f"the repo has no file {chosen!r}")
    with task(f"reading the headers of {hub_id}") as progress:
        reader.progress = progress
        checkpoint = reader.checkpoint(chosen)
    tokenizer = folder / "tokenizer.json" if folder is not None and (folder / "tokenizer.json").is_file() else None
    return Repo(checkpoint, config, tokenizer, commit)


def _config_or_none(hub_id: HubId) -> Path | None:
    """config.json through the cache; None for a repo without one (most GGUF repos)."""
    from huggingface_hub import errors

    try:
        return download(hub_id, "config.json")
    except SourceError as error:
        if isinstance(error.__context__, errors.RemoteEntryNotFoundError) or "the repo has no" in str(error):
            return None
        raise


class _Reader:
    def __init__(self, hub_id: HubId, commit: str, names: set[str], folder: Path | None) -> None:
        self.hub_id, self.commit, self.names, self.folder = hub_id, commit, names, folder
        self.progress: Progress | None = None
        self.index_label = ""

    def label(self, name: str) -> str:
        return f"{self.hub_id.repo}/{name}"

    def checkpoint(self, name: str) -> Checkpoint:
        if not name.endswith(".index.json"):
            return self.one(name)
        from ..checkpoints.sharded import from_index
        from ..sources import read_json

        index = self.cached(name) or self.fetch_small(name)
        self.index_label = self.label(name)
        return from_index(self.index_label, read_json(index, "index"), self.shard, self.shard_progress)

    def shard_progress(self, done: int, shards: int) -> None:
        if self.progress is not None:
            self.progress.update(f"{done} of {shards} shards, {Counter.received:,} bytes received")

    def shard(self, shard: str, first_tensor: str) -> Checkpoint:
        if shard not in self.names:
            raise MissingShardError(self.index_label, f"the index places it in {shard}, which is not in the repo",
                                    first_tensor)
        return self.one(shard, file_label=shard)

    def cached(self, name: str) -> Path | None:
        path = self.folder / name if self.folder is not None else None
        return path if path is not None and path.is_file() else None

    def fetch_small(self, name: str) -> Path:
        if is_offline():
            raise SourceError(str(self.hub_id), offline(name))
        return download(self.hub_id, name, "index", revision=self.commit)

    def one(self, name: str, file_label: str | None = None) -> Checkpoint:
        """One weights file: from the cache when it is there, else its header over HTTP."""
        local = self.cached(name)
        if local is not None:
            return dataclasses.replace(read_file(local, file_label=file_label), path=self.label(name))
        if is_offline():
            raise SourceError(str(self.hub_id), offline(name))
        lowered = name.lower()
        if lowered.endswith(_TORCH):
            raise UnknownCheckpointError(self.label(name), "a PyTorch file (a zip of pickles) cannot be read header "
                                                           f"by header over HTTP: `hf download {self.hub_id.repo} "
                                                           f"{name}`, then inspect it from the cache")
        remote = RemoteFile(self.hub_id, name, self.commit)
        if lowered.endswith(".gguf"):
            from ..checkpoints.gguf import read_gguf_from

            stream = RangeStream(remote, MAX_HEADER_SIZE)
            return read_gguf_from(stream, self.label(name), stream.size)
        if not lowered.endswith(".safetensors"):
            raise UnknownCheckpointError(self.label(name), "not a .safetensors, .gguf, .bin/.pt file or an index json")
        prefix = remote.read_at(0, 8)

        def read_at(offset: int, n: int) -> bytes:
            return prefix if (offset, n) == (0, 8) else remote.read_at(offset, n)

        header, _, data_size = parse_header(self.label(name), remote.size or len(prefix), read_at)
        return checkpoint_from_header(self.label(name), header, data_size, file_label)
