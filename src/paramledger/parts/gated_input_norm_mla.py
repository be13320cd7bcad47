"""A.X-K2's dense layers (transformers 5.24.0 modeling_axk2.py AXK2DecoderLayer, lines 662-673): the part of
parts/gated_norm_mla.py with its input norm gated and post_attention_layernorm a plain RMSNorm (the gate wraps it in
the MoE layers only).  Its rank is that module's key, gated_norm_rank."""

from __future__ import annotations

from typing import Any

from ._protocol import MixerKind
from .gated_norm_mla import GatedNormLatentAttention, build, check


class Keys:
    """The flat key: the layers gating their input norm alone."""
    gated_input_norm_mla_layers: tuple[int, ...] = ()


class Names:
    """No path of its own: gated_norm_mla's."""


def _build(arch: Any) -> GatedNormLatentAttention:
    return build(arch, ffn_norm_gated=False)


MIXER = MixerKind("gated_input_norm_mla_layers", Keys, Names, _build,
                  lambda arch: bool(arch.gated_input_norm_mla_layers),
                  lambda arch, where: check(arch, where, "gated_input_norm_mla_layers"))
