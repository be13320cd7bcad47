"""Qwen2.5-Omni's thinker towers: its audio encoder (Qwen2_5OmniAudioEncoder) and its vision encoder
(Qwen2_5OmniVisionEncoder), both under the thinker's "model." (transformers 5.24.0
models/qwen2_5_omni/modeling_qwen2_5_omni.py).

- The audio encoder: Whisper's (audio.py) but for its positions, a sinusoid buffer (max_source_positions, d_model),
  float32 and non-persistent (no parameter); an nn.Embedding audio_bos_eos_token of (2, output_dim) after the convs;
  ln_post after the layers, then proj, a biased Linear from d_model to output_dim (the decoder's width: the
  "projector" component, as Qwen2.5-VL's merger inside its tower is).
- The vision encoder: Qwen2.5-VL's tower (qwen_vl.py) with q, k and v as three biased Linears (attn.q, attn.k,
  attn.v) in place of the fused attn.qkv."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .audio import WhisperEncoder, encoder, encoder_layers, sized
from .qwen_vl import QWEN2_5_VL, QWEN2_5_VL_DEFAULTS, WindowedTower, windowed

_new = tuple.__new__


class OmniAudioEncoder(NamedTuple):
    sizes: WhisperEncoder  # the encoder's sizes and prefix (its max_source_positions: the sinusoid table's rows)
    output_dim: int

    @property
    def prefix(self) -> str:
        return self.sizes.prefix

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        w, out_dim = self.sizes, self.output_dim
        d, p = w.d_model, w.prefix
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...], component: str = "audio") -> None:
            out.append(_new(Tensor, (p + name, shape, component, None, False, 0)))

        add("conv1.weight", (d, w.num_mel_bins, 3))
        add("conv1.bias", (d,))
        add("conv2.weight", (d, d, 3))
        add("conv2.bias", (d,))
        add("audio_bos_eos_token.weight", (2, out_dim))
        encoder_layers(add, w.encoder_layers, d, w.encoder_ffn_dim)
        add("ln_post.weight", (d,))
        add("ln_post.bias", (d,))
        add("proj.weight", (out_dim, d), "projector")
        add("proj.bias", (out_dim,), "projector")
        return tuple(out)

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "audio_bos_eos_token.weight"]

    def buffers(self) -> list[Buffer]:
        return [Buffer(self.prefix + "positional_embedding.positional_embedding",
                       (self.sizes.max_source_positions, self.sizes.d_model), "float32", False)]


@lru_cache(maxsize=64)
def _listed(tower: OmniAudioEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


OMNI_AUDIO = {"num_mel_bins": 128, "encoder_layers": 32, "encoder_attention_heads": 20, "encoder_ffn_dim": 5120,
              "d_model": 1280, "max_source_positions": 1500, "output_dim": 3584}
"""transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniAudioEncoderConfig)."""


def make_audio(prefix: str, audio: Mapping[str, Any], where: str | None) -> OmniAudioEncoder:
    sizes = encoder(prefix, audio, where, own=OMNI_AUDIO)  # Qwen2_5OmniAudioAttention refuses heads as Whisper's
    if sizes.d_model % 2 or sizes.d_model < 4:  # SinusoidsPositionEmbedding: even channels, channels // 2 - 1 > 0
        raise ArchitectureError("audio_config.d_model", f"must be even and at least 4 for the sinusoid positions, got "
                                f"{sizes.d_model}", where)
    return OmniAudioEncoder(sizes, sized(audio, "output_dim", ("output_dim",), OMNI_AUDIO, "audio_config", where))


class OmniVisionEncoder(NamedTuple):
    """Qwen2.5-VL's tower with its fused qkv split into q, k and v."""
    inner: WindowedTower

    @property
    def hidden_size(self) -> int:
        return self.inner.hidden_size

    def tensors(self) -> list[Tensor]:
        out: list[Tensor] = []
        for tensor in self.inner.tensors():
            path, _, kind = tensor.name.rpartition(".")
            if path.endswith(".attn.qkv"):
                stem, size = path.removesuffix("qkv"), tensor.shape[0] // 3
                out += [tensor._replace(name=f"{stem}{which}.{kind}", shape=(size, *tensor.shape[1:]))
                        for which in ("q", "k", "v")]
            else:
                out.append(tensor)
        # q.weight, q.bias, k.weight, ... as Qwen2_5OmniVisionAttention registers them
        return _interleaved(out)

    def buffers(self) -> list[Buffer]:
        return self.inner.buffers()


def _interleaved(tensors: list[Tensor]) -> list[Tensor]:
    """Each block's split q/k/v weights and biases in registration order (weight then bias per Linear)."""
    order = {f"{which}.{kind}": i for i, (which, kind) in enumerate(
        (which, kind) for which in ("q", "k", "v") for kind in ("weight", "bias"))}
    out, run = [], []
    for tensor in tensors:
        module, _, which = tensor.name.rpartition(".")[0].rpartition(".")
        if module.endswith(".attn") and which in ("q", "k", "v"):
            run.append(tensor)
            continue
        if run:
            out += sorted(run, key=lambda t: order[".".join(t.name.rsplit(".", 2)[1:])])
            run = []
        out.append(tensor)
    return out + run


_vision = windowed(QWEN2_5_VL)


def make_vision(prefix: str, vision: Mapping[str, Any], where: str | None) -> OmniVisionEncoder:
    return OmniVisionEncoder(_vision(prefix, vision, where))


OMNI_VISION = {**QWEN2_5_VL_DEFAULTS}
"""transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniVisionEncoderConfig: Qwen2.5-VL's
vision defaults, diffed)."""

TOWERS = {"qwen2_5_omni_audio_encoder": TowerKind(OMNI_AUDIO, make_audio),
          "qwen2_5_omni_vision_encoder": TowerKind(OMNI_VISION, make_vision)}
