"""Chameleon's VQ-VAE image tokenizer (ChameleonVQVAE under model.vqmodel, read from vq_config): the convolutional
encoder Janus's VQ-VAE took its own from (towers/janus_vq.py holds the blocks), its codebook and the two 1×1 convs
around it, no decoder (transformers 5.24.0 models/chameleon/modeling_chameleon.py: ChameleonVQVAEEncoder,
ChameleonVQVAEVectorQuantizer, ChameleonVQVAE).  Counted as a tower (the "vision" component), registered after the
decoder's layers and norm (the family's model_order puts it there).

The encoder differs from Janus's in its attention blocks: after each resnet block of a resolution whose size (from
``resolution``, halved after every resolution but the last) is listed in attn_resolutions, and in the mid block,
only with attn_type "vanilla"; and quant_conv reads latent_channels whatever double_latent gives conv_out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .janus_vq import KEY, _conv, encoder, encoder_sizes, grouped

_new = tuple.__new__

VQ_DEFAULTS = {"embed_dim": 256, "num_embeddings": 8192, "double_latent": False, "latent_channels": 256,
               "resolution": 512, "in_channels": 3, "base_channels": 128, "channel_multiplier": [1, 1, 2, 2, 4],
               "num_res_blocks": 2, "attn_resolutions": None, "attn_type": "vanilla"}
"""transformers 5.24.0 models/chameleon/configuration_chameleon.py (ChameleonVQVAEConfig)."""


class ChameleonVQ(NamedTuple):
    prefix: str  # "model.vqmodel."
    embed_dim: int
    num_embeddings: int
    latent_channels: int
    encoder_out: int  # conv_out's channels: twice latent_channels with double_latent
    in_channels: int
    base_channels: int
    channel_multiplier: tuple[int, ...]
    num_res_blocks: int
    attended: tuple[bool, ...]  # per resolution: attention blocks after its resnet blocks
    vanilla: bool  # attn_type "vanilla": the mid block's attention too

    def tensors(self) -> list[Tensor]:
        return [_new(Tensor, (self.prefix + name, shape, "vision", None, False, 0)) for name, shape in self.named()]

    def named(self) -> list[tuple[str, tuple[int, ...]]]:
        out: list[tuple[str, tuple[int, ...]]] = []
        encoder(out, self.in_channels, self.base_channels, self.channel_multiplier, self.num_res_blocks, self.attended,
                self.vanilla, self.encoder_out)
        out.append(("quantize.embedding.weight", (self.num_embeddings, self.embed_dim)))
        _conv(out, "quant_conv", self.embed_dim, self.latent_channels, 1)
        _conv(out, "post_quant_conv", self.latent_channels, self.embed_dim, 1)
        return out

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "quantize.embedding.weight"]  # an nn.Embedding


def make(prefix: str, vq: Mapping[str, Any], where: str | None) -> ChameleonVQ:
    """The VQ-VAE of ``vq`` (vq_config over ChameleonVQVAEConfig's defaults), its refusals said under vq_config."""
    try:
        return _made(prefix, vq)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None


def _made(prefix: str, vq: Mapping[str, Any]) -> ChameleonVQ:
    sizes, blocks, mult, double = encoder_sizes(vq, ("embed_dim", "num_embeddings", "latent_channels", "in_channels",
                                                     "base_channels", "resolution"))
    listed = vq.get("attn_resolutions")
    if listed is not None and not (isinstance(listed, list) and all(type(r) is int for r in listed)):
        raise ArchitectureError(f"{KEY}.attn_resolutions", f"must be a list of whole numbers or null, got "
                                f"{str(listed)[:80]}")
    kind = vq.get("attn_type")
    if not isinstance(kind, str):
        raise ArchitectureError(f"{KEY}.attn_type", f"must be a string, got {kind!r}")
    # every GroupNorm's channels: the blocks' in and out, or with no blocks only the mid block's, the last input's
    grouped(sizes["base_channels"], (1, *mult) if blocks else (1, *mult)[len(mult) - 1:len(mult)])
    vanilla, attended, size = kind == "vanilla", [], sizes["resolution"]  # ChameleonVQVAEEncoder's curr_res
    for level in range(len(mult)):
        attended.append(vanilla and listed is not None and size in listed and blocks > 0)
        if level != len(mult) - 1:  # halved after each resolution but the last
            size //= 2
    latent = sizes["latent_channels"]
    return ChameleonVQ(prefix, sizes["embed_dim"], sizes["num_embeddings"], latent, 2 * latent if double else latent,
                       sizes["in_channels"], sizes["base_channels"], mult, blocks, tuple(attended), vanilla)


TOWERS = {"chameleon_vqgan": TowerKind(VQ_DEFAULTS, make)}
