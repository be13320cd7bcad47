"""ConvBERT's cross-attention (transformers 5.24.0 models/convbert, ConvBertLayer.crossattention, modeling_convbert.py
lines 356-363, with add_cross_attention and is_decoder): a second ConvBertAttention, ConvBERT's whole mixed attention
(parts/span_conv_attention.py) under ``crossattention.`` with its own output.LayerNorm (post-LN), after the layer's
attention.  Its key and value read the encoder's states (ConvBertSelfAttention.forward, lines 184-189); its query, the
span conv (key_conv_attn_layer, conv_kernel_layer, conv_out_layer) and the output dense read the layer's own.

Cache and FLOPs, as parts/cross_attention.py answers them: a key and a value of the attention half's width per
encoder token; without an encoder's output the sublayer does not run (its weights leave the matmul count); with one,
a token runs every weight but key and value (2 × each), the dynamic kernels over the unfolded conv values (2 × width ×
conv_kernel_size), QKᵀ and AV over the encoder's tokens (4 × width a token) and, ConvBERT keeping no cache, key and
value over every encoder token again (2 × their weights a token): checked against torch's FlopCounterMode on one
token over one encoder token (ConvBertSelfAttention views the encoder's keys at the decoder's length: a longer
encoder fails in transformers' own forward)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part
from .span_conv_attention import heads_and_width, span_conv_tensors


@part
class SpanConvCross(NamedTuple):
    hidden_size: int  # hidden_size
    num_heads: int  # the attention half's heads (as the self part's)
    width: int  # their width
    kernel: int  # conv_kernel_size

    def tensors(self, c: Collector) -> None:
        n = c.naming
        paths = tuple(_cross(n, path) for path in (n.q, n.k, n.v, n.span_key_conv, n.span_kernel, n.span_out, n.o))
        span_conv_tensors(c, self, paths)
        c.norm(_cross(n, n.attn_post_norm), self.hidden_size)  # ConvBertSelfOutput.LayerNorm

    def _weights(self) -> tuple[int, int]:
        """(the weights a decoded token runs, those of key and value)."""
        d, width, kernel = self.hidden_size, self.width, self.kernel
        per_token = width * d + d * kernel + width * d + self.num_heads * kernel * width + width * d + d * d
        return per_token, 2 * width * d

    def encoder_weights(self) -> int:
        return sum(self._weights())

    def encoder_flops(self, encoder_keys: int) -> int:
        per_token, key_value = self._weights()
        return 2 * per_token + 2 * self.width * self.kernel + (4 * self.width + 2 * key_value) * encoder_keys

    def cross_kv_values_per_token(self) -> int:
        return 2 * self.width  # its key and value of every encoder token


def _cross(naming: Any, path: str) -> str:
    """A self-attention path ("attention.self.query") under the cross-attention's module ("crossattention...")."""
    return naming.span_cross + path.removeprefix("attention")


class Keys:
    """ConvBERT's add_cross_attention (with is_decoder), read as its own switch: the generic cross-attention kind's
    add_cross_attention would build plain attention."""
    span_conv_cross_attention: bool = False


class Names:
    """Its Naming path: the module the self-attention's paths move under."""
    span_cross: str = "crossattention"


def _check(arch: Any, where: str | None) -> None:
    if not arch.span_conv_layers or len(arch.span_conv_layers) != arch.num_hidden_layers:
        raise ArchitectureError("span_conv_cross_attention", "is ConvBERT's cross-attention, built beside its mixed "
                                "attention in every layer (span_conv_layers must list every layer)", where)


def _build(arch: Any) -> SpanConvCross:
    heads, width = heads_and_width(arch)
    return tuple.__new__(SpanConvCross, (arch.hidden_size, heads, width, arch.span_conv_kernel_size))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.span_conv_cross_attention, _check)
