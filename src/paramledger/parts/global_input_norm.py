"""LongT5's transient-global attention normalizes the block-summed global tokens with a norm of its own
(transformers 5.24.0 modeling_longt5.py LongT5TransientGlobalAttention, line 733: ``global_input_layer_norm =
LongT5LayerNorm(d_model)``), registered inside the attention after its projections and tables, in every encoder
block (the tables only in the first: parts/relative_bias.py).  A scale of d_model (the design's norm type); nothing
cached, no FLOPs beyond the norm's."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import SublayerKind, part, plain_attention_only


@part
class GlobalInputNorm(NamedTuple):
    hidden_size: int  # d_model: the global tokens' width

    def tensors(self, c: Collector) -> None:
        c.norm(c.naming.global_input_layer_norm, self.hidden_size)  # (d_model,)


class Keys:
    """The switch: a family that builds it sets it (LongT5's encoder with encoder_attention_type "transient-global")."""
    global_input_norm: bool = False


class Names:
    global_input_layer_norm: str = "self_attn.global_input_layer_norm"


def _build(arch: Any) -> GlobalInputNorm:
    return tuple.__new__(GlobalInputNorm, (arch.hidden_size,))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.global_input_norm,
                        plain_attention_only("global_input_norm"))
