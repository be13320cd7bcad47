"""MiniMax-M3's sparse attention layers (transformers 5.24.0 modeling_minimax_m3_vl.py MiniMaxM3VLAttention with
MiniMaxM3VLIndexer): on the layers layer_types calls "minimax_m3_sparse", the layer's self-attention holds a block
indexer after its own projections and q/k norms: q_proj to index_n_heads heads of index_head_dim, k_proj to one key of
index_head_dim, an RMSNorm over index_head_dim on each (all unbiased).  It picks key blocks: its scores cost
2 × index_n_heads × index_head_dim FLOPs a cached key, and it caches the token's indexer key beside the attention's
keys and values (the sparse cache layer's).  Its projections, q/k norms, cache and FLOPs are otherwise the attention
part's (parts/attention.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION

_new = tuple.__new__


@wrapping("attention")
class BlockIndexedAttention(NamedTuple):
    attention: Attention  # the layer's self-attention, built from the design's attention keys
    index_heads: int  # index_n_heads
    index_head_dim: int  # index_head_dim

    def tensors(self, c: Collector) -> None:
        self.attention.tensors(c)
        indexer, d, width = c.naming.block_indexer + ".", self.attention.hidden_size, self.index_head_dim
        c.linear(indexer + "q_proj", self.index_heads * width, d, "attention")  # (heads × index_head_dim, hidden)
        c.linear(indexer + "k_proj", width, d, "attention")  # one key head
        c.add(indexer + "q_norm.weight", (width,), "norm")
        c.add(indexer + "k_norm.weight", (width,), "norm")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return self.attention.kv_values_per_token(mla_layout) + self.index_head_dim  # and the indexer's key

    def attention_flops(self, keys: int) -> int:
        # and the indexer's scores: each of its query heads against every cached indexer key
        return self.attention.attention_flops(keys) + 2 * self.index_heads * self.index_head_dim * keys


class Keys:
    """The flat keys: the sparse layers and the indexer's sizes (DeepSeek-V3.2's index_n_heads and index_head_dim
    are the latent attention's own indexer: these are apart)."""
    block_indexer_layers: tuple[int, ...] = ()
    block_index_heads: int | None = None
    block_index_head_dim: int | None = None


class Names:
    block_indexer: str = "self_attn.indexer"


def _build(arch: Any) -> BlockIndexedAttention:
    return _new(BlockIndexedAttention, (LOCAL_ATTENTION.build(arch).attention, arch.block_index_heads,
                                        arch.block_index_head_dim))


def _check(arch: Any, where: str | None) -> None:
    for key in ("block_index_heads", "block_index_head_dim"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with block_indexer_layers (the block indexer's size)", where)


MIXER = MixerKind("block_indexer_layers", Keys, Names, _build, lambda arch: bool(arch.block_indexer_layers), _check,
                  positive_or_null=("block_index_heads", "block_index_head_dim"))
