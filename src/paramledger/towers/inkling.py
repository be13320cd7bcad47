"""Inkling's towers (transformers 5.24.0 models/inkling/modeling_inkling.py), registered after the text decoder:

- ``model.audio_tower`` (InklingAudioModel, lines 818-852): one nn.Embedding of n_mel_bins × mel_vocab_size rows
  (each mel bin's quantised values, InklingAudioModelEmbeddings.embed_audio_tokens) the decoder's width, its
  audio_tokens_offsets buffer ((n_mel_bins,) int64, not persistent), and an RMSNorm of the decoder's width;
- ``model.vision_tower`` (InklingVisionModel, lines 972-1023): num_hidden_layers encoder layers between the scales
  plan_out_scales picks (lines 909-969: (t, h, w, channels) grids from the prime factors of patch_size and
  temporal_patch_size, one per layer boundary), each a bias-free projection from the start scale's channels × its
  fold to the end scale's (the last layer's to the decoder's width) and, but on the last, an RMSNorm; then
  final_norm of the decoder's width.

Both read the decoder's width as text_hidden_size, which InklingConfig.__post_init__ sets from text_config's
hidden_size: the family's Whole gives it them (``text_width_key``).  No other buffer: InklingVisionModel.scales is a
plain attribute."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_REPEAT, big
from ._kind import TowerKind, positive

_new = tuple.__new__

# configuration_inkling.py InklingAudioConfig and InklingVisionConfig (text_hidden_size: the decoder's, set by the
# whole config)
AUDIO = {"model_type": "inkling_audio", "n_mel_bins": 80, "mel_vocab_size": 256, "text_hidden_size": 6144}
VISION = {"model_type": "inkling_vision", "text_hidden_size": 6144, "patch_size": 40, "temporal_patch_size": 2,
          "num_channels": 3, "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16}


class InklingAudio(NamedTuple):
    prefix: str  # "model.audio_tower."
    n_mel_bins: int  # n_mel_bins (num_codebooks)
    mel_vocab_size: int  # mel_vocab_size (codebook_size)
    width: int  # text_hidden_size: the decoder's hidden_size

    def tensors(self) -> list[Tensor]:
        p = self.prefix
        return [_new(Tensor, (p + "embed_audio_tokens.embed_audio_tokens.weight",
                              (self.n_mel_bins * self.mel_vocab_size, self.width), "audio", None, False, 0)),
                _new(Tensor, (p + "norm.weight", (self.width,), "audio", None, False, 0))]

    def buffers(self) -> list[Buffer]:
        return [Buffer(self.prefix + "embed_audio_tokens.audio_tokens_offsets", (self.n_mel_bins,), "int64", False)]

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "embed_audio_tokens.embed_audio_tokens.weight"]


def audio(prefix: str, config: Mapping[str, Any], where: str | None) -> InklingAudio:
    # InklingAudioConfig.attribute_map: num_codebooks and codebook_size are read over n_mel_bins and mel_vocab_size
    # (measured: given both, the attribute_map's key wins)
    bins = "num_codebooks" if "num_codebooks" in config else "n_mel_bins"
    values = "codebook_size" if "codebook_size" in config else "mel_vocab_size"
    return InklingAudio(prefix, positive(config, bins, "audio_config", where),
                        positive(config, values, "audio_config", where),
                        positive(config, "text_hidden_size", "audio_config", where))


def prime_factors(number: int) -> list[int]:
    """modeling_inkling.py prime_factors: 2s first, then odd factors ascending."""
    factors = []
    while number % 2 == 0:
        factors.append(2)
        number //= 2
    for p in range(3, math.isqrt(number) + 1, 2):
        while number % p == 0:
            factors.append(p)
            number //= p
    if number > 1:
        factors.append(number)
    return factors


def _cumulative(factors: list[int]) -> list[int]:
    out, product = [], 1
    for factor in reversed(factors):
        product *= factor
        out.append(product)
    return out


def _assignment(cost: list[list[float]]) -> list[int]:
    """The column each row takes in a least-cost assignment of rows to distinct columns (rows <= columns), as scipy's
    linear_sum_assignment finds it (plan_out_scales calls it): scipy/optimize/rectangular_lsap/rectangular_lsap.cpp,
    Crouse's shortest augmenting paths, row by row, its ties broken as it breaks them (the columns scanned from the
    last, a free column preferred among equally short ones): the scales' costs tie often."""
    rows, cols = len(cost), len(cost[0])
    u, v = [0.0] * rows, [0.0] * cols
    path, col4row, row4col = [-1] * cols, [-1] * rows, [-1] * cols
    for current in range(rows):
        shortest, seen_rows, seen_cols = [math.inf] * cols, [False] * rows, [False] * cols
        remaining, least, i, sink = list(range(cols - 1, -1, -1)), 0.0, current, -1
        while sink == -1:
            index, lowest = -1, math.inf
            seen_rows[i] = True
            for it, j in enumerate(remaining):
                reduced = least + cost[i][j] - u[i] - v[j]
                if reduced < shortest[j]:
                    path[j], shortest[j] = i, reduced
                if shortest[j] < lowest or shortest[j] == lowest and row4col[j] == -1:
                    lowest, index = shortest[j], it
            least = lowest
            j = remaining[index]
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
            seen_cols[j] = True
            remaining[index] = remaining[-1]
            remaining.pop()
        u[current] += least
        for r in range(rows):
            if seen_rows[r] and r != current:
                u[r] += least - shortest[col4row[r]]
        for c in range(cols):
            if seen_cols[c]:
                v[c] -= least - shortest[c]
        j = sink
        while True:
            r = path[j]
            row4col[j] = r
            col4row[r], j = j, col4row[r]
            if r == current:
                break
    return col4row


