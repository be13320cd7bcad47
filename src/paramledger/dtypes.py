"""Storage formats: bits per element, and the scales a group-quantized format adds.

A format stores ``bits`` per value.  A group-quantized format also stores, per group of
``group_size`` values, a scale of ``scale_bits`` (and a zero point of ``zero_bits`` where
the format has one).  Groups run along the tensor's last dimension (the input features of
a Linear weight, as GPTQ, AWQ and the OCP MX formats lay them out), so a group size that
does not divide a tensor's last dimension is refused (OptionError) rather than rounded:
a real quantizer either pads the row or keeps the tensor unquantized, and which one it
does is the checkpoint's choice, not ours.  Keep such tensors at another precision with
``keep`` (``--keep vectors=bf16`` for every 1-D tensor).

The bitsandbytes formats (nf4, nf4_dq, fp4) are the exception, as bitsandbytes is: it
quantizes the flattened tensor in blocks of ``group_size`` values, the last block partial
(bitsandbytes/functional.py quantize_4bit: ``blocks = ceil(n / blocksize)``), so every size
is accepted.  Their code books (16 or 256 fp32 entries per tensor) and serialization
metadata are not counted: they are per tensor, not per value, and vary by version.

Bytes are whole: each tensor's bits are rounded up to a byte on their own (two 4-bit
values share a byte; an odd count leaves half a byte unused).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ._exceptions import OptionError, did_you_mean


@dataclass(frozen=True, slots=True)
class DType:
    name: str
    bits: int  # per stored value
    group_size: int | None = None  # default values per scale (None: no groups)
    scale_bits: int = 0  # per group
    zero_bits: int = 0  # per group (asymmetric formats)
    layout: str = "last_dim"  # "last_dim": groups along the last axis; "flat": bitsandbytes blocks
    # bitsandbytes double quantization: the per-block absmax is itself quantized to 8 bits, with
    # one fp32 absmax per ``nested_group`` blocks and one fp32 offset per tensor (QLoRA, §3).
    nested_group: int | None = None
    source: str = ""

    @property
    def grouped(self) -> bool:
        return self.scale_bits > 0


DTYPES: dict[str, DType] = {
    d.name: d
    for d in (
        DType("fp32", 32, source="IEEE 754 binary32"),
        DType("fp16", 16, source="IEEE 754 binary16"),
        DType("bf16", 16, source="bfloat16"),
        DType("fp8_e4m3", 8, source="OCP FP8 (E4M3), torch.float8_e4m3fn; per-tensor scales not counted"),
        DType("fp8_e5m2", 8, source="OCP FP8 (E5M2), torch.float8_e5m2; per-tensor scales not counted"),
        # Plain int8 counts the values alone; give --group-size to add one fp16 scale per group.
        DType("int8", 8, scale_bits=16, source="8-bit integers; fp16 scale per group when a group size is given"),
        # GPTQ/AWQ-style 4-bit: fp16 scale per 128 values; int4 is symmetric (no zero point),
        # int4_asym adds a packed 4-bit zero point per group (GPTQ's qzeros, AWQ's zeros).
        DType("int4", 4, group_size=128, scale_bits=16, source="symmetric 4-bit, fp16 scale per group"),
        DType("int4_asym", 4, group_size=128, scale_bits=16, zero_bits=4,
              source="GPTQ/AWQ 4-bit: fp16 scale and 4-bit zero point per group"),
        # bitsandbytes 4-bit: an fp32 absmax per 64-value block (bnb.functional.quantize_4bit).
        DType("nf4", 4, group_size=64, scale_bits=32, layout="flat",
              source="bitsandbytes NF4, fp32 absmax per 64-value block"),
        DType("nf4_dq", 4, group_size=64, scale_bits=8, layout="flat", nested_group=256,
              source="bitsandbytes NF4 with double quantization: 8-bit absmax per 64 values, "
                     "fp32 absmax per 256 blocks, one fp32 offset per tensor"),
        DType("fp4", 4, group_size=64, scale_bits=32, layout="flat",
              source="bitsandbytes FP4, fp32 absmax per 64-value block"),
        # OCP Microscaling Formats v1.0: E2M1 / E2M3 / E3M2 elements, one E8M0 scale per 32.
        DType("mxfp4", 4, group_size=32, scale_bits=8, source="OCP MX v1.0 MXFP4: E2M1 values, E8M0 scale per 32"),
        DType("mxfp6_e2m3", 6, group_size=32, scale_bits=8,
              source="OCP MX v1.0 MXFP6 (E2M3), E8M0 scale per 32"),
        DType("mxfp6_e3m2", 6, group_size=32, scale_bits=8,
              source="OCP MX v1.0 MXFP6 (E3M2), E8M0 scale per 32"),
        DType("mxfp8_e4m3", 8, group_size=32, scale_bits=8,
              source="OCP MX v1.0 MXFP8 (E4M3), E8M0 scale per 32"),
    )
}
"""Name -> format.  Names are lower case, as torch and the CLI spell them."""

ALIASES = {"float32": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float": "fp32",
           "fp8": "fp8_e4m3", "float8_e4m3fn": "fp8_e4m3", "float8_e5m2": "fp8_e5m2"}

KV_DTYPES = ("fp32", "fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "int8")
"""Formats the KV cache may take: one value per element, no groups."""


def get_dtype(name: str, option: str = "dtype") -> DType:
    """The format called ``name`` (an alias such as "bfloat16" is accepted)."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    if key not in DTYPES:
        names = [*DTYPES, *ALIASES]
        raise OptionError(option, f"unknown dtype {name!r}{did_you_mean(key, names)}; one of {', '.join(DTYPES)}")
    return DTYPES[key]


def group_size_for(dtype: DType, group_size: int | None, option: str = "group-size") -> int | None:
    """The group size a tensor stored as ``dtype`` uses: ``group_size`` if given, else the default."""
    if group_size is None:
        return dtype.group_size
    if isinstance(group_size, bool) or not isinstance(group_size, int) or group_size < 1:
        raise OptionError(option, f"must be a positive whole number, got {group_size!r}")
    if not dtype.grouped:
        raise OptionError(option, f"{dtype.name} has no groups (it stores no scales)")
    return group_size


def tensor_bytes(dtype: DType, shape: tuple[int, ...], group_size: int | None = None, name: str = "tensor") -> int:
    """Whole bytes a tensor of ``shape`` takes as ``dtype``: values plus group scales
    (and zero points), rounded up to a byte once per tensor."""
    count = math.prod(shape)
    bits = count * dtype.bits
    size = group_size_for(dtype, group_size)
    if size is None or not dtype.grouped or count == 0:
        return -(-bits // 8)
    if dtype.layout == "flat":
        blocks = -(-count // size)
        bits += blocks * dtype.scale_bits
        if dtype.nested_group is not None:
            bits += -(-blocks // dtype.nested_group) * 32 + 32
        return -(-bits // 8)
    last = shape[-1]
    if last % size:
        raise OptionError(
            "group-size",
            f"{size} does not divide the last dimension ({last}) of {name} {tuple(shape)} at {dtype.name}; "
            f"choose a group size that divides it or keep the tensor at another precision (--keep)",
        )
    groups = count // size
    bits += groups * (dtype.scale_bits + dtype.zero_bits)
    return -(-bits // 8)
