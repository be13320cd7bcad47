"""NeoMME's per-layer input mix (transformers 5.24.0 modeling_neomme.py NeoMMEEncoderLayer, lines 380-417): each layer
holds ``lambdas``, a (2,) Parameter registered before its attention, mixing the hidden state and the first layer's input
(lambdas[0] · hidden + lambdas[1] · initial) before the input norm.  Nothing cached, no FLOPs beyond two scalings."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import SublayerKind, part, plain_attention_only


@part
class LayerLambdas(NamedTuple):
    inputs: int  # 2: the hidden state's weight and the first input's

    def tensors(self, c: Collector) -> None:
        c.add(c.naming.mix_lambdas, (self.inputs,), "norm")  # (2,)


class Keys:
    """The switch: a family that builds it sets it (NeoMME)."""
    layer_lambdas: bool = False


class Names:
    mix_lambdas: str = "lambdas"


def _build(arch: Any) -> LayerLambdas:
    return tuple.__new__(LayerLambdas, (2,))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.layer_lambdas, plain_attention_only("layer_lambdas"))
