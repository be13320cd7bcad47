"""A .safetensors header, read without touching the weights.

The rules are the format's own, as its Rust core enforces them (huggingface/safetensors,
safetensors/src/tensor.rs, ``SafeTensors::read_metadata`` and ``Metadata::validate``):

* 8 bytes, little-endian: the header length N, refused above MAX_HEADER_SIZE *before* the
  header is read, and refused when 8 + N runs past the end of the file;
* N bytes of UTF-8 JSON: an object of tensor name -> {dtype, shape, data_offsets}, plus an
  optional "__metadata__" string -> string map;
* sorted by data_offsets, the spans tile the data section from 0 with no gap or overlap;
* each span is exactly prod(shape) × the dtype's bits / 8 bytes (whole bytes only);
* the last span ends exactly at the end of the file.

Memory stays bounded: at most MAX_HEADER_SIZE bytes are read, whatever the file claims.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from .._exceptions import (
    ByteSpanError,
    DataSizeError,
    DuplicateTensorError,
    HeaderBeyondFileError,
    HeaderEncodingError,
    HeaderJSONError,
    HeaderNotObjectError,
    HeaderTooLargeError,
    HeaderTooSmallError,
    MetadataError,
    OffsetGapError,
    OverlappingOffsetsError,
    ShapeError,
    TensorEntryError,
    TruncatedDataError,
    UnknownDtypeError,
)
from ..limits import JSON_BOUNDS, MAX_TENSORS, check_structure
from ._stored import Checkpoint, StoredTensor, opening

MAX_HEADER_SIZE = 100_000_000  # bytes; the Rust core's MAX_HEADER_SIZE
U64_MAX = (1 << 64) - 1  # the Rust core counts in usize: a larger count is its ValidationOverflow

# Bits per element (safetensors/src/tensor.rs, Dtype::bitsize).  F4 and F6 pack below a
# byte: a span must still be a whole number of bytes.
DTYPE_BITS = {
    "BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8,
    "F8_E8M0": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
    "C64": 64, "F64": 64, "I64": 64, "U64": 64,
}


def _whole(value: Any) -> bool:
    return type(value) is int  # JSON gives int, never a subclass; bool is refused


def _no_duplicates(path: str):
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            # serde refuses a duplicate field and keeps one of two duplicate tensors silently;
            # a header that names anything twice is ambiguous, so it is refused here.
            seen: set[str] = set()
            key = next(k for k, _ in pairs if k in seen or seen.add(k))
            raise DuplicateTensorError(path, "declared twice in the header", key)
        return out

    return hook


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], int, int]:
    """The parsed header object, the header length N and the data section size."""
    path = os.fspath(path)
    with opening(path, ".safetensors"):
        size = os.stat(path).st_size
        with open(path, "rb") as handle:
            return parse_header(path, size, lambda offset, n: _read_at(handle, offset, n))


def _read_at(handle: Any, offset: int, n: int) -> bytes:
    handle.seek(offset)
    return handle.read(n)


def parse_header(path: str, size: int, read_at: Callable[[int, int], bytes]) -> tuple[dict[str, Any], int, int]:
    """``read_header`` over any bytes: ``read_at(offset, n)`` gives at most n bytes of a ``size``-byte
    file (a local file, or HTTP range requests).  Two reads: the 8-byte length, then the header."""
    prefix = read_at(0, 8)
    if len(prefix) < 8:
        raise HeaderTooSmallError(path, f"{len(prefix)} bytes: shorter than the 8-byte header length")
    n = int.from_bytes(prefix, "little")
    if n > MAX_HEADER_SIZE:
        raise HeaderTooLargeError(path, f"header length {n:,} bytes exceeds the {MAX_HEADER_SIZE:,}-byte bound")
    if 8 + n > size:
        raise HeaderBeyondFileError(path, f"header length {n:,} bytes runs past the end of the "
                                          f"{size:,}-byte file")
    raw = read_at(8, n)
    if len(raw) < n:
        raise HeaderBeyondFileError(path, f"header cut short: {len(raw):,} of {n:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise HeaderEncodingError(path, f"header is not UTF-8 (byte {error.start} of the header)") from None
    tensors = raw.count(b'"data_offsets"')
    del raw
    if tensors > MAX_TENSORS:  # memory and time stay bounded: ~1 KB and ~20 µs a tensor
        raise HeaderTooLargeError(path, f"about {tensors:,} tensors in one header: beyond the bound of "
                                        f"{MAX_TENSORS:,} (docs/limits.md)")
    check_structure(text, path, JSON_BOUNDS["safetensors"][1], HeaderJSONError)
    try:
        header = json.loads(text, object_pairs_hook=_no_duplicates(path), parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise HeaderJSONError(path, f"header is not valid JSON: {error.msg} at byte {error.pos}") from None
    except (ValueError, RecursionError) as error:  # NaN, a 5,000-digit number, [[[[... nested too deep
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error).split("\n")[0]
        raise HeaderJSONError(path, f"header is not valid JSON: {reason}") from None
    if not isinstance(header, dict):
        raise HeaderNotObjectError(path, f"header is a JSON {type(header).__name__}, not an object")
    return header, n, size - 8 - n


def read_safetensors(path: str | os.PathLike[str], *, file_label: str | None = None) -> Checkpoint:
    """Every tensor's dtype, shape and byte size, validated against the format's rules."""
    path = os.fspath(path)
    header, _, data_size = read_header(path)
    return checkpoint_from_header(path, header, data_size, file_label)


def checkpoint_from_header(path: str, header: dict[str, Any], data_size: int, file_label: str | None = None
                           ) -> Checkpoint:
    """The validated tensors of a parsed header whose data section holds ``data_size`` bytes."""
    metadata = header.pop("__metadata__", None)
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise MetadataError(path, "__metadata__ must map strings to strings")
    entries = []
    for name, entry in header.items():
        entries.append((_entry(path, name, entry), name))
    entries.sort(key=lambda item: (item[0][2], item[0][3]))
    tensors = []
    start, previous = 0, None
    for (dtype, shape, begin, end), name in entries:
        if begin < start:
            raise OverlappingOffsetsError(path, f"bytes [{begin}, {end}) overlap {previous!r} (which ends at {start})",
                                          name)
        if begin > start:
            after = f"after {previous!r} " if previous is not None else ""
            raise OffsetGapError(path, f"starts at byte {begin}: bytes [{start}, {begin}) {after}belong to no tensor",
                                 name)
        if end < begin:
            raise ByteSpanError(path, f"data_offsets [{begin}, {end}) end before they begin", name)
        if end > data_size:
            raise TruncatedDataError(path, f"needs bytes up to {end:,} but the data section holds {data_size:,}: "
                                           "the file is truncated", name)
        expected = _span_bytes(path, name, dtype, shape)
        if end - begin != expected:
            raise ByteSpanError(path, f"{dtype} {_short(list(shape))} takes {expected:,} bytes but data_offsets span "
                                      f"{end - begin:,}", name)
        tensors.append(StoredTensor(name, dtype, shape, end - begin, file_label))
        start, previous = end, name
    if start != data_size:
        raise DataSizeError(path, f"the tensors end at byte {start:,} of a {data_size:,}-byte data section: "
                                  f"{data_size - start:,} bytes belong to no tensor")
    tensors.sort(key=lambda t: natural_key(t.name))
    return Checkpoint(path, "safetensors", tuple(tensors), metadata)


def _entry(path: str, name: str, entry: Any) -> tuple[str, tuple[int, ...], int, int]:
    if not isinstance(entry, dict):
        raise TensorEntryError(path, f"entry is a JSON {type(entry).__name__}, not an object", name)
    for key in ("dtype", "shape", "data_offsets"):
        if key not in entry:
            raise TensorEntryError(path, f"entry has no {key!r}", name)
    dtype = entry["dtype"]
    if not isinstance(dtype, str) or dtype not in DTYPE_BITS:
        raise UnknownDtypeError(path, f"unknown dtype {dtype!r} (known: {', '.join(DTYPE_BITS)})"[:200], name)
    shape = entry["shape"]
    if not isinstance(shape, list) or not all(_whole(s) and 0 <= s <= U64_MAX for s in shape):
        raise ShapeError(path, f"shape must be a list of non-negative integers below 2^64, got {_short(shape)}", name)
    offsets = entry["data_offsets"]
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(_whole(o) and 0 <= o <= U64_MAX for o in offsets)):
        raise TensorEntryError(path, f"data_offsets must be two non-negative integers, got {_short(offsets)}", name)
    return dtype, tuple(shape), offsets[0], offsets[1]


def _span_bytes(path: str, name: str, dtype: str, shape: tuple[int, ...]) -> int:
    """prod(shape) × bits / 8 with the Rust core's checked multiplication: a count beyond
    64 bits is refused (Python ints do not overflow, but a 10,000-digit product is as absurd
    and the loop stops as soon as it passes the bound)."""
    elements = 1
    for dim in shape:  # try_fold(1, checked_mul), in order: [2^40, 2^40, 0] overflows before the 0
        elements *= dim
        if elements > U64_MAX:
            raise ByteSpanError(path, f"{dtype} {_short(list(shape))}: the byte count overflows 64 bits (its element count does)", name)
    total_bits = elements * DTYPE_BITS[dtype]
    if total_bits > U64_MAX:
        raise ByteSpanError(path, f"{dtype} {_short(list(shape))}: the byte count overflows 64 bits (in bits)", name)
    if total_bits % 8:
        raise ByteSpanError(path, f"{dtype} {_short(list(shape))} is {total_bits} bits, not a whole number of "
                                  "bytes", name)
    return total_bits // 8


def _short(value: Any) -> str:
    if isinstance(value, list) and len(value) > 8:
        value = value[:8] + ["..."]
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def natural_key(name: str) -> str:
    """Sort key: model.layers.10 after model.layers.9 (numbers zero-padded)."""
    return ".".join(part.zfill(20) if part.isdigit() else part for part in name.split("."))
