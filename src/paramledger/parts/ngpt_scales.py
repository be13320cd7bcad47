"""Dory's nGPT scales placed in a design (transformers 5.24.0 modeling_dory.py): parts/ngpt.py's NgptScales (sqk and
s_gate on the attention, suv_gate and suv_up on the FFN) in every attention layer, beside the attention as
Falcon-H1's Mamba is (``ngpt_scales_beside_attention``), so the attention and the FFN stay the design's own.
Its paths are Dory's (DoryAttention's and DoryMLP's own parameters, each before its module's projections: the
family's layer_order puts them there).  The layers' lambda_1 and lambda_2 are Doge's residual scales renamed, the
head's logit_scale the head's vector held apart (Naming.lm_head_bias): neither is here."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .ngpt import NgptScales


class Keys:
    """The flat keys: every attention layer carries them (no layer list of its own)."""
    ngpt_scales_layers: tuple[int, ...] = ()  # unused: the kind sits beside the attention only
    ngpt_scales_beside_attention: bool = False


class Names:
    """None: NgptScales names its own paths (self_attn, mlp), Dory's."""


def _build(arch: Any) -> NgptScales:
    # DoryAttention: sqk and s_gate are num_attention_heads × head_dim wide; DoryMLP: suv_* intermediate_size
    return tuple.__new__(NgptScales, (arch.num_attention_heads * arch.attention_head_dim, arch.ffn_size,
                                      "self_attn", "mlp"))


def _check(arch: Any, where: str | None) -> None:
    if arch.ngpt_scales_layers:
        raise ArchitectureError("ngpt_scales_layers", "the kind sits beside the attention only: set "
                                "ngpt_scales_beside_attention instead", where)


MIXER = MixerKind("ngpt_scales_layers", Keys, Names, _build,
                  lambda arch: arch.ngpt_scales_beside_attention or bool(arch.ngpt_scales_layers), _check,
                  beside_attention="ngpt_scales_beside_attention")
