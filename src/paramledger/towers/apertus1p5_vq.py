"""Apertus 1.5's vision tokenizer (Apertus1p5VisionTokenizerModel under model.vision_tokenizer, read from
vision_config): Chameleon's VQGAN encoder (its resnet and attention blocks, towers/janus_vq.py) under its own names,
then a codebook scored by an nn.Linear and one 1×1 quant_conv, no decoder and no post_quant_conv (transformers
5.24.0 models/apertus1p5/modeling_apertus1p5.py: Apertus1p5VisionTokenizerEncoderStage, ...MiddleBlock, ...Encoder,
...VectorQuantizer, ...Model).  Counted as a tower (the "vision" component), registered after the decoder.

- encoder.conv_in (in_channels -> base_channels, 3×3);
- stages.{s} for each channel_multiplier entry: num_res_blocks layers, each a resnet from base × (1, *mult)[s]
  (then base × mult[s]) to base × mult[s] and, where resolution // 2**s is in attn_resolutions, an attention block
  right after it in the same layer (layers.{i}.resnet, layers.{i}.attention); a strided 3×3 downsample.conv but at
  the last stage;
- mid (block_1, attn_1, block_2), norm_out, conv_out (-> latent_channels);
- quantize.embedding (an unbiased nn.Linear embed_dim -> codebook_size), quant_conv (latent_channels -> embed_dim).
Apertus1p5Model casts the tokenizer to float32 (``.to(dtype=torch.float32)``, and ``_keep_in_fp32_modules_strict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER, big
from ._kind import TOWER_LAYERS, TowerKind, whole_number
from .janus_vq import GROUPS, _attention, _conv, _norm, _resnet

_new = tuple.__new__
KEY = "vision_config"

DEFAULTS = {"model_type": "apertus1p5_vision_tokenizer", "codebook_size": 131072, "embed_dim": 256,
            "latent_channels": 256, "in_channels": 3, "base_channels": 256, "channel_multiplier": [1, 1, 2, 2, 4],
            "num_res_blocks": 4, "attn_resolutions": [16], "resolution": 256}
"""transformers 5.24.0 models/apertus1p5/configuration_apertus1p5.py (Apertus1p5VisionTokenizerConfig)."""


class VisionTokenizer(NamedTuple):
    prefix: str  # "model.vision_tokenizer."
    codebook_size: int
    embed_dim: int
    latent_channels: int
    in_channels: int
    base_channels: int
    channel_multiplier: tuple[int, ...]
    num_res_blocks: int
    attended: tuple[bool, ...]  # per stage: resolution // 2**stage in attn_resolutions

    def tensors(self) -> list[Tensor]:
        return [_new(Tensor, (self.prefix + name, shape, "vision", None, False, 0)) for name, shape in self.named()]

    def named(self) -> list[tuple[str, tuple[int, ...]]]:
        base, mult = self.base_channels, self.channel_multiplier
        out: list[tuple[str, tuple[int, ...]]] = []
        _conv(out, "encoder.conv_in", base, self.in_channels, 3)
        for stage in range(len(mult)):
            block_in, block_out = base * (1, *mult)[stage], base * mult[stage]
            for i in range(self.num_res_blocks):
                _resnet(out, f"encoder.stages.{stage}.layers.{i}.resnet", block_in, block_out)
                if self.attended[stage]:
                    _attention(out, f"encoder.stages.{stage}.layers.{i}.attention", block_out)
                block_in = block_out
            if stage != len(mult) - 1:
                _conv(out, f"encoder.stages.{stage}.downsample.conv", block_out, block_out, 3)
        channels = base * mult[-1]
        _resnet(out, "encoder.mid.block_1", channels, channels)
        _attention(out, "encoder.mid.attn_1", channels)
        _resnet(out, "encoder.mid.block_2", channels, channels)
        _norm(out, "encoder.norm_out", channels)
        _conv(out, "encoder.conv_out", self.latent_channels, channels, 3)
        out.append(("quantize.embedding.weight", (self.codebook_size, self.embed_dim)))
        _conv(out, "quant_conv", self.embed_dim, self.latent_channels, 1)
        return out

    def buffers(self) -> list[Buffer]:
        return []


def _whole_list(vision: Mapping[str, Any], key: str, low: int) -> tuple[int, ...]:
    value = vision.get(key)
    if not isinstance(value, (list, tuple)) or not all(type(v) is int and low <= v <= MAX_INTEGER for v in value):
        raise ArchitectureError(f"{KEY}.{key}", f"must be a list of whole numbers from {low}, got {str(value)[:80]}")
    return tuple(value)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> VisionTokenizer:
    """The tokenizer of ``vision`` (vision_config over Apertus1p5VisionTokenizerConfig's defaults), its refusals
    said in one line naming the key."""
    try:
        sizes = {key: whole_number(vision, key, KEY) for key in ("codebook_size", "embed_dim", "latent_channels",
                                                                  "in_channels", "base_channels", "resolution")}
        blocks = whole_number(vision, "num_res_blocks", KEY, 0)
        mult = _whole_list(vision, "channel_multiplier", 1)
        if not mult:
            raise ArchitectureError(f"{KEY}.channel_multiplier", "must list at least one stage")
        if len(mult) * (blocks + 1) > TOWER_LAYERS:  # the blocks are named one by one (docs/limits.md)
            raise ArchitectureError(f"{KEY}.num_res_blocks", f"{len(mult)} stages of {blocks} blocks are beyond the "
                                    f"bound of {TOWER_LAYERS:,} blocks (docs/limits.md)")
        listed = _whole_list(vision, "attn_resolutions", 0)
        base = sizes["base_channels"]
        # every channel count a GroupNorm(32) sees: each stage's input and output, the mid block's
        for channels in sorted({base * m for m in ((1, *mult) if blocks else mult[-1:])}):
            if channels > MAX_INTEGER:
                raise ArchitectureError(f"{KEY}.channel_multiplier", f"gives {big(channels)} channels, beyond the "
                                        f"bound of {MAX_INTEGER:,} (docs/limits.md)")
            if channels % GROUPS:
                raise ArchitectureError(f"{KEY}.base_channels", f"{base} × a channel_multiplier gives {channels} "
                                        f"channels, which the blocks' {GROUPS} GroupNorm groups do not divide")
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    attended = tuple(sizes["resolution"] >> stage in listed for stage in range(len(mult)))  # resolution // 2**stage
    return VisionTokenizer(prefix, sizes["codebook_size"], sizes["embed_dim"], sizes["latent_channels"],
                           sizes["in_channels"], base, mult, blocks, attended)


TOWERS = {"apertus1p5_vision_tokenizer": TowerKind(DEFAULTS, make)}
