"""Mistral Large 4's attention (transformers 5.24.0 modeling_mistral_large4.py MistralLarge4TextAttention, lines
335-383, and MistralLarge4TextIndexer, lines 192-214): GLM-5's DSA attention (parts/latent.py with its lightning
indexer) except: a full-rank q_proj and a learned softmax scaling (one scale and one bias per head) registered after
everything else; the indexer's queries from the layer's input through a LayerNorm (q_input_norm, hidden wide, with
its bias) and wq_b, with a softmax scaling of its own (one scale and bias per indexer head), registered after
weights_proj.  Three things vary by layer, each read from a per-layer list of the config:
- a NoPE layer (no_rope_layers[i] == 0) has no rotary key: kv_a_proj_with_mqa is kv_lora_rank wide, and kv_b_proj
  gives each head qk_nope_head_dim + qk_rope_head_dim unrotated key channels;
- a layer whose kv_source_layers entry is an earlier layer reads that layer's latent: no kv_a_proj_with_mqa and no
  kv_a_layernorm, and no latent cached (kv_sharing_modes "reuse"/"reuse_but_indexer");
- a "shared" layer of indexer_types builds no indexer (it reuses the previous full layer's selection).

A mixer kind places its part by one list and builds it from the design alone, so each of the eight combinations is
a kind of its own (``MIXERS``), placed by a list named for it: ``scaled_mla[_nope][_reused_kv][_unindexed]_layers``.
The sizes are the design's latent keys (q_lora_rank unset); the indexer's are the kind's own (scaled_mla_index_*,
read from the config's index_* keys): the design's index_n_heads is DeepSeek-V3.2's indexer, which reads the q LoRA
latent."""

from __future__ import annotations

from itertools import product
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part
from .latent import Indexer

_new = tuple.__new__


@part
class ScaledLatentAttention(NamedTuple):
    hidden_size: int
    num_heads: int  # num_attention_heads
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int
    bias: bool  # attention_bias: on kv_a_proj_with_mqa and o_proj (q_proj, kv_b_proj have none)
    rope: bool  # no_rope_layers[i]: the layer rotates a key of its own
    own_kv: bool  # kv_source_layers[i] == i: the layer computes (and caches) its own latent
    indexer: Indexer | None  # indexer_types[i] == "full": its own lightning indexer
    topk: int | None  # index_topk: the keys each query attends to, its own selection or the previous full layer's

    def tensors(self, c: Collector) -> None:
        n, d, heads = c.naming, self.hidden_size, self.num_heads
        rope = self.qk_rope_head_dim if self.rope else 0
        nope = self.qk_nope_head_dim + self.qk_rope_head_dim - rope  # a NoPE layer's key is all unrotated
        if self.own_kv:
            c.linear(n.kv_a, self.kv_lora_rank + rope, d, "attention", None, self.bias)
            c.norm(n.kv_a_norm, self.kv_lora_rank)
        c.linear(n.kv_b, heads * (nope + self.v_head_dim), self.kv_lora_rank, "attention")
        c.linear(n.o, d, heads * self.v_head_dim, "attention", None, self.bias)
        if self.indexer is not None:
            index_heads = self.indexer.num_heads
            self.indexer.tensors(c, d, d)  # wq_b reads the layer's input: hidden wide
            c.add(n.indexer_q_norm + ".weight", (d,), "norm")  # an nn.LayerNorm whatever the block's norms
            c.add(n.indexer_q_norm + ".bias", (d,), "norm")
            c.add(n.indexer_softmax_scaling + ".scale", (index_heads,), "attention")
            c.add(n.indexer_softmax_scaling + ".bias", (index_heads,), "attention")
        c.linear(n.q, heads * (self.qk_nope_head_dim + self.qk_rope_head_dim), d, "attention")
        c.add(n.softmax_scaling + ".scale", (heads,), "attention")
        c.add(n.softmax_scaling + ".bias", (heads,), "attention")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        """Its own latent and rotary key (none on a layer reading an earlier one's), and the indexer's key on a
        layer running its own (a reusing layer still caches that: kv_sharing_modes "reuse_but_indexer")."""
        index_keys = self.indexer.head_dim if self.indexer is not None else 0
        if not self.own_kv:
            return index_keys
        rope = self.qk_rope_head_dim if self.rope else 0
        if mla_layout == "latent":
            return self.kv_lora_rank + rope + index_keys
        heads = self.num_heads
        return heads * (self.qk_nope_head_dim + self.qk_rope_head_dim + self.v_head_dim) + index_keys

    def attention_flops(self, keys: int) -> int:
        flops = 0
        if self.indexer is not None:  # scores every key: q·k per indexer head, then the weighted sum
            flops += 2 * self.indexer.num_heads * (self.indexer.head_dim + 1) * keys
        attended = keys if self.topk is None else min(keys, self.topk)
        qk_dim = self.qk_nope_head_dim + self.qk_rope_head_dim
        return flops + 2 * self.num_heads * (qk_dim + self.v_head_dim) * attended

    def expansion_flops(self, keys: int) -> int:
        """Every layer runs the latents it reads (its own or an earlier layer's) through its own kv_b_proj."""
        rope = self.qk_rope_head_dim if self.rope else 0
        kv_b = self.num_heads * (self.qk_nope_head_dim + self.qk_rope_head_dim - rope + self.v_head_dim)
        return 2 * kv_b * self.kv_lora_rank * (keys - 1)

    def mixer_label(self) -> tuple[str, str | None]:
        return "MLA", None


