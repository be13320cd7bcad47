"""Inkling's attention (transformers 5.24.0 modeling_inkling.py InklingAttention, lines 176-275): Llama's q, k, v
and o with per-head q/k RMSNorms, except: keys and values each pass a depthwise short convolution (k_sconv,
v_sconv: nn.Conv1d of sconv_kernel_size taps, no bias, a residual around it), no rotary, and a relative position bias
mixed per token: r_proj (num_heads × d_rel) weighs a learned bank of d_rel profiles over rel_extent distances
(rel_logits_proj.proj, InklingRelativeLogits).  Sliding layers ("hybrid_sliding") have their own head counts and
width (swa_*) and their bank spans sliding_window_size distances (parts/inkling_sliding_attention.py); this module
places the full layers ("hybrid").

Registered (named_parameters()): q_proj, k_proj, v_proj, r_proj, o_proj, k_sconv.conv1d, v_sconv.conv1d, q_norm,
k_norm, rel_logits_proj.proj.  It caches a key and a value per KV head per token (through the conv), and holds each
conv's last sconv_kernel_size inputs per sequence (cache_utils.py update_conv_state: conv_kernel_size columns, in
float32 as InklingShortConvolution computes)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class InklingAttention(NamedTuple):
    hidden_size: int
    num_heads: int  # num_attention_heads (swa_num_attention_heads on sliding layers)
    num_kv_heads: int  # num_key_value_heads (swa_num_key_value_heads)
    head_dim: int  # head_dim (swa_head_dim)
    d_rel: int  # d_rel: each head's relative state, r_proj's rows per head
    rel_extent: int  # rel_extent (sliding_window_size on sliding layers): the bank's distances
    kernel: int  # sconv_kernel_size (InklingTextConfig.conv_kernel_size)

    def tensors(self, c: Collector) -> None:
        d, heads, width = self.hidden_size, self.num_heads, self.head_dim
        kv = self.num_kv_heads * width
        c.linear("self_attn.q_proj", heads * width, d, "attention")  # (heads × head_dim, hidden)
        c.linear("self_attn.k_proj", kv, d, "attention")
        c.linear("self_attn.v_proj", kv, d, "attention")
        c.linear("self_attn.r_proj", heads * self.d_rel, d, "attention")  # (heads × d_rel, hidden)
        c.linear("self_attn.o_proj", d, heads * width, "attention")
        c.add("self_attn.k_sconv.conv1d.weight", (kv, 1, self.kernel), "attention")  # (channels, 1, kernel)
        c.add("self_attn.v_sconv.conv1d.weight", (kv, 1, self.kernel), "attention")
        c.norm("self_attn.q_norm", width)
        c.norm("self_attn.k_norm", width)
        c.add("self_attn.rel_logits_proj.proj", (self.d_rel, self.rel_extent), "attention")  # (d_rel, extent)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 2 * self.num_kv_heads * self.head_dim

    def state_values(self) -> int:
        return 2 * self.num_kv_heads * self.head_dim * self.kernel  # k_sconv's and v_sconv's conv states

    def attention_flops(self, keys: int) -> int:
        # QKᵀ and AV over the keys, and the relative bias: each head's d_rel state against the bank's columns for
        # the keys it reaches (InklingRelativeLogits: relative_states @ proj).  Each conv weight multiplies once a
        # token: its 2 × parameters are the weights' share already.
        reached = min(keys, self.rel_extent)
        return 4 * self.num_heads * self.head_dim * keys + 2 * self.num_heads * self.d_rel * reached

    def state_label(self) -> str:
        return "convolution (Inkling short convs)"

    def mixer_label(self) -> tuple[str, str | None]:
        heads, kv_heads = self.num_heads, self.num_kv_heads
        if kv_heads == heads:
            return "MHA", None
        return ("MQA" if kv_heads == 1 else f"GQA ({heads // kv_heads}×)"), None


class Keys:
    """The flat keys: the full-attention layers ("hybrid"), each head's relative state width and the bank's
    distances on them."""
    inkling_attention_layers: tuple[int, ...] = ()
    d_rel: int | None = None
    rel_extent: int | None = None


class Names:
    """No paths of its own: InklingAttention's names are written in the part (no other family holds it)."""


def kernel(arch: Any, where: str | None) -> None:
    """The refusals both of Inkling's attention kinds share: the short convs' kernel and d_rel are needed."""
    for key in ("sconv_kernel_size", "d_rel"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with Inkling's attention layers (inkling_attention_layers, "
                                    "inkling_sliding_layers)", where)


def _check(arch: Any, where: str | None) -> None:
    if not arch.inkling_attention_layers:  # engaged by a size alone (Inkling 2's layers read them too)
        for key in ("d_rel", "rel_extent"):
            if getattr(arch, key) is not None and not (arch.inkling_sliding_layers or arch.inkling2_full_layers
                                                       or arch.inkling2_sliding_layers or arch.inkling2_first_layers):
                raise ArchitectureError(key, "set without inkling_attention_layers or inkling_sliding_layers (the "
                                        "Inkling attention layers; inkling2_*_layers: Inkling 2's)", where)
        return
    kernel(arch, where)
    if arch.rel_extent is None:
        raise ArchitectureError("rel_extent", "required with inkling_attention_layers (the full layers' relative "
                                "bias span)", where)


def _build(arch: Any) -> InklingAttention:
    return _new(InklingAttention, (arch.hidden_size, arch.num_attention_heads, arch.kv_heads, arch.attention_head_dim,
                                   arch.d_rel, arch.rel_extent, arch.sconv_kernel_size))


MIXER = MixerKind("inkling_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.inkling_attention_layers) or arch.d_rel is not None
                  or arch.rel_extent is not None, _check, positive_or_null=("d_rel", "rel_extent"))
