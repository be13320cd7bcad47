"""Janus's VQ-VAE (JanusVQVAE under model.vqmodel, read from vq_config): the image tokenizer and de-tokenizer of its
image generation, a convolutional encoder and decoder around a codebook (transformers 5.24.0
models/janus/modeling_janus.py: JanusVQVAEEncoder, JanusVQVAEVectorQuantizer, JanusVQVAEDecoder and their blocks).
Counted as a tower (the "vision" component), registered after the vision model and its aligner (the family's
model_order puts it there).

- a resnet block (in -> out channels): norm1 (GroupNorm over in), conv1 (3×3), norm2 (over out), conv2 (3×3), and a
  1×1 nin_shortcut where in != out; an attention block: a GroupNorm and four 1×1 convs (q, k, v, proj_out); every
  conv biased, every GroupNorm affine, 32 groups (so every channel count a norm sees is a multiple of 32);
- the encoder: conv_in (in_channels -> base_channels), per resolution i num_res_blocks blocks from base_channels ×
  (1, *channel_multiplier)[i] to base_channels × channel_multiplier[i] (attention blocks after them at the last
  resolution, a strided 3×3 downsample conv elsewhere), a mid block (resnet, attention, resnet), norm_out, conv_out
  to latent_channels (twice that with double_latent);
- quantize.embedding (num_embeddings × embed_dim, an nn.Embedding), quant_conv and post_quant_conv (1×1);
- the decoder: conv_in from latent_channels, the mid block, the resolutions in reverse (up.0 the last), each
  num_res_blocks + 1 blocks (attention at the last resolution, a 3×3 upsample conv but at the first), norm_out,
  conv_out to out_channels."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER, MAX_REPEAT, big
from ._kind import TowerKind, whole_number

_new = tuple.__new__
KEY = "vq_config"
GROUPS = 32  # JanusVQVAEResnetBlock's and JanusVQVAEAttnBlock's GroupNorm(num_groups=32)

VQ_DEFAULTS = {"model_type": "janus_vqgan", "embed_dim": 8, "num_embeddings": 16384, "double_latent": False,
               "latent_channels": 256, "in_channels": 3, "base_channels": 128, "channel_multiplier": [1, 1, 2, 2, 4],
               "num_res_blocks": 2, "out_channels": 3, "projection_dim": 2048, "num_hidden_layers": 2,
               "image_token_embed_dim": 2048}
"""transformers 5.24.0 models/janus/configuration_janus.py (JanusVQVAEConfig)."""


class VQTower(NamedTuple):
    """JanusVQVAE's sizes (vq_config, HF names) under its module path."""
    prefix: str  # "model.vqmodel."
    embed_dim: int
    num_embeddings: int
    latent_channels: int  # the encoder's conv_out gives twice as many with double_latent
    encoder_out: int
    in_channels: int
    base_channels: int
    channel_multiplier: tuple[int, ...]
    num_res_blocks: int
    out_channels: int

    def tensors(self) -> list[Tensor]:
        return [_new(Tensor, (self.prefix + name, shape, "vision", None, False, 0)) for name, shape in self.named()]

    def named(self) -> list[tuple[str, tuple[int, ...]]]:
        base, mult, blocks = self.base_channels, self.channel_multiplier, self.num_res_blocks
        last = len(mult) - 1
        out: list[tuple[str, tuple[int, ...]]] = []
        encoder(out, self.in_channels, base, mult, blocks, tuple(level == last for level in range(len(mult))), True,
                self.encoder_out)
        out.append(("quantize.embedding.weight", (self.num_embeddings, self.embed_dim)))
        _conv(out, "quant_conv", self.embed_dim, self.latent_channels, 1)
        _conv(out, "post_quant_conv", self.latent_channels, self.embed_dim, 1)
        block_in = base * mult[last]
        _conv(out, "decoder.conv_in", block_in, self.latent_channels, 3)
        _mid(out, "decoder.mid", block_in)
        for up, level in enumerate(reversed(range(len(mult)))):
            block_out = base * mult[level]
            for i in range(blocks + 1):
                _resnet(out, f"decoder.up.{up}.block.{i}", block_in, block_out)
                block_in = block_out
            if level == last:
                for i in range(blocks + 1):
                    _attention(out, f"decoder.up.{up}.attn.{i}", block_in)
            if level != 0:
                _conv(out, f"decoder.up.{up}.upsample.conv", block_in, block_in, 3)
        _norm(out, "decoder.norm_out", block_in)
        _conv(out, "decoder.conv_out", self.out_channels, block_in, 3)
        return out

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        """Its codebook, and the model's generation_embeddings beside it (nn.Embeddings of the same codebook's
        rows: the projector's tensors declare none, as Ovis2's tower answers for its visual table)."""
        return [self.prefix + "quantize.embedding.weight",
                self.prefix.removesuffix("vqmodel.") + "generation_embeddings.weight"]


