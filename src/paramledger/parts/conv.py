"""LFM2's gated short convolution (transformers 5.24.0 Lfm2ShortConv): in_proj to B, C and x (3 ×
hidden), a depthwise causal conv of conv_L_cache taps over hidden channels, out_proj; biased by
conv_bias.  It caches the conv's last conv_L_cache inputs per sequence, no keys or values."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part


@part
class ShortConv(NamedTuple):
    hidden_size: int
    kernel: int  # conv_L_cache
    bias: bool = False  # conv_bias

    def tensors(self, c: Collector) -> None:
        n, d, bias = c.naming, self.hidden_size, self.bias
        conv = n.short_conv + "."
        c.add(conv + "conv.weight", (d, 1, self.kernel), "mixer")  # (channels, 1, kernel)
        if bias:
            c.add(conv + "conv.bias", (d,), "mixer")
        c.linear(conv + "in_proj", 3 * d, d, "mixer", None, bias)
        c.linear(conv + "out_proj", d, d, "mixer", None, bias)

    def state_values(self) -> int:
        return self.hidden_size * self.kernel

    def mixer_label(self) -> tuple[str, str | None]:
        return "short conv", "convolution"

    def state_label(self) -> str:
        return "convolution (LFM2 short conv)"


class Keys:
    """The flat keys: the layers it mixes, conv_L_cache taps, biased by conv_bias."""
    conv_layers: tuple[int, ...] = ()
    conv_L_cache: int | None = None  # noqa: N815 (LFM2's config key)
    conv_bias: bool = False


class Names:
    short_conv: str = "conv"  # the mixer's module path


def _check(arch: Any, where: str | None) -> None:
    if arch.conv_L_cache is None:
        raise ArchitectureError("conv_L_cache", "required with conv_layers (the short-convolution layers)", where)


def _build(arch: Any) -> ShortConv:
    return tuple.__new__(ShortConv, (arch.hidden_size, arch.conv_L_cache, arch.conv_bias))


MIXER = MixerKind("conv_layers", Keys, Names, _build, lambda arch: bool(arch.conv_layers), _check,
                  positive_or_null=("conv_L_cache",))

