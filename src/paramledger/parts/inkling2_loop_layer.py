"""Inkling 2 Loop's looped full layers (transformers 5.24.0 modeling_inkling2_loop.py: the layers from
loop_layer_index_start to loop_layer_index_end - 1, Inkling2LoopFullDecoderLayer with is_loop_layer): Inkling 2's full
layer (parts/inkling2_layer.py) and, after it, four message gates (q, k, v, mlp: Inkling2LoopMessageGate's down_proj
(loop_gate_rank, 2 × hidden), forget_gate_proj and message_gate_proj (hidden, loop_gate_rank)).  The layers run
loop_num_passes times a token, each pass caching its own keys, values and conv states (the part's passes)."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .inkling2_layer import check, inkling2_layer


class Keys:
    """The flat keys: the looped full layers, the gates' rank (loop_gate_rank), and how many layers loop (the first
    axis of the model's message_input.query)."""
    inkling2_loop_full_layers: tuple[int, ...] = ()
    loop_gate_rank: int | None = None
    loop_num_passes: int | None = None
    inkling2_loop_layer_count: int | None = None


class Names:
    """No paths of its own."""


def loop_check(arch: Any, where: str | None) -> None:
    """The refusals both looped kinds share."""
    check(arch, where)
    for key in ("loop_gate_rank", "loop_num_passes", "inkling2_loop_layer_count"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with Inkling 2 Loop's looped layers", where)


MIXER = MixerKind("inkling2_loop_full_layers", Keys, Names, lambda arch: inkling2_layer(arch, True, False, True),
                  lambda arch: bool(arch.inkling2_loop_full_layers) or arch.loop_gate_rank is not None
                  or arch.loop_num_passes is not None or arch.inkling2_loop_layer_count is not None,
                  lambda arch, where: loop_check(arch, where) if arch.inkling2_loop_full_layers else None,
                  positive_or_null=("loop_gate_rank", "loop_num_passes"))
