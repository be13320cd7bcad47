"""memory's weights under a GGUF mixture (``--dtype Q4_K_M``): every tensor of an inventory at the types
llama-quantize gives it (gguf.py), one row per tensor as memory.WeightBytes lists them."""

from __future__ import annotations

from typing import Any

from .._exceptions import OptionError
from ..dtypes import DType
from ..inventory import Inventory
from ..memory import TensorBytes, WeightBytes
from .gguf import mixture_bytes


def gguf_weights(inv: Inventory, mixture: str, keep: Any, group_size: int | None) -> WeightBytes:
    """Every tensor at the types llama-quantize gives it under ``mixture`` (a fused tensor the converter splits,
    such as experts' gate_up, one row summing its parts)."""
    if keep:
        raise OptionError("keep", f"a GGUF mixture ({mixture}) sets each tensor's type itself; --keep does not apply")
    if group_size is not None:
        raise OptionError("group-size", f"a GGUF mixture ({mixture}) has its own block sizes")
    typed: dict[str, tuple[list[str], int]] = {}
    for t in mixture_bytes(inv, mixture).tensors:
        types, size = typed.get(t.source, ([], 0))
        typed[t.source] = (types if t.type in types else [*types, t.type], size + t.bytes)
    rows, sums = [], {}
    for t in inv.tensors:
        types, size = typed[t.name]
        rows.append(TensorBytes(t.name, t.shape, t.component, "+".join(types), size))
        key = (t.component, types[0])  # bytes by type: a split tensor's goes to its first type
        sums[key] = sums.get(key, 0) + size
    main = DType(mixture, 0, source="llama.cpp's llama-quantize mixture")
    return WeightBytes(inv, main, None, {}, {key: size for key, size in sums.items() if size}, None, tuple(rows))
