"""A layer is a few parts; a model's layers are one Layer per depth, the equal ones one object."""

from __future__ import annotations

from typing import NamedTuple

from ..inventory import Tensor
from ..naming import Naming
from ..parts._collector import Collector
from ..parts._protocol import Part


class Layer(NamedTuple):
    """The parts of one layer, in the order the builder lists their tensors (a token mixer or none,
    an FFN or none, the block's norms, any extras); the views ask each part and never its kind."""
    parts: tuple[Part, ...]

    def tensors(self, naming: Naming, norm_type: str) -> tuple[Tensor, ...]:
        """The layer's tensors, named relative to the layer prefix."""
        c = Collector(naming, norm_type)
        for part in self.parts:
            part.tensors(c)
        return tuple(c.tensors)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return sum(part.kv_values_per_token(mla_layout) for part in self.parts)

    def kv_values(self, context: int, held: int, mla_layout: str = "latent") -> int:
        """Keys and values cached for one sequence after ``context`` tokens, ``held`` within the window."""
        return sum(part.kv_values(context, held, mla_layout) for part in self.parts)

    def kv_float32_values(self, context: int) -> int:
        """Of kv_values, those held in float32 whatever the cache's dtype."""
        return sum(part.kv_float32_values(context) for part in self.parts)

    def cross_kv_values_per_token(self) -> int:
        """Keys and values cached per encoder token (cross-attention: fixed by the encoder's length)."""
        return sum(part.cross_kv_values_per_token() for part in self.parts)

    def encoder_weights(self) -> int:
        return sum(part.encoder_weights() for part in self.parts)

    def encoder_flops(self, encoder_keys: int) -> int:
        return sum(part.encoder_flops(encoder_keys) for part in self.parts)

    def state_values(self) -> int:
        return sum(part.state_values() for part in self.parts)

    def state_float32_values(self) -> int:
        """Of state_values, those held in float32 whatever the cache's dtype."""
        return sum(part.state_float32_values() for part in self.parts)

    def repeated_weights(self) -> int:
        return sum(part.repeated_weights() for part in self.parts)

    def attention_flops(self, keys: int) -> int:
        return sum(part.attention_flops(keys) for part in self.parts)

    def context_flops(self, context: int) -> int:
        return sum(part.context_flops(context) for part in self.parts)

    def expansion_flops(self, keys: int) -> int:
        return sum(part.expansion_flops(keys) for part in self.parts)

    def state_label(self) -> str | None:
        """What holds the layer's fixed state, if a part holds one (parts/_protocol.py)."""
        return next(filter(None, (part.state_label() for part in self.parts)), None)

    def mixer_label(self) -> tuple[str, str | None] | None:
        """The first token mixer's label (parts/_protocol.py); None for a layer without one."""
        return next(filter(None, (part.mixer_label() for part in self.parts)), None)


class LayerPlan(NamedTuple):
    """``layers[i]``: layer i's Layer (equal layers share one object); ``kinds``: each distinct Layer
    with the number of layers that are it, in order of first appearance."""
    layers: tuple[Layer, ...]
    kinds: tuple[tuple[Layer, int], ...]
