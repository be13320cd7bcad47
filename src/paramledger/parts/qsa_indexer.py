"""Qwen4-Exp's QSA token indexer (transformers 5.24.0 modeling_qwen4_exp.py Qwen4ExpTextQSAIndexer, lines 688-830): on
each "indexed_attention" layer, beside plain attention, one fused projection to indexer_n_heads query heads and one
key head of indexer_head_dim, a scale-only RMSNorm on each; it caches the raw key of every token (DynamicIndexedLayer's
indexer_keys) and averages blocks of indexer_compress_ratio of them at each step to pick indexer_budget tokens.

Not yet placed in designs (parts/latent.py's Indexer is DeepSeek-V3.2's, on MLA; this one sits on parts/attention.py's
Attention: docs/notes/coverage-set-c.md); tests/test_part_qsa_indexer.py checks it against the module alone."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class QsaIndexer(NamedTuple):
    hidden_size: int
    num_heads: int  # indexer_n_heads
    head_dim: int  # indexer_head_dim
    num_kv_heads: int = 1  # indexer_kv_heads: Qwen4ExpTextConfig requires 1
    path: str = "self_attn.indexer"

    def tensors(self, c: Collector) -> None:
        path, width = self.path + ".", self.head_dim
        c.linear(path + "index_qk_proj", (self.num_heads + self.num_kv_heads) * width, self.hidden_size, "attention")
        c.add(path + "q_layernorm.weight", (width,), "norm")  # Qwen4ExpTextRMSNorm(indexer_head_dim)
        c.add(path + "k_layernorm.weight", (width,), "norm")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        """The token's raw indexer key (cache.update_indexer, line 733), beside the attention's own keys and values."""
        return self.num_kv_heads * self.head_dim
