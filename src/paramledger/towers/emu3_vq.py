"""Emu3's VQ-VAE (Emu3VQVAE under model.vqmodel, read from vq_config): the image tokenizer and de-tokenizer beside the
decoder, an encoder and a decoder of 2-D resnet blocks around a codebook, with temporal 3-D convolutions at their ends
(transformers 5.24.0 models/emu3/modeling_emu3.py lines 280-1050).  Counted as a tower (the "vision" component),
registered after the text model (the family's model_order puts it there).  Unlike Janus's (janus_vq.py):

- a resnet block registers norm1 and norm2 before conv1 and conv2 (1×1 nin_shortcut where in != out); in the
  decoder each norm is a SpatialNorm: a GroupNorm (norm_layer) and two biased 1×1 convs (conv_y, conv_b) from the
  codebook's embed_dim to its channels;
- an attention block is four biased Linears over vq_config.hidden_size (k_proj, v_proj, q_proj, out_proj, in that
  order), whatever the channels it sees; its norm sits beside it (attn_norms, attn_norm);
- the encoder: conv_in, down_block.down.{i} (num_res_blocks blocks, attention blocks and their GroupNorms at the
  levels attn_resolutions lists, a strided 3×3 downsample but at the last), middle_block (block_1, attn_1, attn_norm,
  block_2), norm_out, conv_out to latent_channels (twice with double_latent), then log2(temporal_downsample_factor)
  time_conv Conv3d (4, 3, 3) and num_res_blocks time_res_stack blocks (BatchNorm3d, Conv3d (3, 3, 3), twice);
- the decoder: time_res_stack and time_conv (Conv3d (3, 3, 3)) over latent_channels first, conv_in, middle_block,
  up_block.up.{level} (num_res_blocks + 1 blocks from the top level down, registered by level), norm_out
  (SpatialNorm), conv_out;
- quantize.embedding (codebook_size × embed_dim, an nn.Embedding), quant_conv and post_quant_conv (Conv3d (3, 1, 1)).
Every conv biased; every GroupNorm 32 groups, affine.  Buffers: each BatchNorm3d's running_mean and running_var
(channels, the model's dtype) and num_batches_tracked (int64), all persistent."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_REPEAT
from ._kind import TowerKind
from .janus_vq import KEY, encoder_sizes, grouped

_new = tuple.__new__

VQ_DEFAULTS = {"model_type": "emu3_vqgan", "codebook_size": 32768, "embed_dim": 4, "latent_channels": 4,
               "double_latent": False, "in_channels": 3, "out_channels": 3, "temporal_downsample_factor": 4,
               "base_channels": 256, "channel_multiplier": [1, 2, 2, 4], "num_res_blocks": 2, "attn_resolutions": [3],
               "hidden_size": 1024, "num_attention_heads": 1}
"""transformers 5.24.0 models/emu3/configuration_emu3.py (Emu3VQVAEConfig)."""


def _conv(out: list, name: str, shape: tuple[int, ...]) -> None:
    out += [(name + ".weight", shape), (name + ".bias", (shape[0],))]


def _norm(out: list, name: str, channels: int) -> None:
    out += [(name + ".weight", (channels,)), (name + ".bias", (channels,))]


class Emu3VQTower(NamedTuple):
    """Emu3VQVAE's sizes (vq_config, HF names) under its module path."""
    prefix: str  # "model.vqmodel."
    codebook_size: int
    embed_dim: int  # the SpatialNorms' quant channels too
    latent_channels: int
    encoder_out: int  # latent_channels, twice with double_latent
    in_channels: int
    out_channels: int
    base_channels: int
    channel_multiplier: tuple[int, ...]
    num_res_blocks: int
    attn_resolutions: frozenset[int]
    hidden_size: int  # the attention blocks' width
    temporal_blocks: int  # int(log2(temporal_downsample_factor))

    def _spatial(self, out: list, name: str, channels: int) -> None:
        _norm(out, name + ".norm_layer", channels)
        _conv(out, name + ".conv_y", (channels, self.embed_dim, 1, 1))
        _conv(out, name + ".conv_b", (channels, self.embed_dim, 1, 1))

    def _resnet(self, out: list, name: str, in_c: int, out_c: int, spatial: bool) -> None:
        for norm, channels in (("norm1", in_c), ("norm2", out_c)):
            self._spatial(out, f"{name}.{norm}", channels) if spatial else _norm(out, f"{name}.{norm}", channels)
        _conv(out, name + ".conv1", (out_c, in_c, 3, 3))
        _conv(out, name + ".conv2", (out_c, out_c, 3, 3))
        if in_c != out_c:
            _conv(out, name + ".nin_shortcut", (out_c, in_c, 1, 1))

    def _attention(self, out: list, name: str) -> None:
        for linear in ("k_proj", "v_proj", "q_proj", "out_proj"):
            _conv(out, f"{name}.{linear}", (self.hidden_size, self.hidden_size))

    def _middle(self, out: list, name: str, channels: int, spatial: bool) -> None:
        self._resnet(out, name + ".block_1", channels, channels, spatial)
        self._attention(out, name + ".attn_1")
        self._spatial(out, name + ".attn_norm", channels) if spatial else _norm(out, name + ".attn_norm", channels)
        self._resnet(out, name + ".block_2", channels, channels, spatial)

    def _temporal(self, out: list, name: str, channels: int) -> None:
        for i in range(self.num_res_blocks):  # Emu3VQVAETemporalResnetBlock: in == out, no nin_shortcut
            _norm(out, f"{name}.time_res_stack.{i}.norm1", channels)
            _conv(out, f"{name}.time_res_stack.{i}.conv1.conv", (channels, channels, 3, 3, 3))
            _norm(out, f"{name}.time_res_stack.{i}.norm2", channels)
            _conv(out, f"{name}.time_res_stack.{i}.conv2.conv", (channels, channels, 3, 3, 3))

    def named(self) -> list[tuple[str, tuple[int, ...]]]:
        base, mult, blocks = self.base_channels, self.channel_multiplier, self.num_res_blocks
        top, out = base * mult[-1], []
        _conv(out, "encoder.conv_in", (base, self.in_channels, 3, 3))
        for level in range(len(mult)):
            block_in, block_out = base * (1, *mult)[level], base * mult[level]
            for i in range(blocks):
                self._resnet(out, f"encoder.down_block.down.{level}.block.{i}", block_in, block_out, False)
                block_in = block_out
            if level in self.attn_resolutions:
                for i in range(blocks):
                    self._attention(out, f"encoder.down_block.down.{level}.attn.{i}")
                for i in range(blocks):
                    _norm(out, f"encoder.down_block.down.{level}.attn_norms.{i}", block_in)
            if level != len(mult) - 1:
                _conv(out, f"encoder.down_block.down.{level}.downsample.conv", (block_in, block_in, 3, 3))
        self._middle(out, "encoder.middle_block", top, False)
        _norm(out, "encoder.norm_out", top)
        _conv(out, "encoder.conv_out", (self.encoder_out, top, 3, 3))
        for i in range(self.temporal_blocks):
            _conv(out, f"encoder.time_conv.{i}.conv.conv", (self.encoder_out, self.encoder_out, 4, 3, 3))
        self._temporal(out, "encoder", self.encoder_out)

        latent = self.latent_channels
        self._temporal(out, "decoder", latent)
        for i in range(self.temporal_blocks):
            _conv(out, f"decoder.time_conv.{i}.conv.conv", (latent, latent, 3, 3, 3))
        _conv(out, "decoder.conv_in", (top, latent, 3, 3))
        self._middle(out, "decoder.middle_block", top, True)
        levels, block_in = {}, top  # Emu3VQVAEUpBlock builds from the top level down and inserts each at 0
        for level in reversed(range(len(mult))):
            named, block_out = [], base * mult[level]
            for i in range(blocks + 1):
                self._resnet(named, f"decoder.up_block.up.{level}.block.{i}", block_in, block_out, True)
                block_in = block_out
            if level in self.attn_resolutions:
                for i in range(blocks + 1):
                    self._attention(named, f"decoder.up_block.up.{level}.attn.{i}")
                for i in range(blocks + 1):
                    self._spatial(named, f"decoder.up_block.up.{level}.attn_norms.{i}", block_in)
            if level != 0:
                _conv(named, f"decoder.up_block.up.{level}.upsample.conv", (block_in, block_in, 3, 3))
            levels[level] = named
        for level in range(len(mult)):
            out += levels[level]
        self._spatial(out, "decoder.norm_out", base * mult[0])
        _conv(out, "decoder.conv_out", (self.out_channels, base * mult[0], 3, 3))

        out.append(("quantize.embedding.weight", (self.codebook_size, self.embed_dim)))
        _conv(out, "quant_conv.conv", (self.embed_dim, latent, 3, 1, 1))
        _conv(out, "post_quant_conv.conv", (latent, self.embed_dim, 3, 1, 1))
        return out

    def tensors(self) -> list[Tensor]:
        return [_new(Tensor, (self.prefix + name, shape, "vision", None, False, 0)) for name, shape in self.named()]

    def buffers(self) -> list[Buffer]:
        out = []
        for stack, channels in (("encoder", self.encoder_out), ("decoder", self.latent_channels)):
            for i in range(self.num_res_blocks):
                for norm in ("norm1", "norm2"):
                    name = f"{self.prefix}{stack}.time_res_stack.{i}.{norm}."
                    out += [Buffer(name + "running_mean", (channels,)), Buffer(name + "running_var", (channels,)),
                            Buffer(name + "num_batches_tracked", (), "int64")]
        return out

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "quantize.embedding.weight"]


