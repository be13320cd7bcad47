"""Qwen4-Exp's residual streams (transformers 5.24.0 modeling_qwen4_exp.py): the gated hyper-connection in front of
each sublayer (Qwen4ExpTextGatedResidual, lines 1017-1045) and the hashed n-gram per-layer embedding some linear
layers add to the streams (Qwen4ExpTextNGramEmbedding and Qwen4ExpTextPLELayer, lines 1094-1273).

Placed by parts/hyper_residuals.py (the two per layer, its keys the PLE's too) and design/flat.py's PLE column (each
PLE layer its place among ple_layers); tests/test_part_hyper_connection.py checks both against the transformers
modules built alone."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from typing import Any

from .._exceptions import ArchitectureError
from ._collector import BufferCollector, Collector
from ._protocol import part


@part
class GatedResidual(NamedTuple):
    """hc_norm over the hc_count streams side by side (grouped by hidden_size: one scale of hc × hidden), a rank-
    hc_lowrank mixer down and up, and block_inject_weight (one weight per stream) where the block writes back
    (every decoder sublayer; not the model's final mixer)."""
    hidden_size: int
    streams: int  # hc_count
    rank: int  # hc_lowrank
    inject: bool = True  # block_inject_weight: False for the model's hyper_connection_mixer
    path: str = "attn_hyper_connection"  # or "mlp_hyper_connection", "model.hyper_connection_mixer"
    component: str = "ffn"  # the sublayer it feeds ("attention" before the attention; the FFN's, the final mixer's)

    def tensors(self, c: Collector) -> None:
        path, width, component = self.path + ".", self.streams * self.hidden_size, self.component
        c.add(path + "hc_norm.weight", (width,), "norm")  # Qwen4ExpTextRMSNorm(hc × hidden, group_size=hidden)
        c.linear(path + "input_mix_weight_down", self.rank, width, component)
        c.linear(path + "input_mix_weight_up", width, self.rank, component)
        if self.inject:
            c.linear(path + "block_inject_weight", self.streams, width, component)


def is_prime(value: int) -> bool:
    """_is_prime of modeling_qwen4_exp.py, line 1073."""
    if value < 2:
        return False
    if value % 2 == 0:
        return value == 2
    return all(value % divisor for divisor in range(3, math.isqrt(value) + 1, 2))


@lru_cache(maxsize=64)
def primes_after(start: int, count: int) -> tuple[int, ...]:
    """The first ``count`` primes above ``start``: _find_nth_prime_after(start, n) for n = 1..count (line 1085),
    found in one pass rather than one per n."""
    found, value = [], start
    while len(found) < count:
        value += 1
        if is_prime(value):
            found.append(value)
    return tuple(found)


@part
class NGramEmbedding(NamedTuple):
    """One PLE layer: a table of hashed n-gram embeddings (each of the (ngram_size - 1) × heads_per_ngram heads its
    own prime-sized vocabulary, the sum padded to make_ngram_vocab_size_divisible_by rows, ple_embed_dim / heads
    wide), key_proj to every stream and value_proj to one, three grouped norms over the streams and a dilated
    depthwise conv1d over them; its hashing tables are int64 buffers."""
    hidden_size: int
    streams: int  # hc_count
    embed_dim: int  # ple_embed_dim (None: hidden_size)
    ngram_size: int  # ngram_size
    heads_per_ngram: int  # heads_per_ngram
    vocab_base: int  # ngram_vocab_size_base
    vocab_multiple: int  # make_ngram_vocab_size_divisible_by
    conv_kernel: int  # ple_conv_kernel_size
    index: int  # the layer's place in ple_layer_ids (0 for the first PLE layer): which primes its heads take
    path: str = "ple"

    @property
    def heads(self) -> int:
        return (self.ngram_size - 1) * self.heads_per_ngram

    @property
    def rows(self) -> int:
        """The padded table: head h of PLE layer k takes the (k × heads + h + 1)-th prime above vocab_base - 1."""
        heads = self.heads
        total = sum(primes_after(self.vocab_base - 1, (self.index + 1) * heads)[self.index * heads:])
        return -(-total // self.vocab_multiple) * self.vocab_multiple

    def tensors(self, c: Collector) -> None:
        path, width, dim = self.path + ".", self.streams * self.hidden_size, self.embed_dim
        c.add(path + "ple_embedding.ngram_embedding.weight", (self.rows, dim // self.heads), "embedding")
        c.linear(path + "key_proj", width, dim, "ffn")  # matmuls on the looked-up rows, as Gemma 3n's per-layer
        c.linear(path + "value_proj", self.hidden_size, dim, "ffn")  # input projections are counted
        for norm in ("norm_key", "norm_query", "norm_conv"):
            c.add(path + norm + ".weight", (width,), "norm")
        c.add(path + "conv1d.weight", (width, 1, self.conv_kernel), "ffn")  # dilation ngram_size, no bias

    def buffers(self, c: BufferCollector) -> None:
        """The hash multipliers (one per n-gram order) and each head's vocabulary size and offset, persistent."""
        path = self.path + ".ple_embedding."
        c.buffer(path + "layer_multipliers", (self.ngram_size,), "int64")
        c.buffer(path + "ngram_heads_vocab_sizes", (self.heads,), "int64")
        c.buffer(path + "ngram_heads_offsets", (self.heads,), "int64")

    def state_values(self) -> int:
        """The conv's last (kernel - 1) × ngram_size inputs over the streams (short_conv_state_len, line 1219) and
        the last ngram_size - 1 token ids (the n-gram context state)."""
        return (self.conv_kernel - 1) * self.ngram_size * self.streams * self.hidden_size + self.ngram_size - 1


def ngram_embedding(arch: Any, index: int) -> NGramEmbedding:
    """PLE layer ``index`` (its place in ple_layers) of the design: design/flat.py's column places it."""
    return tuple.__new__(NGramEmbedding, (arch.hidden_size, arch.hc_count, arch.ple_embed_dim or arch.hidden_size,
                                          arch.ngram_size, arch.heads_per_ngram, arch.ngram_vocab_size_base,
                                          arch.make_ngram_vocab_size_divisible_by, arch.ple_conv_kernel_size, index,
                                          "ple"))


def check_ple(arch: Any, where: str | None) -> None:
    """The PLE layers' refusals (Qwen4ExpTextConfig.validate_architecture): n-gram heads that split ple_embed_dim,
    on linear layers only."""
    if not arch.ple_layers:
        return
    heads = (arch.ngram_size - 1) * arch.heads_per_ngram
    width = arch.ple_embed_dim or arch.hidden_size
    if arch.ngram_size < 2:
        raise ArchitectureError("ngram_size", f"must be at least 2 with PLE layers (got {arch.ngram_size}: no "
                                "n-gram heads)", where)
    if width % heads:
        raise ArchitectureError("ple_embed_dim", f"{width} is not a multiple of the {heads} n-gram heads "
                                "((ngram_size - 1) x heads_per_ngram)", where)
    linear = set(arch.linear_attention_layers)
    wrong = next((i for i in arch.ple_layers if i not in linear), None)
    if wrong is not None:
        raise ArchitectureError("ple_layers", f"layer {wrong} is not a linear_attention layer (transformers "
                                "5.24.0 puts PLE on linear layers only)", where)
