"""DeepSeek-V4's attention block (transformers 5.24.0 modeling_deepseek_v4.py): shared-KV multi-query attention
(DeepseekV4Attention, lines 772-812: one K = V head of head_dim, ``kv_proj`` from the layer's input, a low-rank query
through ``q_a_proj``/``q_a_norm``/``q_b_proj``, a learned sink per head, a grouped low-rank output ``o_a_proj``
(DeepseekV4GroupedLinear: o_groups blocks of heads × head_dim / o_groups -> o_lora_rank) then ``o_b_proj``), and by
the layer's type a compressor: none on "sliding_attention" layers, DeepseekV4HCACompressor on
"heavily_compressed_attention" ones (``position_bias`` (rate, head_dim), ``kv_proj``, ``gate_proj``, ``kv_norm``) and
DeepseekV4CSACompressor on "compressed_sparse_attention" ones (the same at 2 × head_dim, then its lightning indexer
DeepseekV4Indexer at index_head_dim with its ``q_b_proj`` from the q latent and ``scorer.weights_proj``).

The part also holds what DeepseekV4DecoderLayer adds around the two sublayers: the hyper-connections ``attn_hc`` and
``ffn_hc`` (DeepseekV4HyperConnection, lines 928-937: ``fn`` ((2 + hc) × hc, hc × hidden), ``base`` and ``scale`` (3,),
float32; the family's layer_order puts them after the norms, where named_parameters() meets them), and the router's
buffer, which depends on the layer's mlp_layer_types entry as the compressor does on its layer type: ``tid2eid``
(vocab, top-k) int64 on "hash_moe" layers (DeepseekV4HashRouter), ``e_score_correction_bias`` (experts,) float32 on
"moe" ones (DeepseekV4TopKRouter).  The experts themselves are the design's (parts/experts.py).

One kind for every layer (``shared_kv_attention_layers``), its layers' variants (MixerKind.variants) the layer type
and the router: a kind's build sees no layer otherwise.

The cache (DeepseekV4HCACache / DeepseekV4CSACache, DynamicSlidingWindowLayer for the sliding layers) is a step
function of the context t, answered by kv_values: the window's keys (sliding_window - 1 at most; K = V, held once
on a compressing layer, twice, as keys and values, on a sliding one), floor(t / rate) compressed entries of head_dim
(and of index_head_dim for the indexer), the t mod rate tokens not yet compressed twice (their kv and gate, 2 ×
head_dim wide on CSA), and, on CSA once a window has closed, the last window's overlap slice (kv and gate, rate ×
head_dim, and rate × index_head_dim for the indexer)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import BufferCollector, Collector
from ._protocol import MixerKind, part

_new = tuple.__new__
SLIDING, CSA, HCA = "sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"


@part
class SharedKVAttention(NamedTuple):
    hidden_size: int
    num_heads: int  # num_attention_heads
    head_dim: int  # head_dim: every query head's, the one K = V head's, the compressor's entries
    q_lora_rank: int  # q_lora_rank
    o_groups: int  # o_groups
    o_lora_rank: int  # o_lora_rank
    rate: int  # the layer type's compress rate; 0 on a sliding layer (no compressor)
    indexed: bool  # a CSA layer: overlapping windows (2 × head_dim) and the lightning indexer
    index_n_heads: int | None  # index_n_heads
    index_head_dim: int | None  # index_head_dim
    streams: int  # hc_mult
    rotary_half: int  # each rotary's inv_freq length: int(head_dim × partial_rotary_factor) rounded up to pairs
    hash_routed: bool  # the layer's mlp_layer_types entry is "hash_moe"
    vocab_size: int  # tid2eid's rows
    top_k: int  # num_experts_per_tok: tid2eid's columns
    num_experts: int  # e_score_correction_bias's length

    def tensors(self, c: Collector) -> None:
        d, heads, width, rank = self.hidden_size, self.num_heads, self.head_dim, self.q_lora_rank
        p = "self_attn."
        c.add(p + "sinks", (heads,), "attention")  # the module's own Parameter, before its children's
        c.linear(p + "q_a_proj", rank, d, "attention")
        c.norm(p + "q_a_norm", rank)
        c.linear(p + "q_b_proj", heads * width, rank, "attention")
        c.linear(p + "kv_proj", width, d, "attention")
        c.norm(p + "kv_norm", width)
        groups, out = self.o_groups, self.o_groups * self.o_lora_rank
        c.linear(p + "o_a_proj", out, heads * width // groups, "attention")  # (o_groups × o_lora_rank, per group)
        c.linear(p + "o_b_proj", d, out, "attention")
        if self.rate:
            compressed = 2 * width if self.indexed else width  # CSA's two series Ca and Cb side by side
            p += "compressor."
            c.add(p + "position_bias", (self.rate, compressed), "attention")
            c.linear(p + "kv_proj", compressed, d, "attention")
            c.linear(p + "gate_proj", compressed, d, "attention")
            c.norm(p + "kv_norm", width)
            if self.indexed:
                p, index = p + "indexer.", self.index_head_dim
                c.add(p + "position_bias", (self.rate, 2 * index), "attention")
                c.linear(p + "kv_proj", 2 * index, d, "attention")
                c.linear(p + "gate_proj", 2 * index, d, "attention")
                c.norm(p + "kv_norm", index)
                c.linear(p + "q_b_proj", self.index_n_heads * index, rank, "attention")
                c.linear(p + "scorer.weights_proj", self.index_n_heads, d, "attention")
        n, streams = c.naming, self.streams
        rows = (2 + streams) * streams  # pre (hc), post (hc) and comb (hc × hc)
        for path, fed in ((n.attn_hyper_connection, "attention"), (n.ffn_hyper_connection, "ffn")):
            c.add(path + ".fn", (rows, streams * d), fed)  # a matmul on every token's streams
            c.add(path + ".base", (rows,), fed)
            c.add(path + ".scale", (3,), fed)

    def buffers(self, c: BufferCollector) -> None:
        """The compressor's and the indexer's own rotary (DeepseekV4RotaryEmbedding: a main and a compress pair each,
        non-persistent float32), then the router's buffer (persistent)."""
        rotaries = ["self_attn.compressor"] if self.rate else []
        if self.indexed:
            rotaries.append("self_attn.compressor.indexer")
        for path in rotaries:
            for kind in ("main", "compress"):
                for which in ("inv_freq", "original_inv_freq"):
                    c.buffer(f"{path}.rotary_emb.{kind}_{which}", (self.rotary_half,), "float32", False)
        if self.hash_routed:
            c.buffer("mlp.gate.tid2eid", (self.vocab_size, self.top_k), "int64")
        else:
            c.buffer("mlp.gate.e_score_correction_bias", (self.num_experts,), "float32")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        """The window's one K = V head: held once on a compressing layer (its cache's values are its keys), as keys
        and values apart on a sliding one (DynamicSlidingWindowLayer.update(kv, kv))."""
        return self.head_dim if self.rate else 2 * self.head_dim

    def kv_values(self, context: int, held: int, mla_layout: str = "latent") -> int:
        """The window's keys, then the compressors' entries, pending tokens and overlap (module docstring)."""
        values = self.kv_values_per_token() * held
        if not self.rate:
            return values
        entries, pending = divmod(context, self.rate)
        widths = (self.head_dim, self.index_head_dim) if self.indexed else (self.head_dim,)
        for width in widths:
            series = 2 * width if self.indexed else width  # the projections' width (Ca and Cb on CSA)
            values += entries * width + 2 * pending * series  # compressed entries; buffered kv and gate
            if self.indexed and entries:
                values += 2 * self.rate * width  # overlap_kv and overlap_gate: the last window's Ca slice
        return values

    def kv_float32_values(self, context: int) -> int:
        """CSA's overlap gate (compressor's and indexer's): the gate plus a position_bias transformers keeps in
        float32 (_keep_in_fp32_modules_strict), so float32 in a bf16 or fp16 model's cache too."""
        if not self.indexed or context < self.rate:
            return 0
        return self.rate * (self.head_dim + self.index_head_dim)

    def attention_flops(self, keys: int) -> int:
        """QKᵀ and AV over the window's keys, each head head_dim wide, and the two hyper-connections' comb mixing of
        the streams (a (hc, hc) @ (hc, hidden) matmul each: DeepseekV4DecoderLayer.forward)."""
        return 2 * self.num_heads * 2 * self.head_dim * keys + 2 * 2 * self.streams ** 2 * self.hidden_size

    def context_flops(self, context: int) -> int:
        """QKᵀ and AV over every compressed entry (floor(context / rate): the mask, not the matmul, keeps a query
        from those the indexer drops), and on CSA the indexer's scores of each entry (index_n_heads ×
        index_head_dim); measured against torch's FlopCounterMode in tests/test_compute.py's slow check."""
        if not self.rate:
            return 0
        entries = context // self.rate
        scores = 2 * self.index_n_heads * self.index_head_dim if self.indexed else 0
        return entries * (2 * self.num_heads * 2 * self.head_dim + scores)

    def mixer_label(self) -> tuple[str, str | None]:
        if not self.rate:
            return "shared-KV MQA", None
        return ("shared-KV MQA + CSA" if self.indexed else "shared-KV MQA + HCA"), None


