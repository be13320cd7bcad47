"""Muse Spark's audio tower.  transformers 5.24.0 models/muse_spark/modular_muse_spark.py (MuseSparkAudioModel,
MuseSparkAudioLayer, MuseSparkAudioPatchEmbedding, MuseSparkAudioConvBlock, MuseSparkAudioMLP; the causal conv is
VoxtralRealtimeCausalConv1d, which registers no buffer).

A causal convolutional pyramid on the raw waveform (``model.audio_tower``, registered after the vision projector),
one layer per entry of hidden_sizes: a patch embedding (a biased Linear from the previous width × patch_sizes[i],
1 channel at the first, then an RMSNorm), then depths[i] conv blocks (a biased depthwise Conv1d of conv_kernel_size,
an RMSNorm, a biased fc1/fc2 MLP int(width × mlp_ratio) wide); then a norm, a biased proj to out_hidden_size (the
text width: MuseSparkConfig.validate_architecture) and post_proj_norm.  The vision tower is Muse Glimmer's
(MuseSparkVisionModel(MuseGlimmerVisionModel): pass)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TowerKind, positive

_new = tuple.__new__
KEY = "audio_config"
AUDIO_DEFAULTS = {"model_type": "muse_spark_audio", "patch_sizes": [16, 6, 5, 4], "hidden_sizes": [256, 512, 1024, 2048],
                  "depths": [2, 2, 2, 2], "num_hidden_layers": 4, "mlp_ratio": 4.0, "conv_kernel_size": 7,
                  "out_hidden_size": 8192}
"""transformers 5.24.0 models/muse_spark/configuration_muse_spark.py (MuseSparkAudioConfig)."""
LISTS = ("patch_sizes", "hidden_sizes", "depths")


class MuseSparkAudioTower(NamedTuple):
    prefix: str  # "model.audio_tower."
    patch_sizes: tuple[int, ...]
    hidden_sizes: tuple[int, ...]
    depths: tuple[int, ...]
    mlp_ratio: float
    kernel: int  # conv_kernel_size
    out_hidden_size: int

    def tensors(self) -> list[Tensor]:
        named: list[tuple[str, tuple[int, ...]]] = []
        for i, (patch, width, depth) in enumerate(zip(self.patch_sizes, self.hidden_sizes, self.depths)):
            inner = int(width * self.mlp_ratio)  # MuseSparkAudioMLP
            before = 1 if i == 0 else self.hidden_sizes[i - 1]
            layer = f"layers.{i}."
            named += [(layer + "patch_embedder.proj.weight", (width, before * patch)),
                      (layer + "patch_embedder.proj.bias", (width,)), (layer + "patch_embedder.norm.weight", (width,))]
            block = [("conv.weight", (width, 1, self.kernel)), ("conv.bias", (width,)), ("norm.weight", (width,)),
                     ("mlp.fc1.weight", (inner, width)), ("mlp.fc1.bias", (inner,)),
                     ("mlp.fc2.weight", (width, inner)), ("mlp.fc2.bias", (width,))]
            named += [(f"{layer}conv_blocks.{j}.{name}", shape) for j in range(depth) for name, shape in block]
        last, out = self.hidden_sizes[-1], self.out_hidden_size
        named += [("norm.weight", (last,)), ("proj.weight", (out, last)), ("proj.bias", (out,)),
                  ("post_proj_norm.weight", (out,))]
        return [_new(Tensor, (self.prefix + name, shape, "audio", None, False, 0)) for name, shape in named]

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return []


def _sizes(audio: Mapping[str, Any], key: str, where: str | None) -> tuple[int, ...]:
    value, least = audio.get(key), int(key != "depths")  # a layer of no conv blocks is built (an empty ModuleList)
    if not isinstance(value, (list, tuple)) or not all(type(v) is int and least <= v <= MAX_INTEGER for v in value):
        raise ArchitectureError(f"{KEY}.{key}", f"must be a list of {'positive ' if least else ''}whole numbers"
                                f"{'' if least else ' from 0'}, got {value!r}"[:200], where)
    return tuple(value)


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> MuseSparkAudioTower:
    patch_sizes, hidden_sizes, depths = (_sizes(audio, key, where) for key in LISTS)
    layers = audio.get("num_hidden_layers")
    if type(layers) is not int or not 0 < layers <= MAX_INTEGER:
        raise ArchitectureError(f"{KEY}.num_hidden_layers", f"must be a positive whole number, got {layers!r}"[:200],
                                where)
    if not len(patch_sizes) == len(hidden_sizes) == len(depths) == layers:  # MuseSparkAudioConfig.validate_architecture
        raise ArchitectureError(f"{KEY}.num_hidden_layers", f"{layers}, but patch_sizes, hidden_sizes and depths "
                                f"have {len(patch_sizes)}, {len(hidden_sizes)} and {len(depths)} entries: "
                                "transformers needs one per layer", where)
    ratio = audio.get("mlp_ratio")
    if type(ratio) not in (int, float) or not 0 < ratio or int(max(hidden_sizes) * ratio) > MAX_INTEGER:
        raise ArchitectureError(f"{KEY}.mlp_ratio", f"must be a positive number, got {ratio!r}"[:200], where)
    if any(int(width * ratio) < 1 for width in hidden_sizes):
        raise ArchitectureError(f"{KEY}.mlp_ratio", f"{ratio!r} makes an MLP of no width", where)
    return MuseSparkAudioTower(prefix, patch_sizes, hidden_sizes, depths, float(ratio),
                               positive(audio, "conv_kernel_size", KEY, where),
                               positive(audio, "out_hidden_size", KEY, where))


def widths_agree(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """MuseSparkConfig.validate_architecture: the audio tower's output is the text decoder's width."""
    text = config.get("text_config") or {}
    audio = config.get("audio_config") or {}
    if isinstance(text, Mapping) and isinstance(audio, Mapping):
        hidden = text.get("hidden_size", 8192)  # MuseSparkTextConfig's default
        out = audio.get("out_hidden_size", AUDIO_DEFAULTS["out_hidden_size"])
        if out != hidden:
            raise ArchitectureError(f"{KEY}.out_hidden_size", f"{out!r} must match text_config.hidden_size "
                                    f"({hidden!r}): transformers refuses it", None)
    return config


TOWERS = {"muse_spark_audio": TowerKind(AUDIO_DEFAULTS, make)}
