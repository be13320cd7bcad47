"""Qwen4-Exp's gated hyper-connections around both sublayers of every layer (transformers 5.24.0 modeling_qwen4_exp.py
Qwen4ExpTextDecoderLayer, lines 1274-1287: ``attn_hyper_connection`` and ``mlp_hyper_connection``, each a
Qwen4ExpTextGatedResidual over hc_count residual streams, registered after mlp), in place of the block's norms.  The
tensors are parts/hyper_connection.py's GatedResidual's; the model's own final mixer (hyper_connection_mixer, without
block_inject_weight) is Naming.hyper_mixer, after the layers (_builder.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part
from .hyper_connection import GatedResidual, check_ple

_new = tuple.__new__


@part
class HyperResiduals(NamedTuple):
    hidden_size: int
    streams: int  # hc_count
    rank: int  # hc_lowrank

    def tensors(self, c: Collector) -> None:
        n = c.naming
        for path, fed in ((n.hyper_attn, "attention"), (n.hyper_mlp, "ffn")):  # (HY-V4's hyper_gate.py: the same)
            _new(GatedResidual, (self.hidden_size, self.streams, self.rank, True, path, fed)).tensors(c)


class Keys:
    """The flat keys (Qwen4ExpTextConfig's names): the residual streams and the mixer's rank; None: no streams."""
    hc_count: int | None = None
    hc_lowrank: int | None = None
    # the per-layer n-gram embeddings (PLE, parts/hyper_connection.py's NGramEmbedding): the layers that hold one
    # (0-based; the config's ple_layer_ids count from 1), placed by design/flat.py's column, and their sizes
    ple_layers: tuple[int, ...] = ()
    ple_embed_dim: int | None = None  # None: hidden_size
    ple_conv_kernel_size: int = 4
    ngram_size: int = 3
    heads_per_ngram: int = 8
    ngram_vocab_size_base: int = 20_000_000
    make_ngram_vocab_size_divisible_by: int = 128


class Names:
    hyper_attn: str = "attn_hyper_connection"
    hyper_mlp: str = "mlp_hyper_connection"
    hyper_mixer: str | None = None  # the model's final mixer after the layers (model.hyper_connection_mixer)


def _build(arch: Any) -> HyperResiduals:
    return _new(HyperResiduals, (arch.hidden_size, arch.hc_count, arch.hc_lowrank))


def _check(arch: Any, where: str | None) -> None:
    if arch.hc_count is None or arch.hc_lowrank is None:
        key = "hc_count" if arch.hc_count is None else "hc_lowrank"
        raise ArchitectureError(key, "is required with the other (hc_count, hc_lowrank: the hyper-connections)", where)
    if arch.hc_count < 2:  # Qwen4ExpTextConfig.validate_architecture
        raise ArchitectureError("hc_count", f"must be more than 1, got {arch.hc_count}", where)
    check_ple(arch, where)


SUBLAYER = SublayerKind(Keys, Names, _build,
                        lambda arch: arch.hc_count is not None or arch.hc_lowrank is not None or bool(arch.ple_layers),
                        _check, positive=("ple_conv_kernel_size", "heads_per_ngram", "ngram_vocab_size_base",
                                          "make_ngram_vocab_size_divisible_by"),
                        positive_or_null=("hc_count", "hc_lowrank", "ple_embed_dim"))
