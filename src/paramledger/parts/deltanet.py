"""The Gated DeltaNet token mixer (transformers 5.24.0 Qwen3NextGatedDeltaNet, Qwen3_5GatedDeltaNet):
linear attention in place of self-attention, caching no keys or values but a fixed state."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..design.values import NORM_PLACEMENTS
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class GatedDeltaNet(NamedTuple):
    """Input projections for q, k, v (2 × key channels + value channels), the output gate z (value
    channels) and b and a (one per value head each), fused as in_proj_qkvz and in_proj_ba or split; a
    depthwise conv1d over q, k, v without a bias; dt_bias and A_log per value head; a gated RMSNorm over
    one value head (a scale only, whatever the block norms are); out_proj back to the hidden size."""
    hidden_size: int
    num_value_heads: int  # linear_num_value_heads
    num_key_heads: int  # linear_num_key_heads
    key_head_dim: int  # linear_key_head_dim
    value_head_dim: int  # linear_value_head_dim
    conv_kernel: int  # linear_conv_kernel_dim

    @property
    def conv_dim(self) -> int:
        """Channels the depthwise conv runs over: q, k and v side by side."""
        return 2 * self.num_key_heads * self.key_head_dim + self.num_value_heads * self.value_head_dim

    def tensors(self, c: Collector) -> None:
        n, d = c.naming, self.hidden_size
        value_heads, conv_dim = self.num_value_heads, self.conv_dim
        value_dim = value_heads * self.value_head_dim
        if n.linear_q is not None:  # three projections (OLMo-Hybrid's q_proj, k_proj, v_proj)
            key_dim = self.num_key_heads * self.key_head_dim
            c.linear(n.linear_q, key_dim, d, "mixer")
            c.linear(n.linear_k, key_dim, d, "mixer")
            c.linear(n.linear_v, value_dim, d, "mixer")
            c.linear(n.linear_z, value_dim, d, "mixer")
            c.linear(n.linear_b, value_heads, d, "mixer")
            c.linear(n.linear_a, value_heads, d, "mixer")
        elif n.linear_qkvz is not None:
            c.linear(n.linear_qkvz, conv_dim + value_dim, d, "mixer")
            c.linear(n.linear_ba, 2 * value_heads, d, "mixer")
        else:
            c.linear(n.linear_qkv, conv_dim, d, "mixer")
            c.linear(n.linear_z, value_dim, d, "mixer")
            c.linear(n.linear_b, value_heads, d, "mixer")
            c.linear(n.linear_a, value_heads, d, "mixer")
        c.add(n.linear_conv + ".weight", (conv_dim, 1, self.conv_kernel), "mixer")  # (channels, 1, kernel)
        c.add(n.linear_dt_bias, (value_heads,), "mixer")
        c.add(n.linear_a_log, (value_heads,), "mixer")
        c.add(n.linear_norm + ".weight", (self.value_head_dim,), "norm")
        c.linear(n.linear_out, d, value_dim, "mixer")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 0

    def state_values(self) -> int:
        """The conv's last linear_conv_kernel_dim inputs over q, k and v, and the recurrent state, a key
        head × value head matrix per value head (LinearAttentionLayer's conv_states and recurrent_states)."""
        return self.conv_dim * self.conv_kernel + self.num_value_heads * self.key_head_dim * self.value_head_dim

    def attention_flops(self, keys: int) -> int:
        return 0  # no keys to attend to: its work is its weights'

    def expansion_flops(self, keys: int) -> int:
        return 0

    def mixer_label(self) -> tuple[str, str | None]:
        return "Gated DeltaNet", "linear"

    def state_label(self) -> str:
        return "linear-attention (Gated DeltaNet)"


class Keys:
    """The flat keys (HF config names): the layers it mixes, keys linear_num_key_heads ×
    linear_key_head_dim, values linear_num_value_heads × linear_value_head_dim, a conv of
    linear_conv_kernel_dim taps (Qwen3-Next, Qwen3.5)."""
    linear_attention_layers: tuple[int, ...] = ()
    linear_num_value_heads: int | None = None
    linear_num_key_heads: int | None = None
    linear_key_head_dim: int | None = None
    linear_value_head_dim: int | None = None
    linear_conv_kernel_dim: int | None = None
    linear_attention_norm_placement: str | None = None  # NORM_PLACEMENTS in these layers; None: norm_placement


class Names:
    """Split input projections for q, k, v, the gate z and the per-value-head b and a (Qwen3.5), or two
    fused ones when linear_qkvz and linear_ba are set (Qwen3-Next's in_proj_qkvz and in_proj_ba); the
    depthwise conv, dt_bias, A_log, gated norm, out_proj."""
    linear_qkv: str = "linear_attn.in_proj_qkv"
    linear_z: str = "linear_attn.in_proj_z"
    linear_b: str = "linear_attn.in_proj_b"
    linear_a: str = "linear_attn.in_proj_a"
    linear_q: str | None = None  # q, k and v apart (OLMo-Hybrid), in place of linear_qkv
    linear_k: str | None = None
    linear_v: str | None = None
    linear_qkvz: str | None = None
    linear_ba: str | None = None
    linear_conv: str = "linear_attn.conv1d"
    linear_dt_bias: str = "linear_attn.dt_bias"
    linear_a_log: str = "linear_attn.A_log"
    linear_norm: str = "linear_attn.norm"
    linear_out: str = "linear_attn.out_proj"


SIZES = ("linear_num_value_heads", "linear_num_key_heads", "linear_key_head_dim", "linear_value_head_dim",
         "linear_conv_kernel_dim")
"""All given with linear_attention_layers, none without."""

# Self-attention's own per-layer variants, which a DeltaNet layer would not read: refused beside it.
_ATTENTION_ONLY = (("kv_lora_rank", lambda a: a.is_mla), ("attention_experts", lambda a: a.attention_experts),
                   ("index_n_heads", lambda a: a.index_n_heads is not None),
                   ("num_kv_shared_layers", lambda a: a.num_kv_shared_layers),
                   ("num_attention_heads_per_layer", lambda a: a.num_attention_heads_per_layer),
                   ("attention_output_bias_layers", lambda a: a.attention_output_bias_layers),
                   ("head_dim_per_layer", lambda a: a.head_dim_per_layer),
                   ("num_key_value_heads_per_layer", lambda a: a.num_key_value_heads_per_layer),
                   ("attention_k_eq_v", lambda a: a.attention_k_eq_v),
                   ("sliding_num_key_value_heads", lambda a: a.sliding_num_key_value_heads is not None),
                   ("sliding_attention_sinks", lambda a: a.sliding_attention_sinks))


def _engaged(arch: Any) -> bool:  # on every count: no loop
    return bool(arch.linear_attention_layers or arch.linear_num_value_heads is not None
                or arch.linear_num_key_heads is not None or arch.linear_key_head_dim is not None
                or arch.linear_value_head_dim is not None or arch.linear_conv_kernel_dim is not None
                or arch.linear_attention_norm_placement is not None)


def _check(arch: Any, where: str | None) -> None:
    """Every size given, value heads a multiple of key heads, and self-attention's per-layer variants off."""
    if not arch.linear_attention_layers:
        key = next((key for key in SIZES if getattr(arch, key) is not None), "linear_attention_norm_placement")
        raise ArchitectureError(key, "set without linear_attention_layers (the Gated DeltaNet layers)", where)
    for key in SIZES:
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with linear_attention_layers (the Gated DeltaNet layers)",
                                    where)
    if arch.linear_num_value_heads % arch.linear_num_key_heads:
        raise ArchitectureError("linear_num_value_heads", f"{arch.linear_num_value_heads} is not a multiple of "
                                f"linear_num_key_heads={arch.linear_num_key_heads} (each key head serves a "
                                "group of value heads)", where)
    placement = arch.linear_attention_norm_placement
    if placement is not None and placement not in NORM_PLACEMENTS:
        raise ArchitectureError("linear_attention_norm_placement", f"{placement!r} is not one of "
                                f"{', '.join(NORM_PLACEMENTS)}", where)
    for key, on in _ATTENTION_ONLY:
        if on(arch):
            raise ArchitectureError(key, "is not built with linear_attention_layers (Gated DeltaNet layers "
                                    "beside plain self-attention only)", where)


def _build(arch: Any) -> GatedDeltaNet:
    return _new(GatedDeltaNet, (arch.hidden_size, arch.linear_num_value_heads, arch.linear_num_key_heads,
                                arch.linear_key_head_dim, arch.linear_value_head_dim, arch.linear_conv_kernel_dim))


MIXER = MixerKind("linear_attention_layers", Keys, Names, _build, _engaged, _check, positive_or_null=SIZES,
                  norm_placement="linear_attention_norm_placement")

