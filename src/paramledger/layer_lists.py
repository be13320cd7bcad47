"""Layers that are no modules of their own (Naming.layer_lists): XLMModel (transformers 5.24.0
models/xlm/modeling_xlm.py lines 708-724, FlaubertModel likewise) holds one nn.ModuleList per kind of module,
``attentions``, ``layer_norm1``, ``ffns``, ``layer_norm2``, and named_parameters() lists each list whole: every
layer's attention before any layer's norm.

The builder builds those layers as any other's, under the lists' parent (``Naming.layer``, "transformer.{i}"); here
the built list is renamed and reordered: layer i's "attentions.q_lin.weight" is
"transformer.attentions.{i}.q_lin.weight".
The result is a flat list (no StampedTensors): its views read names per tensor, as they read a checkpoint's."""

from __future__ import annotations

from typing import Any

from ._exceptions import ArchitectureError
from .inventory import StampedTensors, Tensor

LISTED_LAYERS = 10_000
"""The most layers listed so (docs/limits.md): no block is shared by every layer's count here, so each tensor is made,
and a depth far past any release's (12 to 24 layers) would take minutes and gigabytes; 10,000 layers take ~5 s."""


def by_module_list(tensors: StampedTensors, arch: Any) -> tuple[Tensor, ...]:
    """The flat list with each layer's tensor under its list ("{parent}{list}.{i}.{rest}"), the lists in the order a
    layer's tensors first meet them (Naming.layer_order), each list's layers in order; the tensors outside the
    layers where they were (model_order).  One tuple made per tensor, as StampedTensors' own expansion makes."""
    if arch.num_hidden_layers > LISTED_LAYERS:
        raise ArchitectureError("num_hidden_layers", f"{arch.num_hidden_layers:,} layers of {arch.model_type}'s module "
                                f"lists are beyond the {LISTED_LAYERS:,} paramledger lists one tensor at a time "
                                "(docs/limits.md)", arch.source)
    before, after = tensors.outside()
    parent = tensors.layer_prefix.partition("{i}")[0]  # "transformer."
    kinds, keys = tensors.kinds_by_layer()  # each kind's block in layer_order; each layer's kind (None: all alike)
    lists: dict[str, None] = {}  # the lists' names, in the order first met
    split: list[dict[str, list[tuple[str, Tensor]]]] = []  # per kind: list name -> (rest of the name, tensor)
    for block in kinds:
        by_list: dict[str, list[tuple[str, Tensor]]] = {}
        for t in block:
            module, _, rest = t.name.partition(".")
            lists.setdefault(module)
            by_list.setdefault(module, []).append((rest, t))
        split.append(by_list)
    of_layer = keys if keys is not None else [0] * len(tensors.blocks)
    new, flat = tuple.__new__, list(before)  # tuple.__new__: NamedTuple's _make without its check
    for module in lists:
        for i, kind in enumerate(of_layer):
            flat += [new(Tensor, (f"{parent}{module}.{i}.{rest}", t[1], t[2], i, t[4], t[5]))
                     for rest, t in split[kind].get(module, ())]
    flat.extend(after)
    return tuple(flat)