class Keys:
    """The flat keys: every layer (the kind's list), the layers of each compressing type and of hash routing, and
    their sizes (DeepseekV4Config's names; the indexer's read from index_n_heads and index_head_dim, named apart
    because the design's own index_* turn on DeepSeek-V3.2's indexer over MLA)."""
    shared_kv_attention_layers: tuple[int, ...] = ()
    compressed_sparse_attention_layers: tuple[int, ...] = ()
    heavily_compressed_attention_layers: tuple[int, ...] = ()
    hash_moe_layers: tuple[int, ...] = ()
    compress_rate_csa: int | None = None
    compress_rate_hca: int | None = None
    o_groups: int | None = None
    o_lora_rank: int | None = None
    compressor_index_n_heads: int | None = None  # index_n_heads
    compressor_index_head_dim: int | None = None  # index_head_dim


class Names:
    """No path of its own: DeepseekV4Attention's attribute names, under self_attn (and attn_hc, ffn_hc)."""


SIZES = ("compress_rate_csa", "compress_rate_hca", "o_groups", "o_lora_rank", "compressor_index_n_heads",
         "compressor_index_head_dim")
LISTS = ("compressed_sparse_attention_layers", "heavily_compressed_attention_layers", "hash_moe_layers")


def _variants(arch: Any) -> list:
    """Each layer's (type, hash-routed): sets looked up once per layer."""
    csa, hca = set(arch.compressed_sparse_attention_layers), set(arch.heavily_compressed_attention_layers)
    hashed, own = set(arch.hash_moe_layers), set(arch.shared_kv_attention_layers)
    return [((CSA if i in csa else HCA if i in hca else SLIDING), i in hashed) if i in own else None
            for i in range(arch.num_hidden_layers)]


