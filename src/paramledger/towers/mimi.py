"""The Mimi codec (MimiModel) as a tower: Kyutai speech-to-text holds it whole under ``codec_model.``.

transformers 5.24.0 models/mimi/modeling_mimi.py and configuration_mimi.py (MimiModel, MimiEncoderModel,
MimiDecoderModel, MimiEncoder, MimiDecoder, MimiResnetBlock, MimiConv1d, MimiConvTranspose1d, MimiTransformerModel,
MimiTransformerLayer, MimiSplitResidualVectorQuantizer):
- encoder: ``encoder_seanet`` (SEANet: a Conv1d audio_channels -> num_filters; per ratio of reversed
  upsampling_ratios num_residual_layers resnet blocks, an ELU, a Conv1d doubling the channels, kernel 2r, stride r;
  an ELU; a Conv1d to hidden_size, last_kernel_size), ``encoder_transformer`` (num_hidden_layers pre-norm layers:
  q/k/v/o biased by attention_bias, fc1/fc2 unbiased, two biased LayerNorms, two layer scales; a rotary pair) and
  ``downsample`` (an unbiased Conv1d, kernel 2 × latent_stride) where frame_rate differs from the SEANet's own rate;
- decoder: ``upsample`` (the transposed twin, upsample_groups groups) under the same condition, then
  ``decoder_transformer`` and ``decoder_seanet`` (the mirror: ConvTranspose1d halving the channels, blocks after);
- quantizer: a semantic and an acoustic residual quantizer (num_semantic_quantizers and the rest), each codebook
  buffers only (initialized, cluster_usage, embed_sum: persistent), with unbiased 1-wide Conv1d input_proj and
  output_proj where vector_quantization_hidden_dimension differs from hidden_size.
Every MimiConv1d (not the transposed ones) holds three int64 scalars (stride, kernel_size, padding_total,
non-persistent).  A resnet block at width c: block.1 (c -> c // compress, residual_kernel_size, dilation
dilation_growth_rate^j), block.3 (back, kernel 1), a shortcut Conv1d (kernel 1) with use_conv_shortcut.  The model
casts the codec to float32 (KyutaiSpeechToTextForConditionalGeneration): its float buffers are float32."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TowerKind, flag, positive, whole_number

_new = tuple.__new__
SECTION = "codec_config"
SIZES = ("audio_channels", "hidden_size", "num_filters", "num_residual_layers", "kernel_size", "last_kernel_size",
         "residual_kernel_size", "dilation_growth_rate", "compress", "codebook_size", "num_quantizers",
         "vector_quantization_hidden_dimension", "num_hidden_layers", "intermediate_size", "num_attention_heads",
         "num_key_value_heads", "sampling_rate")


class Mimi(NamedTuple):
    prefix: str
    sizes: tuple[int, ...]  # SIZES, in order
    ratios: tuple[int, ...]  # upsampling_ratios
    codebook_dim: int
    head_dim: int
    rotary: int  # the rotary's inv_freq length
    latent_stride: int  # 0: no downsample/upsample
    upsample_groups: int
    semantic: int  # num_semantic_quantizers
    shortcut: bool  # use_conv_shortcut
    attention_bias: bool
    encoder: bool
    decoder: bool

    def tensors(self) -> list[Tensor]:
        return list(_listed(self)[0])

    def buffers(self) -> list[Buffer]:
        return list(_listed(self)[1])

    def listed(self) -> tuple[tuple[Tensor, ...], tuple[Buffer, ...]]:
        (channels, hidden, filters, residual_layers, kernel, last_kernel, residual_kernel, growth, compress,
         codebook_size, quantizers, vq_dim, layers, inner, heads, kv_heads, _) = self.sizes
        named: list[tuple[str, tuple[int, ...]]] = []
        buffers: list[Buffer] = []

        def conv(path: str, out: int, into: int, width: int, bias: bool = True) -> None:  # MimiConv1d
            named.append((path + ".conv.weight", (out, into, width)))
            if bias:
                named.append((path + ".conv.bias", (out,)))
            buffers.extend(Buffer(path + "." + name, (), "int64", False)  # scalars: their values size nothing
                           for name in ("stride", "kernel_size", "padding_total"))

        def resnet(path: str, width: int, j: int) -> None:
            conv(path + ".block.1", width // compress, width, residual_kernel)  # dilation growth ** j: no size
            conv(path + ".block.3", width, width // compress, 1)
            if self.shortcut:
                conv(path + ".shortcut", width, width, 1)

        def transformer(path: str) -> None:
            q, kv = heads * self.head_dim, kv_heads * self.head_dim
            for i in range(layers):
                layer = f"{path}.layers.{i}."
                for name, out, into in (("q_proj", q, hidden), ("k_proj", kv, hidden), ("v_proj", kv, hidden),
                                        ("o_proj", hidden, q)):
                    named.append((layer + f"self_attn.{name}.weight", (out, into)))
                    if self.attention_bias:
                        named.append((layer + f"self_attn.{name}.bias", (out,)))
                named.extend(((layer + "mlp.fc1.weight", (inner, hidden)), (layer + "mlp.fc2.weight", (hidden, inner)),
                              (layer + "input_layernorm.weight", (hidden,)),
                              (layer + "input_layernorm.bias", (hidden,)),
                              (layer + "post_attention_layernorm.weight", (hidden,)),
                              (layer + "post_attention_layernorm.bias", (hidden,)),
                              (layer + "self_attn_layer_scale.scale", (hidden,)),
                              (layer + "mlp_layer_scale.scale", (hidden,))))
            buffers.extend(Buffer(f"{path}.rotary_emb.{name}", (self.rotary,), "float32", False)
                           for name in ("inv_freq", "original_inv_freq"))

        if self.encoder:
            seanet, index, scale = "encoder.encoder_seanet.layers.", 1, 1
            conv(seanet + "0", filters, channels, kernel)
            for ratio in reversed(self.ratios):
                width = scale * filters
                for j in range(residual_layers):
                    resnet(f"{seanet}{index}", width, j)
                    index += 1
                conv(f"{seanet}{index + 1}", width * 2, width, 2 * ratio)  # after an ELU
                index, scale = index + 2, scale * 2
            conv(f"{seanet}{index + 1}", hidden, scale * filters, last_kernel)
            transformer("encoder.encoder_transformer")
            if self.latent_stride:
                conv("encoder.downsample", hidden, hidden, 2 * self.latent_stride, bias=False)
        if self.decoder:
            if self.latent_stride:  # MimiConvTranspose1d: (in, out / groups, kernel), no buffers
                named.append(("decoder.upsample.conv.weight",
                              (hidden, hidden // self.upsample_groups, 2 * self.latent_stride)))
            transformer("decoder.decoder_transformer")
            seanet, scale = "decoder.decoder_seanet.layers.", 2 ** len(self.ratios)
            conv(seanet + "0", scale * filters, hidden, kernel)
            index = 1
            for ratio in self.ratios:
                width = scale * filters
                named.extend(((f"{seanet}{index + 1}.conv.weight", (width, width // 2, 2 * ratio)),
                              (f"{seanet}{index + 1}.conv.bias", (width // 2,))))
                index += 2
                for j in range(residual_layers):
                    resnet(f"{seanet}{index}", width // 2, j)
                    index += 1
                scale //= 2
            conv(f"{seanet}{index + 1}", channels, filters, last_kernel)
        for path, count in (("semantic", self.semantic), ("acoustic", quantizers - self.semantic)):
            rvq = f"quantizer.{path}_residual_vector_quantizer."
            buffers.extend(buffer for i in range(count) for buffer in (
                Buffer(f"{rvq}layers.{i}.codebook.initialized", (1,), "float32", True),
                Buffer(f"{rvq}layers.{i}.codebook.cluster_usage", (codebook_size,), "float32", True),
                Buffer(f"{rvq}layers.{i}.codebook.embed_sum", (codebook_size, self.codebook_dim), "float32", True)))
            if vq_dim != hidden:
                named.extend(((rvq + "input_proj.weight", (vq_dim, hidden, 1)),
                              (rvq + "output_proj.weight", (hidden, vq_dim, 1))))
        p = self.prefix
        return (tuple(_new(Tensor, (p + name, shape, "audio", None, False, 0)) for name, shape in named),
                tuple(b._replace(name=p + b.name) for b in buffers))


@lru_cache(maxsize=64)
def _listed(tower: Mimi) -> tuple[tuple[Tensor, ...], tuple[Buffer, ...]]:
    return tower.listed()


def _latent_stride(codec: Mapping[str, Any], ratios: tuple[int, ...], where: str | None) -> int:
    """latent_stride where frame_rate differs from the SEANet's rate, else 0 (MimiConfig's properties, computed as
    they are: frame_size is the hop × 2 (its other strides are 1), encodec_frame_rate ceil(sampling_rate / hop),
    latent_stride int(encodec_frame_rate / frame_rate))."""
    hop = math.prod(ratios)
    encodec = math.ceil(codec["sampling_rate"] / hop)
    given = codec.get("frame_rate")
    frame_rate = codec["sampling_rate"] / (2 * hop) if given is None else given
    if type(frame_rate) not in (int, float) or not frame_rate > 0:
        raise ArchitectureError(f"{SECTION}.frame_rate", f"must be a positive number, got {frame_rate!r}"[:200],
                                where)
    if frame_rate == encodec:
        return 0
    stride = int(encodec / frame_rate)
    if stride < 1:
        raise ArchitectureError(f"{SECTION}.frame_rate", f"{frame_rate!r} is above the SEANet's own rate "
                                f"({encodec}): the latent stride would be 0", where)
    return stride


def make(prefix: str, codec: Mapping[str, Any], where: str | None) -> Mimi:
    # (no resnet block is a SEANet still: num_residual_layers may be 0)
    sizes = tuple(whole_number(codec, key, SECTION, 0) if key == "num_residual_layers" else
                  positive(codec, key, SECTION, where) for key in SIZES)
    hidden, heads, compress = sizes[1], sizes[14], sizes[8]
    ratios = codec.get("upsampling_ratios") or [8, 6, 5, 4]  # MimiConfig.__post_init__: empty or null -> these
    if not isinstance(ratios, list) or not all(type(r) is int and 0 < r <= MAX_INTEGER for r in ratios):
        raise ArchitectureError(f"{SECTION}.upsampling_ratios", f"must be a list of positive whole numbers, got "
                                f"{ratios!r}"[:200], where)
    if sizes[2] * 2 ** len(ratios) > MAX_INTEGER:
        raise ArchitectureError(f"{SECTION}.upsampling_ratios", f"{len(ratios)} ratios double num_filters beyond the "
                                f"bound of {MAX_INTEGER:,} channels (docs/limits.md)", where)
    if hidden % heads:  # MimiAttention
        raise ArchitectureError(f"{SECTION}.num_attention_heads", f"{heads} heads do not divide hidden_size={hidden}",
                                where)
    if sizes[2] // compress == 0:  # the narrowest resnet block's inner width
        raise ArchitectureError(f"{SECTION}.compress", f"{compress} leaves num_filters={sizes[2]} no channel", where)
    semantic = codec.get("num_semantic_quantizers")
    if type(semantic) is not int or not 0 <= semantic < sizes[10]:  # MimiConfig.validate_architecture
        raise ArchitectureError(f"{SECTION}.num_semantic_quantizers", f"must be a whole number below num_quantizers="
                                f"{sizes[10]}, got {semantic!r}"[:200], where)
    if sizes[9] & (sizes[9] - 1):
        raise ArchitectureError(f"{SECTION}.codebook_size", f"must be a power of 2, got {sizes[9]}", where)
    codebook_dim = positive(codec, "codebook_dim", SECTION, where)  # (strict: null refused before __post_init__)
    head_dim = codec.get("head_dim") or hidden // heads  # MimiConfig.__post_init__: a falsy head_dim -> width // heads
    if type(head_dim) is not int or head_dim < 0:
        raise ArchitectureError(f"{SECTION}.head_dim", f"must be a positive whole number, got {head_dim!r}"[:200],
                                where)
    shortcut = flag(codec, "use_conv_shortcut", SECTION, where)
    stride = _latent_stride(codec, tuple(ratios), where)
    groups = positive(codec, "upsample_groups", SECTION, where)
    if stride and hidden % groups:
        raise ArchitectureError(f"{SECTION}.upsample_groups", f"{groups} groups do not divide hidden_size={hidden}",
                                where)
    halves = [codec.get(key, {}) for key in ("encoder_config", "decoder_config")]
    if any(half is not None and half != {} for half in halves) or halves == [None, None]:
        raise ArchitectureError(f"{SECTION}.encoder_config", "can only be null (a dropped half), and not both halves",
                                where)
    return Mimi(prefix, sizes, tuple(ratios), codebook_dim, head_dim, (head_dim + 1) // 2, stride, groups, semantic,
                shortcut, flag(codec, "attention_bias", SECTION, where), halves[0] is not None, halves[1] is not None)


MIMI = {"sampling_rate": 24000, "audio_channels": 1, "hidden_size": 512, "num_filters": 64, "num_residual_layers": 1,
        "upsampling_ratios": None, "kernel_size": 7, "last_kernel_size": 3, "residual_kernel_size": 3,
        "dilation_growth_rate": 2, "compress": 2, "codebook_size": 2048, "codebook_dim": 256, "num_quantizers": 32,
        "use_conv_shortcut": False, "vector_quantization_hidden_dimension": 256, "num_semantic_quantizers": 1,
        "upsample_groups": 512, "num_hidden_layers": 8, "intermediate_size": 2048, "num_attention_heads": 8,
        "num_key_value_heads": 8, "head_dim": None, "attention_bias": False}
"""transformers 5.24.0 models/mimi/configuration_mimi.py (MimiConfig)."""

TOWERS = {"mimi": TowerKind(MIMI, make)}