def _f32(value: float) -> float:
    """``value`` rounded to the nearest float32."""
    return struct.unpack("f", struct.pack("f", value))[0]


def plan_out_scales(temporal: int, patch: int, layers: int, channels: int) -> list[tuple[int, int, int, int]]:
    """modeling_inkling.py plan_out_scales: the (t, h, w, channels) grid at each of the layers + 1 boundaries."""
    h, t = _cumulative(prime_factors(patch)), _cumulative(prime_factors(temporal))
    scales = [(1, 1, 1, channels)]
    scales += [(1, size, size, math.ceil(size * size * channels / 64) * 64) for size in h]
    scales += [(size, h[-1], h[-1], math.ceil(h[-1] ** 2 * channels * size) * 64) for size in t]
    # in float32 as torch computes it: exact ties of the real numbers (log 32 × 2/4 halfway between log 4 and
    # log 8) are broken by its rounding, so the rounding is followed: torch.linspace's two halves, the second a fused
    # multiply-add from the end (one rounding; a float32 step times a small whole number is exact in a double)
    reductions = [_f32(math.log(a * b * c)) for a, b, c, _ in scales]
    end, steps = _f32(math.log(patch * patch * temporal * channels)), layers + 1
    step = _f32(end / layers)
    ideal = [_f32(step * i) if i < steps // 2 else _f32(end - step * (steps - 1 - i)) for i in range(steps)]
    cost = [[abs(_f32(target - reduction)) for reduction in reductions] for target in ideal]
    if layers >= len(scales):
        picked = [row.index(min(row)) for row in cost]
    else:
        picked = _assignment(cost)
    picked[0], picked[-1] = 0, len(scales) - 1
    return [scales[i] for i in picked]


class InklingVision(NamedTuple):
    prefix: str  # "model.vision_tower."
    layers: tuple[tuple[int, int, bool], ...]  # each encoder layer's (input, output, norm)
    width: int  # text_hidden_size

    def tensors(self) -> list[Tensor]:
        p, out = self.prefix, []
        for i, (inputs, outputs, norm) in enumerate(self.layers):
            out.append(_new(Tensor, (f"{p}encoder_layers.{i}.projection.weight", (outputs, inputs), "vision", None,
                                     False, 0)))
            if norm:
                out.append(_new(Tensor, (f"{p}encoder_layers.{i}.layer_norm.weight", (outputs,), "vision", None,
                                         False, 0)))
        out.append(_new(Tensor, (p + "final_norm.weight", (self.width,), "vision", None, False, 0)))
        return out

    def buffers(self) -> list[Buffer]:
        return []


def vision(prefix: str, config: Mapping[str, Any], where: str | None) -> InklingVision:
    s = "vision_config"
    # InklingVisionConfig.attribute_map reads num_hidden_layers as n_layers (a release's key; measured: it wins)
    depth = "n_layers" if "n_layers" in config else "num_hidden_layers"
    layers = positive(config, depth, s, where)
    if layers > MAX_REPEAT:  # the layers are enumerated (docs/limits.md)
        raise ArchitectureError(f"{s}.{depth}", f"gives {big(layers)} layers, beyond the bound of {MAX_REPEAT:,} "
                                "(docs/limits.md)", where)
    patch, temporal = positive(config, "patch_size", s, where), positive(config, "temporal_patch_size", s, where)
    for key, size in (("patch_size", patch), ("temporal_patch_size", temporal)):
        if size < 2:  # no prime factor: plan_out_scales indexes an empty grid (patch) or makes float sizes (temporal)
            raise ArchitectureError(f"{s}.{key}", f"must be 2 or more, got {size} (transformers 5.24.0's "
                                    "plan_out_scales cannot build 1)", where)
    channels, width = positive(config, "num_channels", s, where), positive(config, "text_hidden_size", s, where)
    scales = plan_out_scales(temporal, patch, layers, channels)
    built = []
    for i, (start, end) in enumerate(zip(scales, scales[1:])):
        fold = (end[0] // start[0]) * (end[1] // start[1]) * (end[2] // start[2])
        last = i == layers - 1
        built.append((start[3] * fold, width if last else end[3], not last))
    return InklingVision(prefix, tuple(built), width)


TOWERS = {"inkling_audio": TowerKind(AUDIO, audio), "inkling_vision": TowerKind(VISION, vision)}
