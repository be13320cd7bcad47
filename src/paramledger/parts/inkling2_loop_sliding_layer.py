"""Inkling 2 Loop's looped sliding layers (Inkling2LoopSlidingDecoderLayer with is_loop_layer): Inkling 2's sliding
layer with the four message gates (parts/inkling2_loop_layer.py)."""

from __future__ import annotations

from typing import Any

from ._protocol import MixerKind
from .inkling2_layer import inkling2_layer
from .inkling2_loop_layer import loop_check
from .inkling2_sliding_layer import sliding_sizes


class Keys:
    """The flat key: the looped sliding layers."""
    inkling2_loop_sliding_layers: tuple[int, ...] = ()


class Names:
    """No paths of its own."""


def _check(arch: Any, where: str | None) -> None:
    loop_check(arch, where)
    sliding_sizes(arch, where)


MIXER = MixerKind("inkling2_loop_sliding_layers", Keys, Names, lambda arch: inkling2_layer(arch, False, False, True),
                  lambda arch: bool(arch.inkling2_loop_sliding_layers), _check)
