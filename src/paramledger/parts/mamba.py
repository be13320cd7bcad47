"""State-space token mixers: Mamba's selective scan (transformers 5.24.0 MambaMixer, JambaMambaMixer)
and Mamba-2's (Mamba2Mixer, BambaMixer, NemotronHMamba2Mixer, GraniteMoeHybridMambaLayer and kin).

Each caches no keys or values: it holds a fixed state per sequence, the last conv_kernel inputs of
its depthwise conv and the SSM state.  A module's own parameters come before its children's in
named_parameters(), so A_log and D (and Mamba-2's dt_bias) lead the mixer's listing."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


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


class Keys:
    """The flat keys: the layers it mixes; mamba_version 1 (x_proj, dt_proj) or 2 (heads, groups, a gated
    norm), mamba_intermediate_size wide (None: mamba_expand × hidden_size); dt rank None: ceil(hidden_size /
    16)."""
    mamba_layers: tuple[int, ...] = ()
    mamba_version: int = 2
    mamba_expand: int = 2
    mamba_intermediate_size: int | None = None
    mamba_d_state: int | None = None
    mamba_d_conv: int | None = None
    mamba_n_heads: int | None = None
    mamba_n_groups: int = 1
    mamba_dt_rank: int | None = None
    mamba_conv_bias: bool = True
    mamba_proj_bias: bool = False
    mamba_gated_norm: bool = True
    mamba_dt_norms: bool = False  # RMSNorms on the time step, B and C (Jamba)
    mamba_out_proj_bias: bool | None = None  # None: mamba_proj_bias (Falcon-H1's projectors_bias)
    mamba_beside_attention: bool = False  # each attention layer runs a Mamba beside it (Falcon-H1)


class Names:
    """The mixer's module path (the names inside it, in_proj, conv1d, x_proj, dt_proj, dt_bias, A_log, D,
    norm, out_proj, are Mamba's), and the buffers a family registers in it."""
    mamba: str = "mamba"
    mamba_norm_buffers: bool = False  # FalconMamba's dt, B and C RMSNorm weights, buffers (non-persistent)
    mamba_mup_vector: bool = False  # Falcon-H1's (1, 1, in_proj width) muP multipliers (non-persistent)


SIZES = ("mamba_d_state", "mamba_d_conv")
"""Every Mamba's sizes: given with mamba_layers (Mamba-2 needs mamba_n_heads too)."""


def _engaged(arch: Any) -> bool:
    return bool(arch.mamba_layers) or arch.mamba_beside_attention


def _check(arch: Any, where: str | None) -> None:
    """Each size given, the version known, heads and groups dividing the width."""
    for key in SIZES + (("mamba_n_heads",) if arch.mamba_version == 2 else ()):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with mamba_layers or mamba_beside_attention (the Mamba "
                                    "mixers)", where)
    if arch.mamba_version not in (1, 2):
        raise ArchitectureError("mamba_version", f"must be 1 or 2, got {arch.mamba_version}", where)
    inner = arch.mamba_intermediate_size or arch.mamba_expand * arch.hidden_size
    if arch.mamba_version == 1 and arch.mamba_n_heads is not None:  # Zamba's heads, each its own projections
        if inner % arch.mamba_n_heads:
            raise ArchitectureError("mamba_n_heads", f"{arch.mamba_n_heads} does not divide the Mamba width "
                                    f"{inner} (mamba_expand × hidden_size)", where)
        if arch.mamba_dt_norms:
            raise ArchitectureError("mamba_dt_norms", "is built for single-head Mamba-1 (Jamba), not with "
                                    "mamba_n_heads", where)
    if arch.mamba_version == 2:
        for key, parts in (("mamba_n_heads", arch.mamba_n_heads), ("mamba_n_groups", arch.mamba_n_groups)):
            if inner % parts:
                raise ArchitectureError(key, f"{parts} does not divide the Mamba width {inner} "
                                        "(mamba_intermediate_size)", where)


def _build(arch: Any) -> Any:
    """Mamba-1 (split into heads, each its own projections: ZambaMambaMixer) or Mamba-2."""
    d = arch.hidden_size
    inner = arch.mamba_intermediate_size or arch.mamba_expand * d
    if arch.mamba_version == 1:
        rank = arch.mamba_dt_rank or -(-d // 16)  # time_step_rank "auto": ceil(hidden_size / 16)
        if arch.mamba_n_heads:
            from .mamba_heads import MultiHeadMamba

            return _new(MultiHeadMamba, (d, inner, arch.mamba_d_state, arch.mamba_d_conv, rank, arch.mamba_n_heads,
                                         arch.mamba_conv_bias, arch.mamba_proj_bias))
        return _new(Mamba, (d, inner, arch.mamba_d_state, arch.mamba_d_conv, rank, arch.mamba_conv_bias,
                            arch.mamba_proj_bias, arch.mamba_dt_norms))
    return _new(Mamba2, (d, inner, arch.mamba_d_state, arch.mamba_d_conv, arch.mamba_n_heads, arch.mamba_n_groups,
                         arch.mamba_conv_bias, arch.mamba_proj_bias, arch.mamba_gated_norm, arch.mamba_out_proj_bias))


MIXER = MixerKind("mamba_layers", Keys, Names, _build, _engaged, _check, positive=("mamba_expand", "mamba_n_groups"),
                  positive_or_null=("mamba_intermediate_size", "mamba_d_state", "mamba_d_conv", "mamba_n_heads",
                                    "mamba_dt_rank"), beside_attention="mamba_beside_attention")

