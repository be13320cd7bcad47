"""Parakeet's FastConformer encoder (ParakeetEncoder) as Nemotron-H Omni's optional audio tower, with embed_audio.

The subsampling: a Conv2d (1 channel in, subsampling_conv_channels out, a square subsampling_conv_kernel_size), then
log2(subsampling_factor) - 1 pairs of a depthwise and a pointwise Conv2d (every one biased; modules 0, 2, 3, 5, 6, ...
of its list, the ReLUs between), then a biased Linear from channels × (num_mel_bins // stride^layers) to hidden_size;
the relative positions are a buffer alone (inv_freq, hidden_size / 2 rounded up, float32, non-persistent). Each block:
two feed-forwards (linear1, linear2, biased by attention_bias), the attention (bias_u and bias_v, (heads, head_dim)
Parameters registered before q/k/v/o, biased by attention_bias, and a bias-free relative_k_proj), the convolution module
(pointwise_conv1 to twice the width, a depthwise conv of conv_kernel_size, a BatchNorm1d with its running statistics
(the model's dtype) and counter as persistent buffers, pointwise_conv2; convs biased by convolution_bias) and five
LayerNorms. No final norm. embed_audio (registered after the tower, the "projector" component): an RMSNorm over the
tower's width, linear_1 to audio_config.projection_hidden_size and linear_2 to the decoder's, biased by
audio_config.projection_bias (two keys ParakeetEncoderConfig lacks: a config without them does not build). The tower is
optional: a null audio_config builds none (the sentinel ABSENT below). transformers 5.24.0
models/parakeet/modeling_parakeet.py (ParakeetEncoder, ParakeetEncoderBlock, ParakeetEncoderSubsamplingConv2D,
ParakeetEncoderAttention, ParakeetEncoderConvolutionModule, ParakeetEncoderFeedForward,
ParakeetEncoderRelPositionalEncoding) and nemotron_h_omni/modeling_nemotron_h_omni.py
(NemotronH_Omni_Reasoning_V3.__init__: audio_tower, embed_audio)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, flag, stamped

_new = tuple.__new__
ABSENT = "_absent"  # the key of the default audio_config a config without one gets: no tower
SIZES = ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "conv_kernel_size",
         "subsampling_factor", "subsampling_conv_channels", "num_mel_bins", "subsampling_conv_kernel_size",
         "subsampling_conv_stride", "projection_hidden_size")


class NoTower(NamedTuple):
    """A null audio_config: no tower, no embed_audio."""

    def tensors(self) -> list[Tensor]:
        return []

    def buffers(self) -> list[Buffer]:
        return []


class ParakeetTower(NamedTuple):
    prefix: str  # "audio_tower."
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    head_dim: int
    intermediate_size: int
    conv_kernel_size: int
    subsampling_layers: int  # int(log2(subsampling_factor))
    channels: int
    kernel: int
    linear_in: int  # channels × (num_mel_bins // stride^layers)
    attention_bias: bool
    convolution_bias: bool
    projection_hidden_size: int
    projection_bias: bool

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, c, k = self.hidden_size, self.prefix, self.channels, self.kernel
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (name, shape, "audio", None, False, 0)))

        add(p + "subsampling.layers.0.weight", (c, 1, k, k))
        add(p + "subsampling.layers.0.bias", (c,))
        for i in range(self.subsampling_layers - 1):
            add(f"{p}subsampling.layers.{2 + 3 * i}.weight", (c, 1, k, k))
            add(f"{p}subsampling.layers.{2 + 3 * i}.bias", (c,))
            add(f"{p}subsampling.layers.{3 + 3 * i}.weight", (c, c, 1, 1))
            add(f"{p}subsampling.layers.{3 + 3 * i}.bias", (c,))
        add(p + "subsampling.linear.weight", (d, self.linear_in))
        add(p + "subsampling.linear.bias", (d,))
        inner, heads, width = self.intermediate_size, self.num_attention_heads, self.num_attention_heads * self.head_dim
        ffn = [("linear1.weight", (inner, d)), *([("linear1.bias", (inner,))] if self.attention_bias else []),
               ("linear2.weight", (d, inner)), *([("linear2.bias", (d,))] if self.attention_bias else [])]
        block = [("feed_forward1." + name, shape) for name, shape in ffn]
        block += [("self_attn.bias_u", (heads, self.head_dim)), ("self_attn.bias_v", (heads, self.head_dim))]
        for name, rows, cols in (("q_proj", width, d), ("k_proj", width, d), ("v_proj", width, d),
                                 ("o_proj", d, width)):
            block.append((f"self_attn.{name}.weight", (rows, cols)))
            if self.attention_bias:
                block.append((f"self_attn.{name}.bias", (rows,)))
        block.append(("self_attn.relative_k_proj.weight", (width, d)))
        conv_bias = self.convolution_bias
        for name, shape in (("pointwise_conv1", (2 * d, d, 1)), ("depthwise_conv", (d, 1, self.conv_kernel_size)),
                            ("norm", (d,)), ("pointwise_conv2", (d, d, 1))):
            block.append((f"conv.{name}.weight", shape))
            if conv_bias or name == "norm":
                block.append((f"conv.{name}.bias", (shape[0],)))
        block += [("feed_forward2." + name, shape) for name, shape in ffn]
        for norm in ("norm_feed_forward1", "norm_self_att", "norm_conv", "norm_feed_forward2", "norm_out"):
            block += [(norm + ".weight", (d,)), (norm + ".bias", (d,))]
        out += stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block, "audio")
        return tuple(out)

    def embed_audio(self, text_hidden: int) -> list[tuple[str, tuple[int, ...]]]:
        """embed_audio's tensors (NemotronH_Omni_Reasoning_V3MultiModalProjector over the tower's width)."""
        d, inner, bias = self.hidden_size, self.projection_hidden_size, self.projection_bias
        return [("embed_audio.layer_norm.weight", (d,)), ("embed_audio.linear_1.weight", (inner, d)),
                *([("embed_audio.linear_1.bias", (inner,))] if bias else []),
                ("embed_audio.linear_2.weight", (text_hidden, inner)),
                *([("embed_audio.linear_2.bias", (text_hidden,))] if bias else [])]

    def buffers(self) -> list[Buffer]:
        p, d = self.prefix, self.hidden_size
        out = [Buffer(p + "encode_positions.inv_freq", ((d + 1) // 2,), "float32", False)]
        for i in range(self.num_hidden_layers):
            norm = f"{p}layers.{i}.conv.norm."
            out += [Buffer(norm + "running_mean", (d,)), Buffer(norm + "running_var", (d,)),  # the model's dtype
                    Buffer(norm + "num_batches_tracked", (), "int64", True)]
        return out


@lru_cache(maxsize=64)
def _listed(tower: ParakeetTower) -> tuple[Tensor, ...]:
    return tower.listed()


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> ParakeetTower | NoTower:
    """The Parakeet tower of an audio_config over its class's defaults (NoTower where the config gives none), its
    sizes checked, one line each."""
    if audio.get(ABSENT):
        return NoTower()
    kind = audio.get("model_type", "parakeet_encoder")
    if kind != "parakeet_encoder":  # the releases' "parakeet": __post_init__ means to drop it but keeps it
        raise ArchitectureError("audio_config.model_type", f"{kind!r} is not parakeet_encoder: transformers 5.24.0 "
                                "builds no audio tower of it", where)
    for key in ("projection_hidden_size", "projection_bias"):
        if key not in audio:
            raise ArchitectureError(f"audio_config.{key}", "missing (required: embed_audio reads it and "
                                    "ParakeetEncoderConfig has no default)", where)
    sizes = {key: _checked(audio, key, where) for key in SIZES}
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    head_dim = audio.get("head_dim")  # ParakeetEncoderAttention: getattr(config, "head_dim", hidden // heads)
    if head_dim is None:
        if width % heads:
            raise ArchitectureError("audio_config.num_attention_heads", f"{heads} heads do not divide hidden_size="
                                    f"{width}", where)
        head_dim = width // heads
    elif type(head_dim) is not int or head_dim <= 0:
        raise ArchitectureError("audio_config.head_dim", f"must be a positive whole number, got {head_dim!r}", where)
    factor = sizes["subsampling_factor"]
    layers = int(math.log2(factor))
    if layers < 1:
        raise ArchitectureError("audio_config.subsampling_factor", f"must be at least 2, got {factor}", where)
    rows = sizes["num_mel_bins"] // sizes["subsampling_conv_stride"] ** layers
    if rows <= 0:
        raise ArchitectureError("audio_config.num_mel_bins", f"{sizes['num_mel_bins']} leaves no row after "
                                f"{layers} strides of {sizes['subsampling_conv_stride']}", where)
    return ParakeetTower(prefix, width, sizes["num_hidden_layers"], heads, head_dim,
                         sizes["intermediate_size"], sizes["conv_kernel_size"], layers,
                         sizes["subsampling_conv_channels"], sizes["subsampling_conv_kernel_size"],
                         sizes["subsampling_conv_channels"] * rows,
                         flag(audio, "attention_bias", "audio_config", where),
                         flag(audio, "convolution_bias", "audio_config", where), sizes["projection_hidden_size"],
                         flag(audio, "projection_bias", "audio_config", where))


def _checked(audio: Mapping[str, Any], key: str, where: str | None) -> int:
    value = audio.get(key)
    if type(value) is not int or value <= 0:
        raise ArchitectureError(f"audio_config.{key}", f"must be a positive whole number, got {value!r}", where)
    return value


# ParakeetEncoderConfig's defaults, with the two NemotronH_Omni_Reasoning_V3_Config.__post_init__ sets under any
# audio_config given (attention_bias and scale_input False)
PARAKEET_DEFAULTS = {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 8, "intermediate_size": 4096,
                     "attention_bias": False, "convolution_bias": True, "conv_kernel_size": 9,
                     "subsampling_factor": 8, "subsampling_conv_channels": 256, "num_mel_bins": 80,
                     "subsampling_conv_kernel_size": 3, "subsampling_conv_stride": 2}
"""transformers 5.24.0 models/parakeet/configuration_parakeet.py (ParakeetEncoderConfig)."""

TOWERS = {"nemotron_h_omni_parakeet": TowerKind(PARAKEET_DEFAULTS, make)}  # read only by nemotron_h_omni's Whole
