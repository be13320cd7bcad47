"""Inkling's short convolutions around both sublayers (transformers 5.24.0 modeling_inkling.py InklingDecoderLayer,
lines 554-559, and InklingShortConvolution, lines 477-537): attn_sconv on the attention's output and mlp_sconv on
the FFN's, each a depthwise nn.Conv1d over hidden_size channels of sconv_kernel_size taps without bias, with a
residual around it.  Registered after the layer's norms (the family's Naming.layer_order puts them there).  Each
holds its last sconv_kernel_size inputs per sequence (cache_utils.py update_conv_state), in float32.

The kind is engaged by global_scale_ffn, Inkling's switch, which design/flat.py also reads to give the layer Inkling's
FFN (parts/inkling_ffn.py) in place of the design's dense FFN or routed experts."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part


@part
class InklingSconvs(NamedTuple):
    hidden_size: int
    kernel: int  # sconv_kernel_size

    def tensors(self, c: Collector) -> None:
        shape = (self.hidden_size, 1, self.kernel)  # (channels, 1, kernel)
        c.add("attn_sconv.conv1d.weight", shape, "attention")
        c.add("mlp_sconv.conv1d.weight", shape, "ffn")

    def state_values(self) -> int:
        return 2 * self.hidden_size * self.kernel

    def state_label(self) -> str:
        return "convolution (Inkling short convs)"


class Keys:
    """The convolutions' taps (InklingTextConfig.conv_kernel_size, checkpoints' sconv_kernel_size; None: none), and
    whether the layers' FFNs are Inkling's (global scales, a router over the shared experts too, 3-D shared
    experts)."""
    sconv_kernel_size: int | None = None
    global_scale_ffn: bool = False


class Names:
    """No paths of its own: InklingDecoderLayer's names are written in the part."""


def _build(arch: Any) -> InklingSconvs:
    return tuple.__new__(InklingSconvs, (arch.hidden_size, arch.sconv_kernel_size))


def _check(arch: Any, where: str | None) -> None:
    if arch.sconv_kernel_size is None:
        raise ArchitectureError("sconv_kernel_size", "required with global_scale_ffn (Inkling's layers)", where)


# engaged by Inkling's switch: Inkling 2's layers read sconv_kernel_size for convs of their own
SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.global_scale_ffn, _check,
                        positive_or_null=("sconv_kernel_size",))
