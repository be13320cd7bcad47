"""A depthwise convolution over each head's values, added to the attention's output (transformers 5.24.0
NystromformerSelfAttention.conv, modeling_nystromformer.py lines 129-138; YosoSelfAttention.conv by conv_window):
nn.Conv2d(heads, heads, kernel_size=(k, 1), groups=heads, bias=False), one weight of (heads, 1, k, 1).

It caches nothing an attention does not (it reads the same values); its FLOPs per token are 2 × heads × k × head_dim
multiply-adds over the values, beyond any weight's 2 × parameters: answered as attention FLOPs."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import SublayerKind, part
from .disentangled_extras import beside_every_head


@part
class ValueConv(NamedTuple):
    num_heads: int  # num_attention_heads: the conv's channels, one group each
    kernel: int  # attention_conv_kernel_size (Nystromformer's conv_kernel_size, YOSO's conv_window)
    head_dim: int  # hidden_size / num_attention_heads: the values each kernel slides along the sequence over

    def tensors(self, c: Collector) -> None:
        c.add(c.naming.value_conv + ".weight", (self.num_heads, 1, self.kernel, 1), "attention")

    def attention_flops(self, keys: int) -> int:
        # each output value is a kernel-long sum over the sequence, per channel of every head: the weight is
        # applied head_dim times per token, not once (the 2 × parameters rule would count it once)
        return 2 * self.num_heads * self.kernel * (self.head_dim - 1)


class Keys:
    """The kernel's length along the sequence; None: no convolution."""
    attention_conv_kernel_size: int | None = None


class Names:
    """Its Naming path, relative to the layer: Nystromformer's and YOSO's."""
    value_conv: str = "attention.self.conv"


def _build(arch: Any) -> ValueConv:
    return tuple.__new__(ValueConv, (arch.num_attention_heads, arch.attention_conv_kernel_size,
                                     arch.attention_head_dim))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.attention_conv_kernel_size is not None,
                        beside_every_head("attention_conv_kernel_size"), positive_or_null=("attention_conv_kernel_size",))