def encoder(out: list, in_channels: int, base: int, mult: tuple[int, ...], blocks: int, attended: tuple[bool, ...],
            mid_attention: bool, encoder_out: int) -> None:
    """The encoder (Janus's and Chameleon's): conv_in, per resolution its resnet blocks, attention blocks where
    ``attended`` (a ModuleList registered after the blocks) and a downsample conv but at the last; the mid block (its
    attention where ``mid_attention``), norm_out and conv_out."""
    _conv(out, "encoder.conv_in", base, in_channels, 3)
    block_in = base
    for level in range(len(mult)):
        block_in, block_out = base * (1, *mult)[level], base * mult[level]
        for i in range(blocks):
            _resnet(out, f"encoder.down.{level}.block.{i}", block_in, block_out)
            block_in = block_out
        if attended[level]:
            for i in range(blocks):
                _attention(out, f"encoder.down.{level}.attn.{i}", block_in)
        if level != len(mult) - 1:
            _conv(out, f"encoder.down.{level}.downsample.conv", block_in, block_in, 3)
    _resnet(out, "encoder.mid.block_1", block_in, block_in)
    if mid_attention:
        _attention(out, "encoder.mid.attn_1", block_in)
    _resnet(out, "encoder.mid.block_2", block_in, block_in)
    _norm(out, "encoder.norm_out", block_in)
    _conv(out, "encoder.conv_out", encoder_out, block_in, 3)


def _conv(out: list, name: str, out_c: int, in_c: int, kernel: int) -> None:
    out += [(name + ".weight", (out_c, in_c, kernel, kernel)), (name + ".bias", (out_c,))]


def _norm(out: list, name: str, channels: int) -> None:
    out += [(name + ".weight", (channels,)), (name + ".bias", (channels,))]


def _resnet(out: list, name: str, in_c: int, out_c: int) -> None:
    _norm(out, name + ".norm1", in_c)
    _conv(out, name + ".conv1", out_c, in_c, 3)
    _norm(out, name + ".norm2", out_c)
    _conv(out, name + ".conv2", out_c, out_c, 3)
    if in_c != out_c:
        _conv(out, name + ".nin_shortcut", out_c, in_c, 1)


def _attention(out: list, name: str, channels: int) -> None:
    _norm(out, name + ".norm", channels)
    for conv in ("q", "k", "v", "proj_out"):
        _conv(out, f"{name}.{conv}", channels, channels, 1)


def _mid(out: list, name: str, channels: int) -> None:
    _resnet(out, name + ".block_1", channels, channels)
    _attention(out, name + ".attn_1", channels)
    _resnet(out, name + ".block_2", channels, channels)


def make(prefix: str, vq: Mapping[str, Any], where: str | None) -> VQTower:
    """The VQ-VAE of ``vq`` (vq_config over JanusVQVAEConfig's defaults), its refusals said under vq_config."""
    try:
        return _made(prefix, vq)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None


def encoder_sizes(vq: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[dict[str, int], int, tuple[int, ...], bool]:
    """The sizes ``keys``, num_res_blocks, channel_multiplier and double_latent of a VQ-VAE encoder's ``vq`` (Janus's,
    Chameleon's), each refused in one line under vq_config."""
    sizes = {key: whole_number(vq, key, KEY) for key in keys}
    blocks = whole_number(vq, "num_res_blocks", KEY, 0)
    mult = vq.get("channel_multiplier")
    if not isinstance(mult, (list, tuple)) or not mult or not all(type(m) is int and m >= 1 for m in mult):
        raise ArchitectureError(f"{KEY}.channel_multiplier", f"must be a non-empty list of whole numbers from 1, got "
                                f"{str(mult)[:80]}")
    if len(mult) * (blocks + 1) > MAX_REPEAT:  # the blocks are enumerated (docs/limits.md)
        raise ArchitectureError(f"{KEY}.num_res_blocks", f"{len(mult)} resolutions of {blocks} blocks are beyond the "
                                f"bound of {MAX_REPEAT:,} blocks (docs/limits.md)")
    double = vq.get("double_latent")
    if not isinstance(double, bool):
        raise ArchitectureError(f"{KEY}.double_latent", f"must be true or false, got {double!r}")
    return sizes, blocks, tuple(mult), double


def grouped(base: int, multipliers: tuple[int, ...]) -> None:
    """Refused in one line unless every channel count a GroupNorm sees (``base`` × each multiplier) is within the
    bound and a multiple of its 32 groups (torch.nn.GroupNorm refuses a group count that does not divide it)."""
    for channels in sorted({base * m for m in multipliers}):
        if channels > MAX_INTEGER:
            raise ArchitectureError(f"{KEY}.channel_multiplier", f"gives {big(channels)} channels, beyond the bound "
                                    f"of {MAX_INTEGER:,} (docs/limits.md)")
        if channels % GROUPS:
            raise ArchitectureError(f"{KEY}.base_channels", f"{base} × a channel_multiplier gives {channels} channels, "
                                    f"which the blocks' {GROUPS} GroupNorm groups do not divide")


def _made(prefix: str, vq: Mapping[str, Any]) -> VQTower:
    sizes, blocks, mult, double = encoder_sizes(vq, ("embed_dim", "num_embeddings", "latent_channels", "in_channels",
                                                     "base_channels", "out_channels"))
    # the channels a GroupNorm sees: every resolution's in the decoder; the encoder's blocks' inputs too (base ×
    # 1 first), or with no blocks only what its mid block takes, the last resolution's input
    grouped(sizes["base_channels"], (*mult, *((1, *mult)[:len(mult)] if blocks else (1, *mult)[len(mult) - 1:])))
    latent = sizes["latent_channels"]
    return VQTower(prefix, sizes["embed_dim"], sizes["num_embeddings"], latent, 2 * latent if double else latent,
                   sizes["in_channels"], sizes["base_channels"], mult, blocks, sizes["out_channels"])


TOWERS = {"janus_vqgan": TowerKind(VQ_DEFAULTS, make)}