def _build(arch: Any, variant: tuple[str, bool] = (SLIDING, False)) -> SharedKVAttention:
    kind, hashed = variant
    rate = {SLIDING: 0, CSA: arch.compress_rate_csa, HCA: arch.compress_rate_hca}[kind]
    rotary = int(arch.head_dim * arch.partial_rotary_factor)
    return _new(SharedKVAttention, (arch.hidden_size, arch.num_attention_heads, arch.head_dim, arch.q_lora_rank,
                                    arch.o_groups, arch.o_lora_rank, rate, kind == CSA,
                                    arch.compressor_index_n_heads, arch.compressor_index_head_dim, arch.hc_mult,
                                    (rotary + 1) // 2, hashed, arch.vocab_size, arch.num_experts_per_tok,
                                    arch.num_experts))


def _check(arch: Any, where: str | None) -> None:
    layers = set(arch.shared_kv_attention_layers)
    if not layers:
        key = next(key for key in (*SIZES, *LISTS) if getattr(arch, key))
        raise ArchitectureError(key, "set without shared_kv_attention_layers (DeepSeek-V4's attention)", where)
    for key in LISTS:
        outside = sorted(set(getattr(arch, key)) - layers)
        if outside:
            raise ArchitectureError(key, f"layer {outside[0]} is not a shared_kv_attention layer", where)
    both = sorted(set(arch.compressed_sparse_attention_layers) & set(arch.heavily_compressed_attention_layers))
    if both:
        raise ArchitectureError("layer_types", f"layer {both[0]} is listed as both CSA and HCA", where)
    needed = ["q_lora_rank", "head_dim", "o_groups", "o_lora_rank", "hc_mult"]
    if arch.compressed_sparse_attention_layers:
        needed += ["compress_rate_csa", "compressor_index_n_heads", "compressor_index_head_dim"]
    if arch.heavily_compressed_attention_layers:
        needed.append("compress_rate_hca")
    for key in needed:
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with shared_kv_attention_layers (a size of DeepSeek-V4's "
                                    "attention)", where)
    if arch.num_experts < 1 or arch.num_experts_per_tok < 1:  # every DeepseekV4DecoderLayer routes its tokens
        raise ArchitectureError("n_routed_experts", "DeepSeek-V4's layers are all routed experts: n_routed_experts "
                                "and num_experts_per_tok must be 1 or more", where)


MIXER = MixerKind("shared_kv_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.shared_kv_attention_layers) or any(
                      getattr(arch, key) for key in (*SIZES, *LISTS)), _check, positive_or_null=SIZES,
                  variants=_variants)
