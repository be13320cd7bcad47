"""Inkling 2's sliding-window layers but layer 0 ("hybrid_sliding": parts/inkling2_layer.py's part at the swa_*
sizes, parts/inkling_sliding_attention.py's keys, the bank spanning sliding_window)."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .inkling2_layer import check, inkling2_layer


class Keys:
    """The flat key: the sliding layers."""
    inkling2_sliding_layers: tuple[int, ...] = ()


class Names:
    """No paths of its own."""


def sliding_sizes(arch: Any, where: str | None) -> None:
    """The sliding layers' sizes, required and dividing, and their window."""
    for key in ("inkling_swa_num_attention_heads", "inkling_swa_num_key_value_heads", "inkling_swa_head_dim"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with Inkling 2's sliding layers", where)
    if arch.inkling_swa_num_attention_heads % arch.inkling_swa_num_key_value_heads:
        raise ArchitectureError("inkling_swa_num_key_value_heads", f"{arch.inkling_swa_num_key_value_heads} does not "
                                f"divide inkling_swa_num_attention_heads={arch.inkling_swa_num_attention_heads}", where)
    if not arch.sliding_window:
        raise ArchitectureError("sliding_window", "required with Inkling 2's sliding layers (their relative bias "
                                "spans it)", where)


def _check(arch: Any, where: str | None) -> None:
    check(arch, where)
    sliding_sizes(arch, where)


MIXER = MixerKind("inkling2_sliding_layers", Keys, Names, lambda arch: inkling2_layer(arch, False, False),
                  lambda arch: bool(arch.inkling2_sliding_layers), _check)
