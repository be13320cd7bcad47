"""State-space token mixers: Mamba's selective scan (transformers 5.24.0 MambaMixer, JambaMambaMixer)
and Mamba-2's (Mamba2Mixer, BambaMixer, NemotronHMamba2Mixer, GraniteMoeHybridMambaLayer and kin).

Each caches no keys or values: it holds a fixed state per sequence, the last conv_kernel inputs of
its depthwise conv and the SSM state.  A module's own parameters come before its children's in
named_parameters(), so A_log and D (and Mamba-2's dt_bias) lead the mixer's listing."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class Mamba(NamedTuple):
    """Mamba-1: in_proj to 2 × inner (x and the gate z), a depthwise conv over x, x_proj to the time
    step's rank and B and C, dt_proj back to inner (always biased), A_log (inner, state) and D (inner);
    Jamba adds RMSNorms on the time step, B and C (dt_layernorm, b_layernorm, c_layernorm)."""
    hidden_size: int
    intermediate_size: int  # mamba_intermediate_size: mamba_expand × hidden_size
    state_size: int  # mamba_d_state
    conv_kernel: int  # mamba_d_conv
    dt_rank: int  # mamba_dt_rank: time_step_rank
    conv_bias: bool = True  # mamba_conv_bias
    proj_bias: bool = False  # mamba_proj_bias: on in_proj and out_proj
    dt_norms: bool = False  # mamba_dt_norms

    def tensors(self, c: Collector) -> None:
        n, d, inner, state, rank = c.naming, self.hidden_size, self.intermediate_size, self.state_size, self.dt_rank
        mixer = n.mamba + "."
        c.add(mixer + "A_log", (inner, state), "mixer")
        c.add(mixer + "D", (inner,), "mixer")
        c.add(mixer + "conv1d.weight", (inner, 1, self.conv_kernel), "mixer")  # (channels, 1, kernel)
        if self.conv_bias:
            c.add(mixer + "conv1d.bias", (inner,), "mixer")
        c.linear(mixer + "in_proj", 2 * inner, d, "mixer", None, self.proj_bias)
        c.linear(mixer + "x_proj", rank + 2 * state, inner, "mixer")
        c.linear(mixer + "dt_proj", inner, rank, "mixer", None, True)
        c.linear(mixer + "out_proj", d, inner, "mixer", None, self.proj_bias)
        if self.dt_norms:  # RMSNorms, whatever the block norms are
            c.add(mixer + "dt_layernorm.weight", (rank,), "norm")
            c.add(mixer + "b_layernorm.weight", (state,), "norm")
            c.add(mixer + "c_layernorm.weight", (state,), "norm")

    def state_values(self) -> int:
        """conv state (inner, kernel) and SSM state (inner, state)."""
        return self.intermediate_size * (self.conv_kernel + self.state_size)

    def buffers(self, c: Collector) -> None:
        if c.naming.mamba_norm_buffers:  # FalconMambaMixer: the three RMSNorm weights, buffers of ones
            mixer = c.naming.mamba + "."
            for name, size in (("dt", self.intermediate_size), ("b", self.state_size), ("c", self.state_size)):
                c.buffer(f"{mixer}{name}_layernorm.weight", (size,), None, False)

    def mixer_label(self) -> tuple[str, str | None]:
        return "Mamba", "state-space"

    def state_label(self) -> str:
        return "recurrent (Mamba)"


@part
class Mamba2(NamedTuple):
    """Mamba-2: in_proj to the gate z (inner), x, B and C (the conv's channels: inner + 2 × groups ×
    state) and one time step per head; a depthwise conv over x, B and C; dt_bias, A_log and D per
    head; a gated RMSNorm over inner (normalized per group); out_proj back to the hidden size."""
    hidden_size: int
    intermediate_size: int  # mamba_intermediate_size: mamba_n_heads × head width
    state_size: int  # mamba_d_state
    conv_kernel: int  # mamba_d_conv
    num_heads: int  # mamba_n_heads
    n_groups: int = 1  # mamba_n_groups: B and C shared by groups of heads
    conv_bias: bool = True  # mamba_conv_bias
    proj_bias: bool = False  # mamba_proj_bias: on in_proj and out_proj
    gated_norm: bool = True  # mamba_gated_norm
    out_bias: bool | None = None  # mamba_out_proj_bias: None, as in_proj (proj_bias)

    @property
    def conv_dim(self) -> int:
        return self.intermediate_size + 2 * self.n_groups * self.state_size

    def tensors(self, c: Collector) -> None:
        n, d, inner, heads, conv_dim = c.naming, self.hidden_size, self.intermediate_size, self.num_heads, self.conv_dim
        mixer = n.mamba + "."
        c.add(mixer + "dt_bias", (heads,), "mixer")
        c.add(mixer + "A_log", (heads,), "mixer")
        c.add(mixer + "D", (heads,), "mixer")
        c.add(mixer + "conv1d.weight", (conv_dim, 1, self.conv_kernel), "mixer")  # (channels, 1, kernel)
        if self.conv_bias:
            c.add(mixer + "conv1d.bias", (conv_dim,), "mixer")
        c.linear(mixer + "in_proj", inner + conv_dim + heads, d, "mixer", None, self.proj_bias)
        if self.gated_norm:  # an RMSNorm, whatever the block norms are
            c.add(mixer + "norm.weight", (inner,), "norm")
        out_bias = self.proj_bias if self.out_bias is None else self.out_bias
        c.linear(mixer + "out_proj", d, inner, "mixer", None, out_bias)

    def state_values(self) -> int:
        """conv state (conv_dim, kernel) and SSM state (heads, head width, state)."""
        return self.conv_dim * self.conv_kernel + self.intermediate_size * self.state_size

    def buffers(self, c: Collector) -> None:
        if c.naming.mamba_mup_vector:  # FalconH1Mixer: a multiplier per in_proj output (mup_vector)
            width = self.intermediate_size + self.conv_dim + self.num_heads
            c.buffer(c.naming.mamba + ".mup_vector", (1, 1, width), None, False)

    def mixer_label(self) -> tuple[str, str | None]:
        return "Mamba-2", "state-space"

    def state_label(self) -> str:
        return "recurrent (Mamba-2)"
