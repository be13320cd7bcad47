"""VibeVoice's acoustic-tokenizer encoder as an audio tower (VibeVoice-ASR holds two: the acoustic one and the
semantic one, the same class at other sizes) and VibeVoice-ASR's projector.

transformers 5.24.0 models/vibevoice_acoustic_tokenizer/modeling_vibevoice_acoustic_tokenizer.py
(VibeVoiceAcousticTokenizerEncoderModel, -EncoderStem, -EncoderLayer, -ConvNext1dLayer, -CausalConv1d,
-FeedForward, -RMSNorm): a stem (a biased Conv1d from ``channels`` to ``num_filters``, kernel_size wide, then
depths[0] ConvNeXt blocks), one layer per downsampling ratio r_i (a biased Conv1d doubling the channels, kernel 2 r_i,
stride r_i, then depths[i + 1] blocks at the doubled width) and a head (a biased Conv1d to hidden_size, kernel_size
wide).  A ConvNeXt block at width c registers its two layer scales first (gamma, ffn_gamma: nn.Parameters of its
own), then norm and ffn_norm (RMSNorms, weight only), ffn (linear1 to ffn_expansion × c and linear2 back, biased) and
the mixer (a depthwise Conv1d, (c, 1, kernel_size), biased).  Depths beyond the ratios' are never read; no buffers."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TowerKind, positive

_new = tuple.__new__


class TokenizerEncoder(NamedTuple):
    prefix: str
    channels: int
    hidden_size: int
    kernel_size: int
    num_filters: int
    ffn_expansion: int
    downsampling_ratios: tuple[int, ...]
    depths: tuple[int, ...]  # depths[0] the stem's blocks, depths[i + 1] the i-th layer's

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        k, filters = self.kernel_size, self.num_filters
        named: list[tuple[str, tuple[int, ...]]] = []

        def conv(path: str, out: int, into: int, width: int) -> None:
            named.extend(((path + ".conv.weight", (out, into, width)), (path + ".conv.bias", (out,))))

        def blocks(path: str, count: int, width: int) -> None:
            inner = self.ffn_expansion * width
            for j in range(count):
                block = f"{path}.stage.{j}."
                named.extend(((block + "gamma", (width,)), (block + "ffn_gamma", (width,)),
                              (block + "norm.weight", (width,)), (block + "ffn_norm.weight", (width,)),
                              (block + "ffn.linear1.weight", (inner, width)), (block + "ffn.linear1.bias", (inner,)),
                              (block + "ffn.linear2.weight", (width, inner)), (block + "ffn.linear2.bias", (width,)),
                              (block + "mixer.conv.weight", (width, 1, k)), (block + "mixer.conv.bias", (width,))))

        conv("stem.conv", filters, self.channels, k)
        blocks("stem", self.depths[0], filters)
        for i, ratio in enumerate(self.downsampling_ratios):
            width = filters * 2 ** (i + 1)
            conv(f"conv_layers.{i}.conv", width, width // 2, 2 * ratio)
            blocks(f"conv_layers.{i}", self.depths[i + 1], width)
        conv("head", self.hidden_size, filters * 2 ** len(self.downsampling_ratios), k)
        p = self.prefix
        return tuple(_new(Tensor, (p + name, shape, "audio", None, False, 0)) for name, shape in named)

    def buffers(self) -> list[Buffer]:
        return []


@lru_cache(maxsize=64)
def _listed(tower: TokenizerEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


def _whole_numbers(config: Mapping[str, Any], key: str, section: str, low: int, where: str | None) -> tuple[int, ...]:
    """A list of whole numbers from ``low`` (the config class declares list[int]), refused in one line."""
    value = config.get(key)
    if not isinstance(value, (list, tuple)) or not all(type(v) is int and low <= v <= MAX_INTEGER for v in value):
        raise ArchitectureError(f"{section}.{key}", f"must be a list of whole numbers from {low}, got {value!r}"[:200],
                                where)
    return tuple(value)


def encoder(prefix: str, config: Mapping[str, Any], where: str | None, section: str) -> TokenizerEncoder:
    """The tokenizer encoder of ``config`` (over its class's defaults), its keys refused under ``section``."""
    sizes = [positive(config, key, section, where) for key in
             ("channels", "hidden_size", "kernel_size", "num_filters", "ffn_expansion")]
    ratios = _whole_numbers(config, "downsampling_ratios", section, 1, where)
    depths = _whole_numbers(config, "depths", section, 0, where)
    if len(depths) < len(ratios) + 1:  # the stem's, then one per ratio (an IndexError in transformers)
        raise ArchitectureError(f"{section}.depths", f"needs {len(ratios) + 1} entries (the stem's, then one per "
                                f"downsampling ratio), got {len(depths)}", where)
    if sizes[3] * 2 ** len(ratios) > MAX_INTEGER:
        raise ArchitectureError(f"{section}.downsampling_ratios", f"{len(ratios)} ratios double num_filters beyond "
                                f"the bound of {MAX_INTEGER:,} channels (docs/limits.md)", where)
    return TokenizerEncoder(prefix, *sizes, ratios, depths)


ENCODER = {"channels": 1, "hidden_size": 64, "kernel_size": 7, "num_filters": 32, "ffn_expansion": 4,
           "downsampling_ratios": [2, 2, 4, 5, 5, 8], "depths": [3, 3, 3, 3, 3, 3, 8]}
"""transformers 5.24.0 models/vibevoice_acoustic_tokenizer/configuration_vibevoice_acoustic_tokenizer.py
(VibeVoiceAcousticTokenizerConfig, whose defaults VibeVoiceAcousticTokenizerEncoderConfig keeps)."""
ACOUSTIC_KEY, SEMANTIC_KEY = "acoustic_tokenizer_encoder_config", "semantic_tokenizer_encoder_config"


def make(prefix: str, config: Mapping[str, Any], where: str | None) -> TokenizerEncoder:
    """Either tower, each key refused under the sub-config it was read from (model.acoustic_tokenizer_encoder.:
    acoustic_tokenizer_encoder_config)."""
    return encoder(prefix, config, where, prefix.removeprefix("model.").rstrip(".") + "_config")


TOWERS = {"vibevoice_acoustic_tokenizer_encoder": TowerKind(ENCODER, make)}


def hop_length(config: Mapping[str, Any]) -> int:
    """The acoustic encoder's hop (the product of its downsampling ratios: VibeVoiceAcousticTokenizerConfig)."""
    acoustic = {**ENCODER, **(config.get(ACOUSTIC_KEY) or {})}
    hop = 1
    for ratio in acoustic["downsampling_ratios"]:
        hop *= ratio
    return hop


def vibevoice_asr(config: Mapping[str, Any], semantic: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """VibeVoiceAsrMultiModalProjector (modeling_vibevoice_asr.py): per path (acoustic, then semantic) a biased
    Linear from its encoder's hidden_size to the text width, an RMSNorm, a biased Linear at the text width.  The
    projector reads the semantic tower (the first registered after the acoustic one, a sub-tower here) and the acoustic
    width from the config; VibeVoiceAsrConfig refuses an acoustic_tokenizer_chunk_size that is no multiple of the
    acoustic hop (validate_architecture)."""
    acoustic = {**ENCODER, **(config.get(ACOUSTIC_KEY) or {})}["hidden_size"]
    chunk = config.get("acoustic_tokenizer_chunk_size", 1440000)
    hop = hop_length(config)
    if type(chunk) is not int or chunk <= 0 or chunk % hop:
        raise ArchitectureError("acoustic_tokenizer_chunk_size", f"must be a positive multiple of the acoustic "
                                f"encoder's hop length ({hop}), got {chunk!r}"[:200])
    named = []
    for path, width in (("acoustic", acoustic), ("semantic", semantic.hidden_size)):
        named += [(f"{path}_linear_1.weight", (hidden, width)), (f"{path}_linear_1.bias", (hidden,)),
                  (f"{path}_norm.weight", (hidden,)), (f"{path}_linear_2.weight", (hidden, hidden)),
                  (f"{path}_linear_2.bias", (hidden,))]
    return named