class Names:
    softmax_scaling: str = "self_attn.softmax_scaling"
    indexer_q_norm: str = "self_attn.indexer.q_input_norm"
    indexer_softmax_scaling: str = "self_attn.indexer.softmax_scaling"


class _NoNames:
    """The paths are declared once, by the first kind."""


def layers_key(rope: bool, own_kv: bool, indexed: bool) -> str:
    """The flat key listing the layers of one combination."""
    return ("scaled_mla" + ("" if rope else "_nope") + ("" if own_kv else "_reused_kv")
            + ("" if indexed else "_unindexed") + "_layers")


SIZES = ("kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "scaled_mla_index_n_heads",
         "scaled_mla_index_head_dim")


class IndexKeys:
    """The indexer's sizes (index_n_heads, index_head_dim, index_topk), declared by the first kind."""
    scaled_mla_index_n_heads: int | None = None
    scaled_mla_index_head_dim: int | None = None
    scaled_mla_index_topk: int | None = None


def _kind(rope: bool, own_kv: bool, indexed: bool, first: bool) -> MixerKind:
    key = layers_key(rope, own_kv, indexed)

    def build(arch: Any) -> ScaledLatentAttention:
        own = _new(Indexer, (arch.scaled_mla_index_n_heads, arch.scaled_mla_index_head_dim)) if indexed else None
        return _new(ScaledLatentAttention, (arch.hidden_size, arch.num_attention_heads, arch.kv_lora_rank,
                                            arch.qk_nope_head_dim, arch.qk_rope_head_dim, arch.v_head_dim,
                                            arch.attention_bias, rope, own_kv, own, arch.scaled_mla_index_topk))

    def check(arch: Any, where: str | None) -> None:
        for size in SIZES[:4] + (SIZES[4:] if indexed else ()):
            if getattr(arch, size) is None:
                raise ArchitectureError(size, f"required with {key} (its latent attention's size)", where)
        if arch.q_lora_rank is not None:  # MistralLarge4TextAttention deletes q_a_proj: a full-rank q_proj only
            raise ArchitectureError("q_lora_rank", f"must be unset with {key} (Mistral Large 4's attention has a "
                                    "full-rank q_proj)", where)

    sizes = vars(IndexKeys)["__annotations__"] if first else {}
    keys = type("Keys", (), {"__annotations__": {key: "tuple[int, ...]", **sizes}, key: (), "__module__": __name__,
                             **{size: None for size in sizes}})
    return MixerKind(key, keys, Names if first else _NoNames, build, lambda arch: bool(getattr(arch, key)), check,
                     positive_or_null=tuple(sizes))


MIXERS = tuple(_kind(*combo, first=i == 0) for i, combo in enumerate(product((True, False), repeat=3)))
