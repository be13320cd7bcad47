"""Qwen3-ASR's audio tower (Qwen3ASREncoder) and projector: Whisper's layers with k_proj biased, a sinusoid position
table as a buffer (no parameter), then ln_post and a downsampling front end registered after the layers.

transformers 5.24.0 models/qwen3_asr/modeling_qwen3_asr.py (Qwen3ASREncoder, Qwen3ASRAudioEncoderLayer,
Qwen3ASRAudioAttention, SinusoidsPositionEmbedding, Qwen3ASRMultiModalProjector): the layers (audio.encoder_layers,
every projection biased), ln_post (a LayerNorm with bias), three biased 3×3 Conv2d of downsample_hidden_size
channels (the first from one channel), each halving the mel axis ((n + 1) // 2), and conv_out, a Linear without bias
from downsample_hidden_size × the mel bins left into d_model.  The projector: linear_1 (d_model to d_model) and
linear_2 (to audio_config's output_dim), both biased."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .audio import encoder_layers, sized

_new = tuple.__new__
SPELLED = {"d_model": ("d_model", "hidden_size"), "encoder_layers": ("encoder_layers", "num_hidden_layers"),
           "encoder_attention_heads": ("encoder_attention_heads", "num_attention_heads"),
           "encoder_ffn_dim": ("encoder_ffn_dim", "intermediate_size"), "num_mel_bins": ("num_mel_bins",),
           "downsample_hidden_size": ("downsample_hidden_size",), "output_dim": ("output_dim",),
           "max_position_embeddings": ("max_position_embeddings",)}
"""Qwen3ASREncoderConfig's sizes and their attribute_map aliases (its hidden_size and the rest)."""


class Qwen3AsrEncoder(NamedTuple):
    prefix: str
    d_model: int
    encoder_layers: int
    encoder_attention_heads: int
    encoder_ffn_dim: int
    num_mel_bins: int
    downsample_hidden_size: int
    output_dim: int
    max_position_embeddings: int

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, down = self.d_model, self.prefix, self.downsample_hidden_size
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "audio", None, False, 0)))

        encoder_layers(add, self.encoder_layers, d, self.encoder_ffn_dim, key_bias=True)
        add("ln_post.weight", (d,))
        add("ln_post.bias", (d,))
        mels = self.num_mel_bins
        for i, channels in enumerate((1, down, down), 1):
            add(f"conv2d{i}.weight", (down, channels, 3, 3))
            add(f"conv2d{i}.bias", (down,))
            mels = (mels + 1) // 2
        add("conv_out.weight", (d, down * mels))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        """The sinusoid table (max_position_embeddings, d_model), float32, non-persistent."""
        return [Buffer(self.prefix + "positional_embedding.positional_embedding",
                       (self.max_position_embeddings, self.d_model), "float32", False)]


@lru_cache(maxsize=64)
def _listed(tower: Qwen3AsrEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


QWEN3_ASR_ENCODER = {"num_mel_bins": 128, "encoder_layers": 24, "encoder_attention_heads": 16, "encoder_ffn_dim": 4096,
                     "d_model": 1024, "output_dim": 3584, "downsample_hidden_size": 480, "max_position_embeddings": 13}
"""transformers 5.24.0 models/qwen3_asr/configuration_qwen3_asr.py (Qwen3ASREncoderConfig)."""


def encoder(prefix: str, audio: Mapping[str, Any], where: str | None, defaults: Mapping[str, Any] = QWEN3_ASR_ENCODER,
            rows: str = "max_position_embeddings") -> Qwen3AsrEncoder:
    """The tower of ``audio`` over ``defaults``; ``rows``: the key sizing the sinusoid table (Qwen3-Omni's is
    max_source_positions)."""
    spelled = {**SPELLED, "max_position_embeddings": (rows,)}
    sizes = [sized(audio, name, spellings, defaults, "audio_config", where) for name, spellings in spelled.items()]
    if sizes[0] % sizes[2]:  # Qwen3ASRAudioAttention: "embed_dim must be divisible by num_heads"
        raise ArchitectureError("audio_config.encoder_attention_heads", f"{sizes[2]} heads do not divide the width "
                                f"{sizes[0]}", where)
    if sizes[0] % 2 or sizes[0] < 4:  # SinusoidsPositionEmbedding: even channels; its step divides by channels // 2 - 1
        raise ArchitectureError("audio_config.d_model", f"must be even and at least 4 for the sinusoid positions, got "
                                f"{sizes[0]}", where)
    return Qwen3AsrEncoder(prefix, *sizes)


TOWERS = {"qwen3_asr_encoder": TowerKind(QWEN3_ASR_ENCODER, encoder)}


def qwen3_asr(config: Mapping[str, Any], audio: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    d = audio.d_model
    return [("linear_1.weight", (d, d)), ("linear_1.bias", (d,)), ("linear_2.weight", (audio.output_dim, d)),
            ("linear_2.bias", (audio.output_dim,))]
