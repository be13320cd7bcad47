"""Layers in two lists of different shapes (Naming.layer_blocks): FunnelModel (transformers 5.24.0
models/funnel/modeling_funnel.py lines 525-535 and 610-615) registers its encoder's layers as blocks.{b}.{j}, block b
holding block_sizes[b] layers, and its decoder's after them as layers.{i}.  named_parameters() lists the encoder's
blocks in order, then the decoder's layers: the design's one list of layers in that order.

The builder builds every layer under ``Naming.layer`` (the decoder's path); here the layers before the blocks' sum
are renamed into their block, the others numbered from 0.  The result is a flat list (no StampedTensors), as
layer_lists.py's: its views read names per tensor, as they read a checkpoint's."""

from __future__ import annotations

from typing import Any

from ._exceptions import ArchitectureError
from .inventory import StampedTensors, Tensor
from .layer_lists import LISTED_LAYERS


def layer_paths(arch: Any, blocks: str, layer: str) -> list[str]:
    """Each design layer's path: block b's layer j at ``blocks``, then the rest at ``layer`` from 0."""
    paths = [blocks.format(b=b, j=j) for b, size in enumerate(arch.block_sizes) for j in range(size)]
    return paths + [layer.format(i=i) for i in range(arch.num_hidden_layers - len(paths))]


def in_blocks(tensors: StampedTensors, arch: Any, blocks: str) -> tuple[Tensor, ...]:
    """The flat list with each layer's tensors under its own path, in the built order (blocks, then the rest)."""
    if arch.num_hidden_layers > LISTED_LAYERS:
        raise ArchitectureError("num_hidden_layers", f"{arch.num_hidden_layers:,} layers of {arch.model_type}'s blocks "
                                f"are beyond the {LISTED_LAYERS:,} paramledger lists one tensor at a time "
                                "(docs/limits.md)", arch.source)
    template = tensors.layer_prefix  # "funnel.decoder.layers.{i}."
    paths = layer_paths(arch, blocks, template.removesuffix("."))
    cut = [len(template.format(i=i)) for i in range(len(paths))]  # each built name's layer prefix
    new = tuple.__new__  # NamedTuple's _make without its check
    return tuple(t if t.layer is None else new(Tensor, (f"{paths[t.layer]}.{t.name[cut[t.layer]:]}", *t[1:]))
                 for t in tensors)
