"""Zamba's multi-head Mamba-1 (transformers 5.24.0 ZambaMambaMixer): Mamba-1 (parts/mamba.py) except that
in_proj's output is split into num_heads heads, each run as its own Mamba-1 up to out_proj, so the time
step's and B/C's projections, dt's bias, A_log and D are bare Parameters with one slice per head
(x_proj_weight, dt_proj_weight, dt_proj_bias), not Linears.  They are the mixer's own parameters, so they
lead its listing, before conv1d, in_proj and out_proj."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part
from .mamba import Mamba


@part
class MultiHeadMamba(NamedTuple):
    hidden_size: int
    intermediate_size: int  # mamba_expand × hidden_size
    state_size: int  # mamba_d_state
    conv_kernel: int  # mamba_d_conv
    dt_rank: int  # mamba_dt_rank ("auto": ceil(hidden_size / 16))
    num_heads: int  # mamba_n_heads (Zamba's n_mamba_heads), dividing the inner width
    conv_bias: bool = True  # mamba_conv_bias
    proj_bias: bool = False  # mamba_proj_bias: on in_proj and out_proj

    def tensors(self, c: Collector) -> None:
        n, d, inner, state, rank = c.naming, self.hidden_size, self.intermediate_size, self.state_size, self.dt_rank
        heads = self.num_heads
        head = inner // heads
        mixer = n.mamba + "."
        c.add(mixer + "x_proj_weight", (heads, rank + 2 * state, head), "mixer")  # (heads, out, in)
        c.add(mixer + "dt_proj_weight", (heads, head, rank), "mixer")
        c.add(mixer + "dt_proj_bias", (heads, head), "mixer")
        c.add(mixer + "A_log", (heads, head, state), "mixer")
        c.add(mixer + "D", (heads, head), "mixer")
        c.add(mixer + "conv1d.weight", (inner, 1, self.conv_kernel), "mixer")  # (channels, 1, kernel)
        if self.conv_bias:
            c.add(mixer + "conv1d.bias", (inner,), "mixer")
        c.linear(mixer + "in_proj", 2 * inner, d, "mixer", None, self.proj_bias)
        c.linear(mixer + "out_proj", d, inner, "mixer", None, self.proj_bias)

    # Mamba-1's fixed state: conv state (inner, kernel) and SSM state (heads, inner / heads, state)
    state_values, mixer_label, state_label = Mamba.state_values, Mamba.mixer_label, Mamba.state_label
