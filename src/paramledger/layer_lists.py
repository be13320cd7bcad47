"""Layers that are no modules of their own (Naming.layer_lists): XLMModel (transformers 5.24.0
models/xlm/modeling_xlm.py lines 708-724, FlaubertModel likewise) holds one nn.ModuleList per kind of module,
``attentions``, ``layer_norm1``, ``ffns``, ``layer_norm2``, and named_parameters() lists each list whole: every
layer's attention before any layer's norm.

The builder builds those layers as any other's, under the lists' parent (``Naming.layer``, "transformer.{i}"); here
the built list is renamed and reordered: layer i's "attentions.q_lin.weight" is "transformer.attentions.{i}.q_lin.weight".
The result is a flat list (no StampedTensors): its views read names per tensor, as they read a checkpoint's."""

from __future__ import annotations

from .inventory import StampedTensors, Tensor


def by_module_list(tensors: StampedTensors) -> tuple[Tensor, ...]:
    """The flat list with each layer's tensor under its list ("{parent}{list}.{i}.{rest}"), the lists in the order a
    layer's tensors first meet them (Naming.layer_order), each list's layers in order; the tensors outside the
    layers where they were (model_order)."""
    before, after = tensors.outside()
    flat = tuple(tensors)
    parent = tensors.layer_prefix.partition("{i}")[0]  # "transformer."
    lists: dict[str, int] = {}  # a list's name -> its place, first met in layer 0
    keyed = []
    for t in flat[len(before):len(flat) - len(after)]:
        module, _, rest = t.name[len(parent) + len(str(t.layer)) + 1:].partition(".")
        keyed.append((lists.setdefault(module, len(lists)), t.layer, len(keyed),
                      t._replace(name=f"{parent}{module}.{t.layer}.{rest}")))
    keyed.sort()
    return (*before, *(t for *_, t in keyed), *after)
