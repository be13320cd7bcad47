"""A transformer block shared between layers (transformers 5.24.0 ZambaAttentionDecoderLayer and
Zamba2AttentionDecoderLayer, docs/notes/hybrids-b.md): attention over input_size channels (the hidden
state beside the original embeddings: 2 × hidden_size), a gated FFN, per-use LoRA adapters (Zamba2) and
its two RMSNorms, all under Naming.shared_block; then each use's own output projection (the hybrid
layer's linear), which is never shared.

The uses of one block are layers of their own: each caches its own keys and values.  When the block is
tied (tie_shared_blocks), a later use holds none of its tensors: it emits only its own projection and
names the block's tensors as aliases of the layer that holds them (``aliases``, which the builder
collects into the inventory)."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part
from .ffn import dense


@part
class SharedBlock(NamedTuple):
    hidden_size: int
    input_size: int  # attention_hidden_size (None: 2 × hidden_size): q, k and v's input and the first norm
    num_heads: int  # num_attention_heads
    num_kv_heads: int  # num_key_value_heads
    head_dim: int  # attention_head_dim (2 × hidden_size // num_attention_heads)
    intermediate_size: int  # intermediate_size
    bias: bool  # mlp_bias (Zamba2's add_bias_linear): on the FFN's projections
    adapter_rank: int | None  # adapter_rank: an adapter per use on the FFN's gate_up; None: no adapters
    attention_adapters: bool  # use_shared_attention_adapter: adapters on q, k and v too
    uses: int  # len(shared_block_layers): every adapter list holds one slot per use of any block
    block: int  # this use's block (use k runs block k % num_mem_blocks): its real slots j are j ≡ block
    blocks: int  # num_mem_blocks
    source: int | None  # the layer holding the block's tensors when that is not this one (a tied later use)

    def tensors(self, c: Collector) -> None:
        if self.source is None:
            self.block_tensors(c)
        d = self.hidden_size
        c.linear(c.naming.shared_block_output, d, d, "attention")

    def block_tensors(self, c: Collector) -> None:
        """The block's own tensors, in registration order: q, k, v, o, the q, k and v adapter lists, the
        FFN and its adapter list, then the two norms.  A slot of another block is an nn.Identity: no tensor."""
        n, d, width, rank = c.naming, self.hidden_size, self.input_size, self.adapter_rank
        path = n.shared_block + "."
        queries, keys = self.num_heads * self.head_dim, self.num_kv_heads * self.head_dim
        c.linear(path + n.q, queries, width, "attention")
        c.linear(path + n.k, keys, width, "attention")
        c.linear(path + n.v, keys, width, "attention")
        c.linear(path + n.o, d, queries, "attention")
        slots = [j for j in range(self.uses) if j % self.blocks == self.block] if rank is not None else []
        if self.attention_adapters:
            for projection in "qkv":
                adapters = path + n.attn_adapters.format(p=projection)
                for j in slots:  # nn.Sequential(Linear(width, rank), Linear(rank, width))
                    c.linear(f"{adapters}.{j}.0", rank, width, "attention")
                    c.linear(f"{adapters}.{j}.1", width, rank, "attention")
        size = self.intermediate_size
        dense(c, d, size, True, self.bias, path + n.gate, path + n.up, path + n.down, "ffn",
              None if n.gate_up is None else path + n.gate_up)
        adapters = path + n.ffn_adapters
        for j in slots:  # onto the fused gate_up projection's 2 × intermediate_size outputs
            c.linear(f"{adapters}.{j}.0", rank, d, "ffn")
            c.linear(f"{adapters}.{j}.1", 2 * size, rank, "ffn")
        c.norm(path + n.attn_pre_norm, width)
        c.norm(path + n.ffn_pre_norm, d)

    def aliases(self, c: Collector) -> dict[str, str]:
        """A tied later use's names of the block's tensors (relative to its layer) -> their names in the
        layer that holds them; {} for a use that holds its own.  ``c``: an empty collector to list them in."""
        if self.source is None:
            return {}
        self.block_tensors(c)
        holder = c.naming.layer.format(i=self.source) + "."
        return {t.name: holder + t.name for t in c.tensors}

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 2 * self.num_kv_heads * self.head_dim  # every use caches its own keys and values

    def attention_flops(self, keys: int) -> int:
        return 4 * self.num_heads * self.head_dim * keys  # QKᵀ and AV

    def mixer_label(self) -> tuple[str, str | None]:
        heads, kv_heads = self.num_heads, self.num_kv_heads
        if kv_heads == heads:
            return "MHA", None
        return ("MQA" if kv_heads == 1 else f"GQA ({heads // kv_heads}×)"), None
