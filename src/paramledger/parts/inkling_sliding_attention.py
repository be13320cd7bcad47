"""Inkling's sliding-window layers ("hybrid_sliding"; transformers 5.24.0 modeling_inkling.py InklingAttention lines
181-187): parts/inkling_attention.py's part at their own sizes (InklingTextConfig's swa_num_attention_heads,
swa_num_key_value_heads, swa_head_dim), its relative bank spanning sliding_window_size distances.  The keys are
those swa_* names under the kind's prefix (Dots 3 Note's sliding kind holds swa_num_attention_heads and swa_head_dim
for its latent attention)."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .inkling_attention import InklingAttention, kernel

SIZES = ("inkling_swa_num_attention_heads", "inkling_swa_num_key_value_heads", "inkling_swa_head_dim")


class Keys:
    """The flat keys: the sliding layers and their attention's sizes (their window is sliding_window)."""
    inkling_sliding_layers: tuple[int, ...] = ()
    inkling_swa_num_attention_heads: int | None = None
    inkling_swa_num_key_value_heads: int | None = None
    inkling_swa_head_dim: int | None = None


class Names:
    """No path of its own: inkling_attention's."""


def _build(arch: Any) -> InklingAttention:
    return tuple.__new__(InklingAttention, (arch.hidden_size, arch.inkling_swa_num_attention_heads,
                                            arch.inkling_swa_num_key_value_heads, arch.inkling_swa_head_dim,
                                            arch.d_rel, arch.sliding_window, arch.sconv_kernel_size))


def _check(arch: Any, where: str | None) -> None:
    for key in SIZES:
        if not arch.inkling_sliding_layers:  # engaged by a size alone (Inkling 2's sliding layers read them too)
            if getattr(arch, key) is not None and not (arch.inkling2_sliding_layers or arch.inkling2_first_layers):
                raise ArchitectureError(key, "set without inkling_sliding_layers (the Inkling sliding layers)", where)
        elif getattr(arch, key) is None:
            raise ArchitectureError(key, "required with inkling_sliding_layers (the sliding layers' attention size)",
                                    where)
    if arch.inkling_sliding_layers:
        kernel(arch, where)
        heads, kv_heads = arch.inkling_swa_num_attention_heads, arch.inkling_swa_num_key_value_heads
        if heads % kv_heads:  # InklingAttention's num_key_value_groups: the forward pass repeats whole groups
            raise ArchitectureError("inkling_swa_num_key_value_heads", f"{kv_heads} does not divide "
                                    f"inkling_swa_num_attention_heads={heads}", where)
        if not arch.sliding_window:
            raise ArchitectureError("sliding_window", "required with inkling_sliding_layers (the sliding layers' "
                                    "relative bias spans it)", where)


MIXER = MixerKind("inkling_sliding_layers", Keys, Names, _build,
                  lambda arch: bool(arch.inkling_sliding_layers) or any(getattr(arch, key) is not None
                                                                         for key in SIZES),
                  _check, positive_or_null=SIZES)
