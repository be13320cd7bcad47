"""Multi-head latent attention (DeepSeek-V2/V3's DeepseekV3Attention): queries through an optional
low-rank latent, keys and values through one shared latent with a decoupled rotary key, and
DeepSeek-V3.2's lightning indexer as an option (DeepseekV32Indexer)."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class Indexer(NamedTuple):
    """DeepSeek Sparse Attention's lightning indexer: queries from the q LoRA latent, one shared key
    from the hidden state, a LayerNorm on the key (with its offset, whatever the block norms are) and
    one weight per indexer head."""
    num_heads: int  # index_n_heads
    head_dim: int  # index_head_dim: each query head and the one cached key

    @property
    def cached_width(self) -> int:
        """Values cached per token: the one key."""
        return self.head_dim

    def scored(self, keys: int) -> int:
        """What each query scores: every key."""
        return keys

    def tensors(self, c: Collector, hidden: int, q_lora_rank: int) -> None:
        n, heads, width = c.naming, self.num_heads, self.head_dim
        c.linear(n.indexer_q, heads * width, q_lora_rank, "attention")
        c.linear(n.indexer_k, width, hidden, "attention")
        c.add(n.indexer_k_norm + ".weight", (width,), "norm")
        c.add(n.indexer_k_norm + ".bias", (width,), "norm")
        c.linear(n.indexer_weights, heads, hidden, "attention")


@part
class PooledIndexer(NamedTuple):
    """GLM-5-Next's indexer (Glm5NextTextIndexer, modeling_glm5_next.py lines 772-807): the lightning indexer's
    tensors after two Parameters of its own, a learned offset per place in a pool of index_kpool keys and a gate
    score per key channel; it scores pools of keys, not keys."""
    num_heads: int  # index_n_heads
    head_dim: int  # index_head_dim
    kpool: int  # index_kpool: the keys of a pool

    @property
    def cached_width(self) -> int:
        """Values cached per token: the key, its gate scores (index_head_dim) and a valid flag packed together
        (Glm5NextTextIndexer.forward: cat([k, gate_scores, valid_channel]), lines 837-846)."""
        return 2 * self.head_dim + 1

    def scored(self, keys: int) -> int:
        """What each query scores: the whole pools of keys, floor(keys / index_kpool) (the tail pool is appended
        unscored: append_visible_tail), as torch's FlopCounterMode counts Glm5NextTextIndexer.forward's matmuls."""
        return keys // self.kpool

    def tensors(self, c: Collector, hidden: int, q_lora_rank: int) -> None:
        n, width = c.naming, self.head_dim
        c.add(n.indexer_kpool_ape, (self.kpool, width), "attention")  # (index_kpool, index_head_dim)
        c.add(n.indexer_kpool_gate, (width, hidden), "attention")  # (index_head_dim, hidden): a matmul
        Indexer.tensors(self, c, hidden, q_lora_rank)  # type: ignore[arg-type]  (the same first two fields)


@part
class LatentAttention(NamedTuple):
    hidden_size: int
    num_heads: int  # num_attention_heads (this layer's)
    q_lora_rank: int | None  # None: a full-rank query projection
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int
    bias: bool = False  # attention_bias: on the two down-projections (q_a, kv_a)
    output_bias: bool = False
    sinks: bool = False
    indexer: Indexer | PooledIndexer | None = None  # this layer's own lightning indexer (a "shared" layer has none)
    # index_topk: the keys each query attends to, as an indexer selects them (a "shared" layer
    # reuses an earlier layer's selection); None: every key
    topk: int | None = None
    output_gate: str = "none"  # attention_output_gate: "per_head", one sigmoid gate per head after o_proj (Bailing)

    def tensors(self, c: Collector) -> None:
        n, d, heads = c.naming, self.hidden_size, self.num_heads
        q_dim = heads * (self.qk_nope_head_dim + self.qk_rope_head_dim)
        if self.q_lora_rank is None:  # a full-rank q_proj carries no bias (modeling_deepseek_v3.py)
            c.linear(n.q, q_dim, d, "attention")
        else:
            c.linear(n.q_a, self.q_lora_rank, d, "attention", None, self.bias)
            c.norm(n.q_a_norm, self.q_lora_rank)
            c.linear(n.q_b, q_dim, self.q_lora_rank, "attention")
        c.linear(n.kv_a, self.kv_lora_rank + self.qk_rope_head_dim, d, "attention", None, self.bias)
        c.norm(n.kv_a_norm, self.kv_lora_rank)
        c.linear(n.kv_b, heads * (self.qk_nope_head_dim + self.v_head_dim), self.kv_lora_rank, "attention")
        c.linear(n.o, d, heads * self.v_head_dim, "attention", None, self.output_bias)
        if self.output_gate == "per_head":  # BailingHybridAttention's g_proj, from the block's input
            c.linear(n.attn_gate, heads, d, "attention")
        if self.sinks:
            c.add(n.sinks, (heads,), "attention")
        if self.indexer is not None:
            self.indexer.tensors(c, d, self.q_lora_rank)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        """latent: the compressed kv latent and the rotary key; decompressed: every head's key and
        value; a layer running its own indexer also caches one index_head_dim key per token."""
        index_keys = self.indexer.cached_width if self.indexer is not None else 0
        if mla_layout == "latent":
            return self.kv_lora_rank + self.qk_rope_head_dim + index_keys
        heads = self.num_heads
        return heads * (self.qk_nope_head_dim + self.qk_rope_head_dim) + heads * self.v_head_dim + index_keys

    def attention_flops(self, keys: int) -> int:
        flops = 0
        if self.indexer is not None:  # scores every key (every pool of keys): q·k per head, then the weighted sum
            flops += 2 * self.indexer.num_heads * (self.indexer.head_dim + 1) * self.indexer.scored(keys)
        # DSA: attention reads only the keys the indexer selects (the latents are all expanded)
        attended = keys if self.topk is None else min(keys, self.topk)
        qk_dim = self.qk_nope_head_dim + self.qk_rope_head_dim
        return flops + 2 * self.num_heads * (qk_dim + self.v_head_dim) * attended

    def mixer_label(self) -> tuple[str, str | None]:
        return "MLA", None

    def expansion_flops(self, keys: int) -> int:
        """Decoding from a latent cache runs the cached latents through kv_b_proj again."""
        kv_b = self.num_heads * (self.qk_nope_head_dim + self.v_head_dim) * self.kv_lora_rank
        return 2 * kv_b * (keys - 1)
