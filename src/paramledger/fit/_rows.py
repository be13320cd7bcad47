"""The tensors a plan places, each with its priced row and the stages holding it: one entry per tensor
outside the layers, and one per kind of layer's tensor with the number of that kind's layers in each
stage, so that a design of a million layers is placed in a second (issue 23), not tensor by tensor."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from ..inventory import StampedTensors, Tensor
from .sharding import stage_of

GROUPED_PAST = 1_000  # layers: below it every tensor is placed one by one, as listed

Placed = tuple[Tensor, Any, list[tuple[int, int]]]  # (tensor, priced row, [(stage, times held there)])


def placed_tensors(inv: Any, naming: Any, priced: Any, stages: list[tuple[int, int]],
                   per_tensor: Callable[[Any, Any], list[Any]], grouped: bool | None = None) -> Iterator[Placed]:
    """Every tensor of ``inv`` once with its row, or each kind of layer's once where the weights are priced
    by dtype alone (no stored method, whose pieces follow the flat list) and the layers are many."""
    tensors = inv.tensors
    if grouped is None:
        grouped = isinstance(tensors, StampedTensors) and len(tensors.blocks) > GROUPED_PAST
    if (not grouped or not isinstance(tensors, StampedTensors) or getattr(priced, "gguf_rows", None) is not None
            or getattr(priced, "stored", None) is not None and priced.stored.method is not None):
        for t, row in zip(tensors, per_tensor(inv, priced)):
            yield t, row, [(stage, 1) for stage in stage_of(t, naming, stages)]
        return
    from ..memory import TensorBytes, _priced

    def row(t: Tensor) -> Any:
        return TensorBytes(t.name, t.shape, t.component, *_priced(t, t.name, priced.main, priced.group_size,
                                                                  priced.keep, priced.float32))

    for t in (*tensors.head, *tensors.tail):
        yield t, row(t), [(stage, 1) for stage in stage_of(t, naming, stages)]
    kinds = len(tensors.distinct_blocks())
    whole = Counter({id(block): n for block, n in tensors.distinct_blocks()})  # a stage of every layer
    per_stage = [Counter({id(tensors.distinct_blocks()[0][0]): end - start}) if kinds == 1
                 else whole if (start, end) == (0, len(tensors.blocks))
                 else Counter(map(id, tensors.blocks[start:end])) for start, end in stages]
    first: dict[int, int] = {}  # each kind's first layer, found as memory.weight_bytes finds it
    for i, block in enumerate(tensors.blocks):
        first.setdefault(id(block), i)
        if len(first) == kinds:
            break
    for kind, i in first.items():
        block = tensors.blocks[i]
        prefix = tensors.layer_prefix.format(i=i)
        held = [(stage, counts[kind]) for stage, counts in enumerate(per_stage) if counts[kind]]
        for t in block:
            full = t._replace(name=prefix + t.name, layer=i)
            yield full, row(full), held


def per_tensor(inv: Any, priced: Any) -> list[Any]:
    """One priced row per learned tensor.  A stored quantized format (memory.weight_bytes with dtype None) lists
    a tensor's stored pieces (packed values, scales, zero points) as rows after one another, in inventory order:
    each tensor's rows are summed into one row at its own name and shape, priced in proportion when split."""
    rows = [row for row in priced.tensors if row.component != "buffers"]  # the buffers: on every device
    tensors = list(inv.tensors)
    if getattr(priced, "stored", None) is None or len(rows) == len(tensors) and all(
            row.name == t.name for row, t in zip(rows, tensors)):
        return rows

    def module(name: str) -> str:
        return name.rsplit(".", 1)[0] if name.endswith((".weight", ".bias")) else name

    out, i = [], 0
    for k, t in enumerate(tensors):
        nxt = tensors[k + 1].name if k + 1 < len(tensors) else None
        size, start = 0, i
        while i < len(rows) and (i == start or not _starts(rows[i].name, nxt, module)):
            size += rows[i].bytes
            i += 1
        out.append(dataclasses.replace(rows[start], name=t.name, shape=t.shape, dtype="stored", bytes=size)
                   if start < len(rows) else None)
    if i != len(rows) or None in out:  # the pieces did not line up: each tensor its share by count
        total, count = priced.total, sum(count_of(t.shape) for t in tensors)
        return [dataclasses.replace(rows[0], name=t.name, shape=t.shape, dtype="stored",
                                    bytes=total * count_of(t.shape) // count) for t in tensors]
    return out


def _starts(name: str, nxt: str | None, module: Any) -> bool:
    """Whether a stored piece called ``name`` is the next tensor's first."""
    if nxt is None:
        return False
    return name == nxt or name.startswith(module(nxt) + ".") and module(nxt) != nxt or name.startswith(nxt + "_")


def count_of(shape: tuple[int, ...]) -> int:
    out = 1
    for size in shape:
        out *= size
    return out
