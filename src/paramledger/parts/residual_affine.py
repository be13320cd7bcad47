"""ZAYA's residual scalings (transformers 5.24.0 modeling_zaya.py ZayaResidualScaling, lines 478-490): after the
attention and after the FFN, the sublayer's output and the residual are each shifted and scaled per channel before they
are added, (x + hidden_states_bias) · hidden_states_scale + (residual + residual_bias) · residual_scale: four hidden-size
vectors per scaling, two scalings per layer.  Doge's ResidualScales (parts/residual_scales.py) is one vector per
residual, on the residual only.

Not yet wired into designs (docs/notes/coverage-set-d.md); tests/test_part_residual_affine.py checks it against
ZayaDecoderLayer built alone."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part

AFFINE = ("hidden_states_scale", "hidden_states_bias", "residual_scale", "residual_bias")  # ZayaResidualScaling's order


@part
class ResidualAffine(NamedTuple):
    hidden_size: int
    attn_path: str = "post_attention_residual_scale"  # after the attention (a Naming field once wired)
    ffn_path: str = "post_mlp_residual_scale"  # after the FFN

    def tensors(self, c: Collector) -> None:
        for path in (self.attn_path, self.ffn_path):
            for name in AFFINE:
                c.add(f"{path}.{name}", (self.hidden_size,), "norm")
