"""OmniASR's audio tower (OmniASRAudioModel: wav2vec 2.0's feature encoder and positional convolution around a
post-norm Transformer) and its projector.

transformers 5.24.0 models/omniasr/modeling_omniasr.py (OmniASRAudioModel, OmniASREncoderSubsamplingConv1D,
OmniASRLayerNormConvLayer, OmniASRPositionalConvEmbedding, OmniASREncoderLayer, OmniASRAttention,
OmniASRFeedForward, OmniASRModel): the subsampling is len(conv_dim) Conv1d layers (1 channel in, then each conv_dim
entry, kernel and stride by layer, biased by conv_bias), each with its own affine LayerNorm, then a LayerNorm over
the last width and a biased projection to hidden_size; encode_positions is one grouped Conv1d (hidden_size wide,
num_conv_pos_embeddings long, num_conv_pos_embedding_groups groups, biased, no weight norm); each layer holds k, v,
q and out projections (all biased), layer_norm, a biased feed-forward (intermediate_dense, output_dense) and
final_layer_norm; a final layer_norm.  No buffer.  The projector: multi_modal_projector, one biased Linear from the
tower's width to the decoder's."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, stamped
from .audio import sized

_new = tuple.__new__
SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_conv_pos_embeddings",
         "num_conv_pos_embedding_groups")


class OmniASRAudio(NamedTuple):
    """One OmniASR audio tower as its audio_config gives it, under its module path ("model.audio_tower.")."""
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_conv_pos_embeddings: int
    num_conv_pos_embedding_groups: int
    convolutions: tuple[tuple[int, int], ...]  # (conv_dim, conv_kernel) by layer
    conv_bias: bool

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, ffn = self.hidden_size, self.prefix, self.intermediate_size
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "audio", None, False, 0)))

        channels = 1
        for i, (width, kernel) in enumerate(self.convolutions):
            layer = f"subsampling.conv_layers.{i}."
            add(layer + "conv.weight", (width, channels, kernel))
            if self.conv_bias:
                add(layer + "conv.bias", (width,))
            add(layer + "layer_norm.weight", (width,))
            add(layer + "layer_norm.bias", (width,))
            channels = width
        add("subsampling.layer_norm.weight", (channels,))
        add("subsampling.layer_norm.bias", (channels,))
        add("subsampling.projection.weight", (d, channels))
        add("subsampling.projection.bias", (d,))
        add("encode_positions.conv.weight", (d, d // self.num_conv_pos_embedding_groups, self.num_conv_pos_embeddings))
        add("encode_positions.conv.bias", (d,))
        block = [(f"attention.{name}.{part}", (d, d) if part == "weight" else (d,))
                 for name in ("k_proj", "v_proj", "q_proj", "out_proj") for part in ("weight", "bias")]
        block += [("layer_norm.weight", (d,)), ("layer_norm.bias", (d,)),
                  ("feed_forward.intermediate_dense.weight", (ffn, d)),
                  ("feed_forward.intermediate_dense.bias", (ffn,)),
                  ("feed_forward.output_dense.weight", (d, ffn)), ("feed_forward.output_dense.bias", (d,)),
                  ("final_layer_norm.weight", (d,)), ("final_layer_norm.bias", (d,))]
        out += stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block, "audio")
        add("layer_norm.weight", (d,))
        add("layer_norm.bias", (d,))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        return []


@lru_cache(maxsize=64)
def _listed(tower: OmniASRAudio) -> tuple[Tensor, ...]:
    return tower.listed()


def _sizes(audio: Mapping[str, Any], key: str, where: str | None) -> tuple[int, ...]:
    value = audio.get(key)
    if not isinstance(value, (list, tuple)) or not value or any(type(n) is not int or n <= 0 for n in value):
        raise ArchitectureError(f"audio_config.{key}", f"must be a non-empty list of positive whole numbers, got "
                                f"{value!r}", where)
    return tuple(value)


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> OmniASRAudio:
    """An OmniASR audio tower of ``audio``, its sizes checked, one line each."""
    sizes = [sized(audio, name, (name,), {}, "audio_config", where) for name in SIZES]
    width, heads, groups = sizes[0], sizes[3], sizes[5]
    if width % heads:  # OmniASRAttention: "embed_dim must be divisible by num_heads"
        raise ArchitectureError("audio_config.num_attention_heads", f"{heads} heads do not divide hidden_size="
                                f"{width}", where)
    if width % groups:  # nn.Conv1d: in_channels must be divisible by groups
        raise ArchitectureError("audio_config.num_conv_pos_embedding_groups", f"{groups} groups do not divide "
                                f"hidden_size={width}", where)
    dims, kernels, strides = (_sizes(audio, key, where) for key in ("conv_dim", "conv_kernel", "conv_stride"))
    if not len(dims) == len(kernels) == len(strides):  # OmniASRAudioConfig.validate_architecture
        raise ArchitectureError("audio_config.conv_dim", f"{len(dims)} layers, but conv_kernel gives {len(kernels)} "
                                f"and conv_stride {len(strides)}: the three must be as long", where)
    bias = audio.get("conv_bias")
    if not isinstance(bias, bool):
        raise ArchitectureError("audio_config.conv_bias", f"must be true or false, got {bias!r}", where)
    return OmniASRAudio(prefix, *sizes, tuple(zip(dims, kernels)), bias)


OMNIASR_AUDIO_DEFAULTS = {"hidden_size": 1024, "conv_dim": [512] * 7, "conv_kernel": [10, 3, 3, 3, 3, 2, 2],
                          "conv_stride": [5, 2, 2, 2, 2, 2, 2], "conv_bias": True, "num_attention_heads": 16,
                          "num_hidden_layers": 24, "num_conv_pos_embeddings": 128,
                          "num_conv_pos_embedding_groups": 16, "intermediate_size": 4096}
"""transformers 5.24.0 models/omniasr/configuration_omniasr.py (OmniASRAudioConfig)."""

TOWERS = {"omniasr_audio": TowerKind(OMNIASR_AUDIO_DEFAULTS, make)}


def omniasr(config: Mapping[str, Any], audio: OmniASRAudio, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """OmniASRModel's multi_modal_projector: one biased Linear from the tower's width to the decoder's.  The whole
    config's initializer_range must be its audio_config's (OmniASRConfig.validate_architecture refuses it else)."""
    given = config.get("audio_config") or {}
    ranges = config.get("initializer_range", 0.02), given.get("initializer_range", 0.02)
    if ranges[0] != ranges[1]:
        raise ArchitectureError("initializer_range", f"{ranges[0]!r} is not audio_config's {ranges[1]!r}: "
                                "transformers 5.24.0 refuses the pair")
    return [("weight", (hidden, audio.hidden_size)), ("bias", (hidden,))]
