"""A layer run more than once a token, its tensors held once (layer_passes): HRM-Text's recurrent forward runs
each layer of its L_module H_cycles × L_cycles times a token and each of its H_module H_cycles times, every run
caching its own keys and values in a slot of its own (transformers 5.24.0 modeling_hrm_text.py, HrmTextModel.forward:
``cycle_offset``, num_layers_per_stack × H_cycles × (L_cycles + 1) slots; HrmTextAttention's cache.update at
layer_idx + cycle_offset).  Its tensors are the wrapped layer's, named as they are; its cache, fixed state and
attention FLOPs are the wrapped layer's times the runs, and each run past the first multiplies by the layer's matmul
weights again (compute.py reads repeated_weights)."""

from __future__ import annotations

from typing import NamedTuple

from ..design.layers import Layer
from ._collector import BufferCollector, Collector
from ._protocol import part


@part
class Repeated(NamedTuple):
    layer: Layer  # the parts the layer holds (flat.layer_for)
    passes: int  # layer_passes: its runs a token

    def tensors(self, c: Collector) -> None:
        for held in self.layer.parts:
            held.tensors(c)

    def buffers(self, c: BufferCollector) -> None:
        for held in self.layer.parts:
            held.buffers(c)

    def aliases(self, c: Collector) -> dict[str, str]:
        return {name: target for held in self.layer.parts for name, target in held.aliases(c).items()}

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return self.passes * self.layer.kv_values_per_token(mla_layout)

    def state_values(self) -> int:
        return self.passes * self.layer.state_values()

    def attention_flops(self, keys: int) -> int:
        return self.passes * self.layer.attention_flops(keys)

    def expansion_flops(self, keys: int) -> int:
        return self.passes * self.layer.expansion_flops(keys)

    def repeated_weights(self) -> int:
        """The layer's matmul weights (compute.py's: no norms, biases or tables) once per run past the first."""
        from ..compute import _is_matrix
        from ..naming import LLAMA

        weights = sum(t.count for t in self.layer.tensors(LLAMA, "rmsnorm") if _is_matrix(t))
        return (self.passes - 1) * weights + self.passes * self.layer.repeated_weights()

    def mixer_label(self) -> tuple[str, str | None] | None:
        return self.layer.mixer_label()

    def state_label(self) -> str | None:
        return self.layer.state_label()
