"""Self-attention with Qwen4-Exp's QSA token indexer (transformers 5.24.0 modeling_qwen4_exp.py Qwen4ExpTextAttention,
lines 831-858: Qwen3-Next's attention, its output gate in q_proj and q/k norms of head_dim, then
``self.indexer = Qwen4ExpTextQSAIndexer(config, layer_idx)``).  Its projections and norms are the attention part's
(parts/attention.py), the indexer's tensors and cached key parts/qsa_indexer.py's, registered after them."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION
from .qsa_indexer import QsaIndexer

_new = tuple.__new__


@wrapping("attention")
class QsaAttention(NamedTuple):
    attention: Attention  # the layer's self-attention, built from the design's attention keys
    indexer: QsaIndexer  # indexer_n_heads, indexer_head_dim, indexer_kv_heads
    compress_ratio: int  # indexer_compress_ratio: the keys averaged into one block the indexer scores

    def tensors(self, c: Collector) -> None:
        self.attention.tensors(c)
        self.indexer.tensors(c)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        # the attention's keys and values and the indexer's raw key (DynamicIndexedLayer.indexer_keys)
        return self.attention.kv_values_per_token(mla_layout) + self.indexer.kv_values_per_token(mla_layout)

    def attention_flops(self, keys: int) -> int:
        """The attention's over every key (transformers' eager and SDPA paths mask the tokens the indexer leaves
        out), and the indexer's query heads against each whole block of compressed keys (Qwen4ExpTextQSAIndexer:
        keys // indexer_compress_ratio blocks, a dot product of indexer_head_dim per head and block)."""
        indexer = self.indexer
        blocks = keys // self.compress_ratio
        return self.attention.attention_flops(keys) + 2 * indexer.num_heads * indexer.head_dim * blocks


class Keys:
    """The flat keys: the "indexed_attention" layers, and the indexer's sizes (Qwen4ExpTextConfig's names);
    indexer_compress_ratio sizes its blocks (FLOPs only), indexer_budget chooses tokens (no tensor, no FLOP)."""
    qsa_attention_layers: tuple[int, ...] = ()
    indexer_n_heads: int | None = None
    indexer_head_dim: int | None = None
    indexer_kv_heads: int | None = None
    indexer_compress_ratio: int | None = None


class Names:
    pass  # the indexer's path is its part's (self_attn.indexer)


def _build(arch: Any) -> QsaAttention:
    attention = LOCAL_ATTENTION.build(arch).attention  # (its rotary is the model's here)
    indexer = _new(QsaIndexer, (arch.hidden_size, arch.indexer_n_heads, arch.indexer_head_dim, arch.indexer_kv_heads,
                                "self_attn.indexer"))  # Qwen4ExpTextAttention.indexer
    return _new(QsaAttention, (attention, indexer, arch.indexer_compress_ratio or 1))


def _check(arch: Any, where: str | None) -> None:
    for key in ("indexer_n_heads", "indexer_head_dim", "indexer_kv_heads", "indexer_compress_ratio"):
        if getattr(arch, key) is None:  # Qwen4ExpTextQSAIndexer sizes its projection by all three
            raise ArchitectureError(key, "is required with qsa_attention_layers (the indexer's projection and blocks)",
                                    where)


MIXER = MixerKind("qsa_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.qsa_attention_layers) or arch.indexer_n_heads is not None
                  or arch.indexer_head_dim is not None or arch.indexer_kv_heads is not None
                  or arch.indexer_compress_ratio is not None, _check,
                  positive_or_null=("indexer_n_heads", "indexer_head_dim", "indexer_kv_heads",
                                    "indexer_compress_ratio"))
