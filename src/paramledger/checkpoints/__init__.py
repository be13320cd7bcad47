"""Reading what a checkpoint stores, from its headers only, and reconciling it with the config.

``read(path)`` accepts a .safetensors file, a sharded folder (or its index json), a .gguf
file and a PyTorch .bin/.pt file (torch needed; weights_only, never executing pickled code).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from .._exceptions import SourceError, UnknownCheckpointError
from ._stored import Checkpoint, StoredTensor

__all__ = ["Checkpoint", "StoredTensor", "read", "read_file", "find_config", "looks_like_checkpoint", "pick_name"]

_INDEXES = ("model.safetensors.index.json", "pytorch_model.bin.index.json")
_SINGLES = ("model.safetensors", "pytorch_model.bin", "consolidated.safetensors")
_TORCH_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt")


def read(path: str | os.PathLike[str]) -> Checkpoint:
    """The stored tensors of a checkpoint file or folder, headers only."""
    path = Path(path)
    if path.is_dir():
        return read_file(_pick(path))
    if not path.exists():
        raise SourceError(str(path), "no such file or folder")
    if not path.is_file():  # a pipe would block the read, and headers are read by offset
        raise SourceError(str(path), "not a regular file or a folder")
    return read_file(path)


def _pick(folder: Path) -> Path:
    return folder / pick_name({p.name for p in folder.iterdir() if p.is_file()}, str(folder))


def pick_name(names: Collection[str], where: str, choose: str = "pass one file") -> str:
    """The checkpoint among a folder's (or a hub repo's) file ``names``: an index json, else the one
    weights file; ``choose`` says how to name one of several."""
    for name in _INDEXES:
        if name in names:
            return name
    indexes = sorted(name for name in names if name.endswith(".index.json"))
    if len(indexes) == 1:
        return indexes[0]
    for name in _SINGLES:
        if name in names:
            return name
    for suffix in (".safetensors", ".gguf", ".bin", ".pt", ".pth"):
        found = sorted(name for name in names if name.endswith(suffix))
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UnknownCheckpointError(where, f"{len(found)} *{suffix} files and no index json; "
                                                f"{choose} (e.g. {found[0]})")
    raise UnknownCheckpointError(where, "no checkpoint here (no index json, .safetensors, .gguf, .bin or .pt)")


def read_file(path: str | os.PathLike[str], *, file_label: str | None = None) -> Checkpoint:
    path = Path(path)
    name = path.name
    if name.endswith(".index.json"):
        from .sharded import read_sharded

        return read_sharded(path)
    kind = _kind(path)
    if kind == "safetensors":
        from .safetensors import read_safetensors

        return read_safetensors(path, file_label=file_label)
    if kind == "gguf":
        from .gguf import read_gguf

        return read_gguf(path)
    if kind == "pytorch":
        from .torch_file import read_torch

        return read_torch(path, file_label=file_label)
    raise UnknownCheckpointError(str(path), "not a .safetensors, .gguf, .bin/.pt file or an index json")


def looks_like_checkpoint(path: Path, head: bytes) -> bool:
    """Whether a file named as a config is a checkpoint, by its suffix or its first bytes."""
    return _kind(path, head) is not None


def _kind(path: Path, head: bytes | None = None) -> str | None:
    suffix = path.suffix.lower()
    if suffix == ".safetensors":
        return "safetensors"
    if suffix == ".gguf":
        return "gguf"
    if suffix in _TORCH_SUFFIXES:
        return "pytorch"
    if head is None:
        try:
            with open(path, "rb") as handle:
                head = handle.read(9)
        except OSError:
            return None
    if head[:4] == b"GGUF":
        return "gguf"
    if head[:4] == b"PK\x03\x04":  # torch.save's zip archive
        return "pytorch"
    if len(head) == 9 and head[8:9] == b"{":  # 8-byte length, then the JSON header
        return "safetensors"
    return None


def find_config(path: str | os.PathLike[str]) -> Path | None:
    """The config.json beside a checkpoint file (or in its folder), if there is one."""
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    config = folder / "config.json"
    return config if config.is_file() else None