def make(prefix: str, vq: Mapping[str, Any], where: str | None) -> Emu3VQTower:
    """The VQ-VAE of ``vq`` (vq_config over Emu3VQVAEConfig's defaults), its refusals said under vq_config."""
    try:
        return _made(prefix, vq)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None


def _made(prefix: str, vq: Mapping[str, Any]) -> Emu3VQTower:
    sizes, blocks, mult, double = encoder_sizes(vq, ("codebook_size", "embed_dim", "latent_channels", "in_channels",
                                                     "out_channels", "base_channels", "temporal_downsample_factor",
                                                     "hidden_size", "num_attention_heads"))
    # the channels a GroupNorm sees: every level's (the decoder's blocks, the middle blocks), base itself where the
    # encoder's first level has blocks
    grouped(sizes["base_channels"], (*mult, *((1,) if blocks else ())))
    heads, width = sizes["num_attention_heads"], sizes["hidden_size"]
    if width % heads:  # Emu3VQVAEAttentionBlock's ValueError (every middle block holds one)
        raise ArchitectureError(f"{KEY}.num_attention_heads", f"{heads} heads do not divide hidden_size={width}")
    resolutions = vq.get("attn_resolutions")
    if not isinstance(resolutions, (list, tuple)) or not all(type(r) is int for r in resolutions):
        raise ArchitectureError(f"{KEY}.attn_resolutions", f"must be a list of level indices, got "
                                f"{str(resolutions)[:80]}")
    temporal = int(math.log2(sizes["temporal_downsample_factor"]))  # Emu3VQVAEEncoder / Decoder
    if len(mult) * (blocks + 1) + temporal > MAX_REPEAT:  # the blocks are enumerated (docs/limits.md)
        raise ArchitectureError(f"{KEY}.num_res_blocks", f"{len(mult)} resolutions of {blocks} blocks are beyond the "
                                f"bound of {MAX_REPEAT:,} blocks (docs/limits.md)")
    latent = sizes["latent_channels"]
    return Emu3VQTower(prefix, sizes["codebook_size"], sizes["embed_dim"], latent, 2 * latent if double else latent,
                       sizes["in_channels"], sizes["out_channels"], sizes["base_channels"], mult, blocks,
                       frozenset(resolutions), width, temporal)


TOWERS = {"emu3_vqgan": TowerKind(VQ_DEFAULTS, make)}
