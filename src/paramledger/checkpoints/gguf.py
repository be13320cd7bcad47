"""A GGUF header (llama.cpp's format, versions 2 and 3), read without touching the weights.

Layout (ggml/docs/gguf.md; checks as ggml/src/gguf.cpp ``gguf_init_from_file_impl``):
magic "GGUF", u32 version, u64 tensor count, u64 key-value count; the key-value pairs
(a string key, a u32 value type, the value; arrays carry an element type and a u64
count); then per tensor a string name, u32 n_dims, n_dims u64 dims (innermost first), a
u32 ggml type and a u64 offset into the data section, which starts at the next multiple
of ``general.alignment`` (default 32).  Each tensor's offset is where the previous one
ended, padded to the alignment.

Quantized types store blocks: ``values`` come from the dims, ``nbytes`` from the blocks
(a Q4_K block holds 256 values in 144 bytes).  Every count and string length is bounded
by the bytes left in the file before anything is allocated, and long arrays (the
tokenizer's vocabulary) are skipped and summarized, so memory stays bounded whatever the
header claims.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import Any, BinaryIO, NamedTuple

from .._exceptions import (
    DuplicateTensorError,
    GGUFCountError,
    GGUFMagicError,
    GGUFTensorError,
    GGUFTruncatedError,
    GGUFValueTypeError,
    GGUFVersionError,
    UnknownDtypeError,
)
from ..quantization.gguf import BUNDLED
from ._stored import Checkpoint, StoredTensor, opening

MAGIC = b"GGUF"
VERSIONS = (2, 3)  # version 1 used 32-bit counts and is long gone
DEFAULT_ALIGNMENT = 32
MAX_DIMS = 4  # GGML_MAX_DIMS
MAX_NAME = 64  # GGML_MAX_NAME: llama.cpp refuses a tensor name of 64 bytes or more
MAX_STRING = 1 << 26  # 64 MiB: far above any chat template, far below an allocation hazard
MAX_ENTRIES = 1 << 20  # tensors or key-value pairs; real models hold a few thousand
# Strings in one array: a vocabulary holds at most a few hundred thousand tokens (Gemma 3's 262,144) and a
# merges list about as many; each skipped string is still one read, so this bounds the time too.
MAX_STRINGS = 1 << 21
# The bytes of string values kept in memory, all together: chat templates and names are kilobytes.
MAX_KEPT = 1 << 26
KEEP_ARRAY = 64  # arrays up to this length are kept; longer ones are summarized
INT64_MAX = (1 << 63) - 1

# ggml type -> (name, values per block, bytes per block): quantization/gguf.py's bundled table (gguf 0.19.0
# constants.GGML_QUANT_SIZES; tests/test_gguf_types.py checks it against the package), one table for both.
GGML_TYPES: dict[int, tuple[str, int, int]] = {type_id: (name, values, size) for type_id, name, values, size in BUNDLED}
UNQUANTIZED = frozenset(name for _, name, values, _ in BUNDLED if values == 1)

# value type -> (name, struct format); 8 string and 9 array are read apart.
_SCALARS = {0: ("UINT8", "<B"), 1: ("INT8", "<b"), 2: ("UINT16", "<H"), 3: ("INT16", "<h"),
            4: ("UINT32", "<I"), 5: ("INT32", "<i"), 6: ("FLOAT32", "<f"), 7: ("BOOL", "<?"),
            10: ("UINT64", "<Q"), 11: ("INT64", "<q"), 12: ("FLOAT64", "<d")}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True)
class ArraySummary:
    """A long metadata array, skipped: its element type and length."""

    element_type: str
    count: int

    def __str__(self) -> str:
        return f"[{self.count:,} {self.element_type.lower()}]"


class _Reader:
    """Reads from a file, refusing any read past its end before allocating for it."""

    def __init__(self, handle: BinaryIO, path: str, size: int) -> None:
        self.handle, self.path, self.size = handle, path, size
        self.pos = 0
        self.kept = 0  # bytes of strings kept so far (MAX_KEPT)

    @property
    def left(self) -> int:
        return self.size - self.pos

    def take(self, n: int, what: str, tensor: str | None = None) -> bytes:
        if n > self.left:
            raise GGUFTruncatedError(self.path, f"{what} needs {n:,} bytes at offset {self.pos:,} but the file "
                                                f"has {self.left:,} left", tensor)
        data = self.handle.read(n)
        if len(data) != n:
            raise GGUFTruncatedError(self.path, f"{what} cut short at offset {self.pos:,}", tensor)
        self.pos += n
        return data

    def skip(self, n: int, what: str) -> None:
        if n > self.left:
            raise GGUFTruncatedError(self.path, f"{what} needs {n:,} bytes at offset {self.pos:,} but the file "
                                                f"has {self.left:,} left")
        self.handle.seek(n, os.SEEK_CUR)
        self.pos += n

    def unpack(self, fmt: str, what: str, tensor: str | None = None) -> Any:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what, tensor))[0]

    def string(self, what: str, limit: int = MAX_STRING, tensor: str | None = None, keep: bool = True) -> str:
        n = self.unpack("<Q", f"{what} length", tensor)
        if n > limit:
            raise GGUFCountError(self.path, f"{what} claims {n:,} bytes (at most {limit:,})", tensor)
        if keep and self.kept + n > MAX_KEPT:  # past the budget: read over it, say what was there
            self.skip(n, what)
            return f"<{n:,} bytes not kept: the strings kept already hold {MAX_KEPT:,}>"
        if not keep:
            self.skip(n, what)
            return ""
        self.kept += n
        return self.take(n, what, tensor).decode("utf-8", errors="replace")


def read_gguf(path: str | os.PathLike[str]) -> Checkpoint:
    path = os.fspath(path)
    with opening(path, ".gguf"):
        size = os.stat(path).st_size
        with open(path, "rb") as handle:
            return _parse(_Reader(handle, path, size))


def read_gguf_from(handle: BinaryIO, label: str, size: int) -> Checkpoint:
    """``read_gguf`` over any stream with ``read(n)`` and ``seek(n, SEEK_CUR)`` holding ``size`` bytes
    (a hub file read by HTTP range requests: hub/ranges.py)."""
    return _parse(_Reader(handle, label, size))


def _parse(r: _Reader) -> Checkpoint:
    path = r.path
    if r.size < 4 or r.take(4, "magic") != MAGIC:
        raise GGUFMagicError(path, "not a GGUF file (it does not start with the magic 'GGUF')")
    version = r.unpack("<I", "version")
    if version not in VERSIONS:
        if version & 0xFFFF == 0 and (version >> 24) in VERSIONS:
            raise GGUFVersionError(path, f"big-endian GGUF (version {version >> 24}) is not supported")
        raise GGUFVersionError(path, f"GGUF version {version} is not supported (only {', '.join(map(str, VERSIONS))})")
    n_tensors = r.unpack("<Q", "tensor count")
    n_kv = r.unpack("<Q", "key-value count")
    # The smallest tensor info is 24 bytes (empty name, no dims); the smallest pair 13.
    _bound(r, n_tensors, 24, "tensor count")
    _bound(r, n_kv, 13, "key-value count")
    metadata: dict[str, Any] = {}
    for _ in range(n_kv):
        key = r.string("metadata key")
        if key in metadata:
            raise GGUFValueTypeError(path, f"metadata key {key!r} appears twice")
        metadata[key] = _value(r, r.unpack("<I", f"type of {key!r}"), key)
    alignment = metadata.get("general.alignment", DEFAULT_ALIGNMENT)
    if not isinstance(alignment, int) or isinstance(alignment, bool) or alignment <= 0 or alignment & (alignment - 1):
        raise GGUFValueTypeError(path, f"general.alignment must be a power of two, got {alignment!r}")
    infos: list[_TensorInfo] = []
    seen: set[str] = set()
    for _ in range(n_tensors):
        name = r.string("tensor name", limit=MAX_NAME - 1)
        if name in seen:
            raise DuplicateTensorError(path, "declared twice", name)
        seen.add(name)
        infos.append(_tensor_info(r, name))
    # Each tensor starts where the previous one ended, padded to the alignment (gguf.cpp).
    expected, tensors = 0, []
    for info in infos:
        if info.offset != expected:
            raise GGUFTensorError(path, f"offset {info.offset:,} where the previous tensors end at {expected:,}",
                                  info.name)
        expected += -(-info.nbytes // alignment) * alignment
        tensors.append(StoredTensor(info.name, info.type_name, tuple(reversed(info.dims)), info.nbytes))
    if infos:
        data_start = -(-r.pos // alignment) * alignment
        data_end = data_start + infos[-1].offset + infos[-1].nbytes
        if data_end > r.size:
            raise GGUFTruncatedError(path, f"the tensor data ends at byte {data_end:,} but the file has {r.size:,} "
                                           f"bytes (last tensor {infos[-1].name!r})")
    notes = []
    if any(t.dtype not in UNQUANTIZED for t in tensors):
        notes.append("quantized GGML types store blocks: values come from the dims, bytes from the blocks")
    return Checkpoint(path, f"gguf v{version}", tuple(tensors), metadata, notes=tuple(notes))


def _bound(r: _Reader, count: int, smallest: int, what: str, cap: int | None = MAX_ENTRIES) -> None:
    """Refuse a count before looping over it: each entry takes at least ``smallest`` bytes."""
    if count * smallest > r.left:
        raise GGUFCountError(r.path, f"{what} {count:,} is more than the {r.left:,} bytes left in the file can hold")
    if cap is not None and count > cap:
        raise GGUFCountError(r.path, f"{what} {count:,} is beyond the {cap:,} bound")


def _value(r: _Reader, kind: int, key: str) -> Any:
    if kind in _SCALARS:
        return r.unpack(_SCALARS[kind][1], f"value of {key!r}")
    if kind == _STRING:
        return r.string(f"string value of {key!r}")
    if kind == _ARRAY:
        element = r.unpack("<I", f"array type of {key!r}")
        count = r.unpack("<Q", f"array length of {key!r}")
        if element == _ARRAY:
            raise GGUFValueTypeError(r.path, f"{key!r} is an array of arrays, which is not supported")
        if element == _STRING:
            _bound(r, count, 8, f"array length of {key!r}", cap=MAX_STRINGS)
            keep = count <= KEEP_ARRAY
            items = [r.string(f"string {i} of {key!r}", keep=keep) for i in range(count)]
            return items if keep else ArraySummary("STRING", count)
        if element not in _SCALARS:
            raise GGUFValueTypeError(r.path, f"{key!r} is an array of unknown value type {element}")
        name, fmt = _SCALARS[element]
        width = struct.calcsize(fmt)
        _bound(r, count, width, f"array length of {key!r}", cap=None)
        if count > KEEP_ARRAY:
            r.skip(count * width, f"array {key!r}")
            return ArraySummary(name, count)
        return list(struct.unpack(f"<{count}{fmt[1]}", r.take(count * width, f"array {key!r}")))
    raise GGUFValueTypeError(r.path, f"metadata key {key!r} has unknown value type {kind}")


class _TensorInfo(NamedTuple):
    name: str
    type_name: str
    dims: tuple[int, ...]  # innermost first, as GGUF stores them
    nbytes: int
    offset: int  # into the data section


def _tensor_info(r: _Reader, name: str) -> _TensorInfo:
    n_dims = r.unpack("<I", "n_dims", name)
    if n_dims > MAX_DIMS:
        raise GGUFTensorError(r.path, f"{n_dims} dims (GGML allows at most {MAX_DIMS})", name)
    dims = tuple(r.unpack("<Q", "dims", name) for _ in range(n_dims))
    values = 1
    for dim in dims:
        values *= dim
        if dim > INT64_MAX or values > INT64_MAX:
            raise GGUFTensorError(r.path, f"dims {list(dims)} overflow a 64-bit element count", name)
    type_id = r.unpack("<I", "ggml type", name)
    if type_id not in GGML_TYPES:
        raise UnknownDtypeError(r.path, f"unknown ggml type {type_id}", name)
    type_name, block, block_bytes = GGML_TYPES[type_id]
    if dims and dims[0] % block:
        raise GGUFTensorError(r.path, f"innermost dim {dims[0]} is not a multiple of the {type_name} block "
                                      f"({block} values)", name)
    nbytes = values // block * block_bytes
    offset = r.unpack("<Q", "offset", name)
    return _TensorInfo(name, type_name, dims, nbytes, offset)


# GGUF tensor names (llama.cpp, gguf-py constants.TENSOR_NAMES) -> the Naming field that
# holds the same tensor in transformers, so a GGUF file can be matched to a family's
# inventory.  Experts are stored per projection in GGUF and fused in transformers 5: they
# are compared by component, not by name.
GGUF_TO_NAMING = {
    "token_embd": "embed", "position_embd": "positions", "output_norm": "final_norm", "output": "lm_head",
    "attn_q": "q", "attn_k": "k", "attn_v": "v", "attn_qkv": "qkv", "attn_output": "o",
    "attn_q_norm": "q_norm", "attn_k_norm": "k_norm", "attn_norm": "attn_pre_norm",
    "post_attention_norm": "attn_post_norm", "ffn_norm": "ffn_pre_norm", "post_ffw_norm": "ffn_post_norm",
    "ffn_gate": "gate", "ffn_up": "up", "ffn_down": "down", "ffn_gate_inp": "router",
}


def hf_name(gguf_name: str, naming: Any) -> str | None:
    """The transformers name of a GGUF tensor under ``naming`` (a paramledger Naming), or None."""
    parts = gguf_name.split(".")
    if len(parts) < 2 or parts[-1] not in ("weight", "bias"):
        return None
    suffix = parts[-1]
    if parts[0] == "blk" and len(parts) == 4 and parts[1].isdigit():
        field = GGUF_TO_NAMING.get(parts[2])
        if field is None or field in ("embed", "positions", "final_norm", "lm_head"):
            return None
        path = getattr(naming, field)
        if path is None:
            return None
        return f"{naming.layer.format(i=int(parts[1]))}.{path}.{suffix}"
    if len(parts) == 2:
        field = GGUF_TO_NAMING.get(parts[0])
        if field in ("embed", "positions", "final_norm", "lm_head"):
            return f"{getattr(naming, field)}.{suffix}"
    return None
