"""The Gated DeltaNet token mixer (transformers 5.24.0 Qwen3NextGatedDeltaNet, Qwen3_5GatedDeltaNet):
linear attention in place of self-attention, caching no keys or values but a fixed state."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


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
        if n.linear_qkvz is not None:
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
