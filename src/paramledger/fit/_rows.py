"""The tensors a plan places, each with its priced row and the stages holding it: one entry per tensor
outside the layers, and one per kind of layer's tensor with the number of that kind's layers in each
stage, so that a design of a million layers is placed in a second (issue 23), not tensor by tensor."""

from __future__ import annotations

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
