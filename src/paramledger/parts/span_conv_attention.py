"""ConvBERT's mixed attention (transformers 5.24.0 models/convbert, ConvBertSelfAttention and SeparableConv1D,
modeling_convbert.py lines 130-200): self-attention on a share of the heads beside a span-based dynamic convolution,
their outputs concatenated and projected by attention.output.dense (hidden × hidden, whatever the share).

With heads = max(1, num_attention_heads // head_ratio) and width = heads × ((hidden // heads) // 2):
query, key, value (width × hidden, biased); key_conv_attn_layer: its bias (width, 1), a depthwise conv
(hidden, 1, conv_kernel_size) and a pointwise conv (width, hidden, 1), neither biased; conv_kernel_layer
(heads × conv_kernel_size, width, biased); conv_out_layer (width, hidden, biased); then the output dense.

An encoder's (ConvBERT registers no CausalLM class): what it would cache per token is the attention half's key and
value (2 × width); the convolution's dynamic kernels add per-token FLOPs beyond the weights (2 × width ×
conv_kernel_size for the unfolded products), the attention half QKᵀ and AV (4 × width per key)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part


@part
class SpanConvAttention(NamedTuple):
    hidden_size: int  # hidden_size
    num_heads: int  # max(1, num_attention_heads // head_ratio): the attention half's heads
    width: int  # num_heads × ((hidden_size // num_heads) // 2): ConvBertSelfAttention.all_head_size
    kernel: int  # conv_kernel_size

    def tensors(self, c: Collector) -> None:
        n = c.naming
        span_conv_tensors(c, self, (n.q, n.k, n.v, n.span_key_conv, n.span_kernel, n.span_out, n.o))

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 2 * self.width  # the attention half's key and value

    def attention_flops(self, keys: int) -> int:
        # QKᵀ and AV over the keys; the dynamic kernels applied to the unfolded conv_out values
        return 4 * self.width * keys + 2 * self.width * self.kernel

    def mixer_label(self) -> tuple[str, str | None]:
        return "attention + span conv (ConvBERT)", None


def span_conv_tensors(c: Collector, part: Any, paths: tuple[str, ...]) -> None:
    """The mixed attention's tensors under ``paths`` (query, key, value, key_conv_attn_layer, conv_kernel_layer,
    conv_out_layer, output dense), in ConvBertSelfAttention's registration order, then the output dense."""
    q, k, v, key_conv, kernel_layer, out, o = paths
    d, width, kernel = part.hidden_size, part.width, part.kernel
    for path in (q, k, v):
        c.linear(path, width, d, "attention", None, True)  # (width, hidden) and its bias
    conv = key_conv + "."
    c.add(conv + "bias", (width, 1), "attention")  # SeparableConv1D's own parameter, before its convs
    c.add(conv + "depthwise.weight", (d, 1, kernel), "attention")
    c.add(conv + "pointwise.weight", (width, d, 1), "attention")
    c.linear(kernel_layer, part.num_heads * kernel, width, "attention", None, True)
    c.linear(out, width, d, "attention", None, True)
    c.linear(o, d, d, "attention", None, True)  # over both halves: (hidden, hidden) and its bias


class Keys:
    """The layers it mixes (ConvBERT's: every one), the attention half's share and the convolution's kernel."""
    span_conv_layers: tuple[int, ...] = ()
    span_head_ratio: int | None = None
    span_conv_kernel_size: int | None = None


class Names:
    """Its Naming paths, relative to the layer (q, k, v and o are the attention's own fields)."""
    span_key_conv: str = "attention.self.key_conv_attn_layer"
    span_kernel: str = "attention.self.conv_kernel_layer"
    span_out: str = "attention.self.conv_out_layer"


def heads_and_width(arch: Any) -> tuple[int, int]:
    heads = max(1, arch.num_attention_heads // arch.span_head_ratio)
    return heads, heads * ((arch.hidden_size // heads) // 2)


def _check(arch: Any, where: str | None) -> None:
    for key in ("span_head_ratio", "span_conv_kernel_size"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with span_conv_layers (ConvBERT's mixed attention)", where)
    heads, width = heads_and_width(arch)
    if arch.hidden_size % heads:
        raise ArchitectureError("span_head_ratio", f"leaves {heads} heads, which do not divide hidden_size="
                                f"{arch.hidden_size} (ConvBertSelfAttention refuses it)", where)
    if width < 1:
        raise ArchitectureError("hidden_size", f"{arch.hidden_size} leaves the {heads} heads no width "
                                "((hidden_size // heads) // 2 is 0)", where)


def _build(arch: Any) -> SpanConvAttention:
    heads, width = heads_and_width(arch)
    return tuple.__new__(SpanConvAttention, (arch.hidden_size, heads, width, arch.span_conv_kernel_size))


MIXER = MixerKind("span_conv_layers", Keys, Names, _build, lambda arch: bool(arch.span_conv_layers), _check,
                  positive_or_null=("span_head_ratio", "span_conv_kernel_size"))
