"""Kimi Delta Attention, KDA (transformers 5.24.0 modeling_kimi_linear.py KimiLinearDeltaAttention, lines 571-616,
and modeling_bailing_hybrid.py BailingHybridDeltaAttention, lines 673-706): a gated delta rule whose decay is per
channel, not per head, in place of self-attention on the layers whose layer_types entry is "linear_attention".  It
caches no keys or values but a conv state and one head_dim × head_dim state per head.

Kimi Linear builds its forget gate and output gate low-rank (f_a_proj/f_b_proj, g_a_proj/g_b_proj, rank head_dim);
Bailing-Hybrid builds them full-rank (f_proj, g_proj) and registers them elsewhere; GLM-5-Next builds Kimi's with
A_log 1-D (kda_flat_a_log, modeling_glm5_next.py lines 338-348).  tests/test_part_kda.py checks it against the
transformers modules built alone, tests/test_glm5_next.py against GLM-5-Next's."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class KimiDeltaAttention(NamedTuple):
    """q, k and v projections (heads × head_dim each) and a depthwise conv1d over the three without a bias; a
    forget gate (dt_bias per channel, A_log per head, its projection to every channel), b_proj (one beta per
    head), an output gate over every channel, a gated RMSNorm over one head (a scale only) and o_proj."""
    hidden_size: int
    num_heads: int  # kda_num_heads (Kimi's linear_num_heads; Bailing's num_attention_heads)
    head_dim: int  # kda_head_dim (Kimi's linear_head_dim; Bailing's head_dim before its config overwrites it)
    conv_kernel: int  # kda_conv_kernel_dim (linear_conv_kernel_dim; Bailing's short_conv_kernel_size)
    full_rank_gates: bool = False  # kda_full_rank_gates: Bailing's f_proj and g_proj, A_log (heads,)
    flat_a_log: bool = False  # kda_flat_a_log: Kimi's low-rank gates with A_log (heads,) (GLM-5-Next's forget gate)

    @property
    def inner(self) -> int:
        return self.num_heads * self.head_dim

    def tensors(self, c: Collector) -> None:
        path, d, inner, heads, rank = c.naming.kda + ".", self.hidden_size, self.inner, self.num_heads, self.head_dim
        gate = path + "forget_gate."
        for which in ("q_proj", "k_proj", "v_proj"):
            c.linear(path + which, inner, d, "mixer")
        c.add(path + "conv1d.weight", (3 * inner, 1, self.conv_kernel), "mixer")  # (channels, 1, kernel)
        if self.full_rank_gates:  # BailingHybridForgetGate: A_log, dt_bias, f_proj; g_proj after o_proj
            c.add(gate + "A_log", (heads,), "mixer")
            c.add(gate + "dt_bias", (inner,), "mixer")
            c.linear(gate + "f_proj", inner, d, "mixer")
            c.linear(path + "b_proj", heads, d, "mixer")
            c.add(path + "o_norm.weight", (rank,), "norm")
            c.linear(path + "o_proj", d, inner, "mixer")
            c.linear(path + "g_proj", inner, d, "mixer")
            return
        c.add(gate + "dt_bias", (inner,), "mixer")  # KimiLinearForgetGate: its own parameters, then f_a, f_b
        c.add(gate + "A_log", (heads,) if self.flat_a_log else (1, 1, heads, 1), "mixer")
        c.linear(gate + "f_a_proj", rank, d, "mixer")
        c.linear(gate + "f_b_proj", inner, rank, "mixer")
        c.linear(path + "b_proj", heads, d, "mixer")
        c.linear(path + "g_a_proj", rank, d, "mixer")
        c.linear(path + "g_b_proj", inner, rank, "mixer")
        c.add(path + "o_norm.weight", (rank,), "norm")
        c.linear(path + "o_proj", d, inner, "mixer")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 0

    def state_values(self) -> int:
        """The conv's last kda_conv_kernel_dim inputs over q, k and v, and a head_dim × head_dim state per head
        (LinearAttentionLayer's conv_states and recurrent_states)."""
        return 3 * self.inner * self.conv_kernel + self.num_heads * self.head_dim * self.head_dim

    def state_float32_values(self) -> int:
        """The recurrent state, float32 whatever the cache's dtype: all three modules store it
        .to(torch.float32) (modeling_kimi_linear.py line 709, modeling_bailing_hybrid.py line 782,
        modeling_glm5_next.py line 762); the conv state follows the cache's dtype."""
        return self.num_heads * self.head_dim * self.head_dim

    def attention_flops(self, keys: int) -> int:
        """0, as the Gated DeltaNet's: no keys to attend to, its work is its weights'.  The recurrence's
        elementwise products (recurrent_kimi_delta_attention, modeling_kimi_linear.py lines 455-461: about
        6 × heads × head_dim² a token) are no matmul, and torch's FlopCounterMode counts none of them."""
        return 0

    def mixer_label(self) -> tuple[str, str | None]:
        return "Kimi delta attention", "linear"

    def state_label(self) -> str:
        return "linear-attention (Kimi Delta Attention)"


class Keys:
    """The flat keys: the KDA layers, kda_num_heads heads of kda_head_dim, a conv of kda_conv_kernel_dim taps, and
    which gate layout (Kimi's low-rank or Bailing's full-rank).  No HF key names them alike across the two
    families (Kimi: linear_num_heads, linear_head_dim, linear_conv_kernel_dim, the Gated DeltaNet's spelling of
    the last; Bailing: num_attention_heads, head_dim, short_conv_kernel_size): each family's table maps its own."""
    kda_layers: tuple[int, ...] = ()
    kda_num_heads: int | None = None
    kda_head_dim: int | None = None
    kda_conv_kernel_dim: int | None = None
    kda_full_rank_gates: bool = False
    # GLM-5-Next's Glm5NextTextForgetGate (modeling_glm5_next.py lines 338-348): Kimi's layout, A_log 1-D (heads,)
    kda_flat_a_log: bool = False


class Names:
    """The KDA module's path in its layer (both families: self_attn, where the attention layers hold MLA)."""
    kda: str = "self_attn"


SIZES = ("kda_num_heads", "kda_head_dim", "kda_conv_kernel_dim")
"""All given with kda_layers, none without."""


def _engaged(arch: Any) -> bool:  # on every count: no loop
    return bool(arch.kda_layers or arch.kda_num_heads is not None or arch.kda_head_dim is not None
                or arch.kda_conv_kernel_dim is not None or arch.kda_full_rank_gates or arch.kda_flat_a_log)


def _check(arch: Any, where: str | None) -> None:
    """Every size given with the layers, none without (the attention layers beside them may be MLA: both
    families' are)."""
    if not arch.kda_layers:
        key = next((key for key in SIZES if getattr(arch, key) is not None),
                   "kda_full_rank_gates" if arch.kda_full_rank_gates else "kda_flat_a_log")
        raise ArchitectureError(key, "set without kda_layers (the Kimi Delta Attention layers)", where)
    for key in SIZES:
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with kda_layers (the Kimi Delta Attention layers)", where)


def _build(arch: Any) -> KimiDeltaAttention:
    return _new(KimiDeltaAttention, (arch.hidden_size, arch.kda_num_heads, arch.kda_head_dim,
                                     arch.kda_conv_kernel_dim, arch.kda_full_rank_gates, arch.kda_flat_a_log))


MIXER = MixerKind("kda_layers", Keys, Names, _build, _engaged, _check, positive_or_null=SIZES)
