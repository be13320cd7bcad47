"""A sharded checkpoint: an index json (``weight_map``: tensor -> shard file) and its shards.

transformers' save_pretrained writes ``model.safetensors.index.json`` (or
``pytorch_model.bin.index.json``) beside the shards.  Every shard is read header-only; a
shard the index names but the folder lacks, or a tensor the index places in a shard
whose header does not hold it, is an error: the index and the files must agree.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .._exceptions import (
    DuplicateTensorError,
    HeaderNotObjectError,
    MissingShardError,
    ShardIndexError,
    ShardTensorMissingError,
)
from ..limits import quoted
from ..sources import read_json
from ._stored import Checkpoint, StoredTensor
from .safetensors import natural_key


def read_sharded(index_path: str | os.PathLike[str]) -> Checkpoint:
    index_path = Path(index_path)
    label = str(index_path)
    folder = index_path.parent

    def read_shard(shard: str, first_tensor: str) -> Checkpoint:
        shard_path = folder / shard
        if not shard_path.is_file():
            raise MissingShardError(label, f"the index places it in {shard}, which is not in {folder}", first_tensor)
        from . import read_file  # safetensors or PyTorch, by the shard's own format

        return read_file(shard_path, file_label=shard)

    return from_index(label, read_json(index_path, "index"), read_shard)


def from_index(label: str, index: object, read_shard: Callable[[str, str], Checkpoint],
               progress: Callable[[int, int], None] | None = None) -> Checkpoint:
    """The checkpoint an index json describes, each shard read by ``read_shard(name, first tensor)``
    (a file beside the index, or a hub file read by range requests); ``progress(done, shards)``."""
    if not isinstance(index, dict):
        raise HeaderNotObjectError(label, f"index is a JSON {type(index).__name__}, not an object")
    weight_map = index.get("weight_map")
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        raise ShardIndexError(label, "the index needs a 'weight_map' object of tensor name -> shard file")
    by_shard: dict[str, list[str]] = {}
    for name, shard in weight_map.items():
        by_shard.setdefault(shard, []).append(name)
    tensors: list[StoredTensor] = []
    aliases: dict[str, str] = {}
    notes: list[str] = []
    seen: dict[str, str] = {}
    for done, shard in enumerate(sorted(by_shard)):
        # A shard name is a file beside the index; "../x" or an absolute path is not.
        if Path(shard).name != shard or not shard:
            raise ShardIndexError(label, f"shard {quoted(shard)} is not a file name in the index's folder",
                                  by_shard[shard][0])
        if shard.endswith(".index.json"):  # an index naming itself or another would recurse without end
            raise ShardIndexError(label, f"shard {quoted(shard)} is an index json, not a weights file",
                                  by_shard[shard][0])
        if progress is not None:
            progress(done, len(by_shard))
        part = read_shard(shard, by_shard[shard][0])
        stored = {t.name: t for t in part.tensors}
        for name in by_shard[shard]:
            if name not in stored and name not in part.aliases:
                raise ShardTensorMissingError(label, f"the index places it in {shard}, whose header does not "
                                                     "hold it", name)
        unlisted = sorted(set(stored) - set(by_shard[shard]), key=natural_key)
        if unlisted:
            notes.append(f"{shard} stores {len(unlisted)} tensor(s) the index does not list "
                         f"(first: {unlisted[0]}); they are read too")
        for t in part.tensors:
            if t.name in seen:
                raise DuplicateTensorError(label, f"stored in both {seen[t.name]} and {shard}", t.name)
            seen[t.name] = shard
            tensors.append(t)
        aliases.update(part.aliases)
        notes.extend(f"{shard}: {note}" for note in part.notes)
    tensors.sort(key=lambda t: natural_key(t.name))
    fmt = f"{part.format} (sharded, {len(by_shard)} files)" if by_shard else "safetensors (sharded)"
    metadata = index.get("metadata") if isinstance(index.get("metadata"), dict) else {}
    return Checkpoint(label, fmt, tuple(tensors), metadata, aliases, tuple(notes))
