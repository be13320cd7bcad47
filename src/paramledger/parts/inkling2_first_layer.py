"""Inkling 2's layer 0 (parts/inkling2_layer.py's part without attention_input: Inkling2SlidingDecoderLayer and
Inkling2FullDecoderLayer build it only for layer_idx > 0), full or sliding as inkling2_first_full says."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .inkling2_layer import check, inkling2_layer
from .inkling2_sliding_layer import sliding_sizes


class Keys:
    """The flat keys: the layers without a block attention residual before their attention (layer 0), and whether it
    is a full-attention layer ("hybrid"; its own key: layer_types is the KV cache's, dropped by a copy that moves it)."""
    inkling2_first_layers: tuple[int, ...] = ()
    inkling2_first_full: bool = False


class Names:
    """No paths of its own."""


def _check(arch: Any, where: str | None) -> None:
    check(arch, where)
    if arch.inkling2_first_layers != (0,):
        raise ArchitectureError("inkling2_first_layers", f"must be [0] (layer 0 alone has no attention_input; at "
                                "another depth, give layer_types for it), got "
                                f"{list(arch.inkling2_first_layers)}"[:200], where)
    if not arch.inkling2_first_full:
        sliding_sizes(arch, where)


MIXER = MixerKind("inkling2_first_layers", Keys, Names,
                  lambda arch: inkling2_layer(arch, arch.inkling2_first_full, True),
                  lambda arch: bool(arch.inkling2_first_layers), _check)
