"""A layer's own parts held one module down, beside a shared block (transformers 5.24.0 ZambaHybridLayer
and Zamba2HybridLayer keep a whole Mamba layer, mixer and norm, under mamba_decoder): the layer's tensors
named under Naming.inner_layer, its cache, state and FLOPs its own."""

from __future__ import annotations

from typing import NamedTuple

from ..design.layers import Layer
from ._collector import Collector
from ._protocol import part


@part
class InnerLayer(NamedTuple):
    layer: Layer  # the parts a layer of their kind holds (flat.layer_for)

    def tensors(self, c: Collector) -> None:
        prefix = c.naming.inner_layer + "."
        for t in self.layer.tensors(c.naming, c._norm_kind):
            c.add(prefix + t.name, t.shape, t.component, t.layer, t.experts)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return self.layer.kv_values_per_token(mla_layout)

    def state_values(self) -> int:
        return self.layer.state_values()

    def attention_flops(self, keys: int) -> int:
        return self.layer.attention_flops(keys)

    def expansion_flops(self, keys: int) -> int:
        return self.layer.expansion_flops(keys)

    def mixer_label(self) -> tuple[str, str | None] | None:
        return self.layer.mixer_label()

    def state_label(self) -> str | None:
        return self.layer.state_label()
