"""A.X-K2's layer (transformers 5.24.0 modeling_axk2.py): DeepSeek-V3.2's latent attention with its indexer, the
query's up-projection fused with an output gate (AXK2Attention, lines 503-560: ``q_gate_proj``, 2 × q_lora_rank in,
heads × (qk_head_dim + v_head_dim) out, in place of q_b_proj), and RMSNorms followed by a low-rank sigmoid gate
(AXK2GatedRMSNorm, lines 87-101: ``norm`` then ``mlp.fc1`` (gated_norm_rank × hidden) and ``mlp.fc2``).

The gate wraps input_layernorm in every layer and post_attention_layernorm in the MoE layers only
(AXK2DecoderLayer, lines 662-673), so the part holds the layer's norms (the family's norm_placement is "none") and
comes as two kinds: this module's, whose layers gate both norms (``gated_norm_mla_layers``: the sparse layers),
and parts/gated_input_norm_mla.py's, whose layers gate the input norm alone (the dense layers).  The cache, FLOPs
and the indexer's key are the latent attention's (parts/latent.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .latent import Indexer, LatentAttention

_new = tuple.__new__


@wrapping("latent")
class GatedNormLatentAttention(NamedTuple):
    latent: LatentAttention  # its sizes, its indexer and biases (q_b_proj aside: q_gate_proj replaces it)
    gate_rank: int  # gated_norm_rank: the norms' gate bottleneck
    ffn_norm_gated: bool  # post_attention_layernorm gated too (the MoE layers), else a plain RMSNorm

    def tensors(self, c: Collector) -> None:
        n, attention = c.naming, self.latent
        d, heads, q_rank = attention.hidden_size, attention.num_heads, attention.q_lora_rank
        qk_dim = attention.qk_nope_head_dim + attention.qk_rope_head_dim
        c.linear(n.q_a, q_rank, d, "attention", None, attention.bias)
        c.norm(n.q_a_norm, q_rank)
        c.linear(n.q_gate, heads * (qk_dim + attention.v_head_dim), 2 * q_rank, "attention")
        c.linear(n.kv_a, attention.kv_lora_rank + attention.qk_rope_head_dim, d, "attention", None, attention.bias)
        c.norm(n.kv_a_norm, attention.kv_lora_rank)
        c.linear(n.kv_b, heads * (attention.qk_nope_head_dim + attention.v_head_dim), attention.kv_lora_rank,
                 "attention")
        c.linear(n.o, d, heads * attention.v_head_dim, "attention", None, attention.output_bias)
        if attention.indexer is not None:
            attention.indexer.tensors(c, d, q_rank)
        # each gate is a matmul on every token: counted with the sublayer it feeds, not with the norms (whose
        # weights scale elementwise and add no FLOPs)
        for path, gated, fed in ((n.attn_pre_norm, True, "attention"), (n.ffn_pre_norm, self.ffn_norm_gated, "ffn")):
            if not gated:
                c.norm(path, d)
                continue
            c.norm(path + ".norm", d)
            c.linear(path + ".mlp.fc1", self.gate_rank, d, fed)  # (gated_norm_rank, hidden)
            c.linear(path + ".mlp.fc2", d, self.gate_rank, fed)  # (hidden, gated_norm_rank)


class Keys:
    """The flat keys: the layers gating both norms, and the gates' rank (shared with the dense layers' kind)."""
    gated_norm_mla_layers: tuple[int, ...] = ()
    gated_norm_rank: int | None = None


class Names:
    q_gate: str = "self_attn.q_gate_proj"  # the query's up-projection and the output gate, fused


def build(arch: Any, ffn_norm_gated: bool = True) -> GatedNormLatentAttention:
    """The layer's part; its norms are the naming's attn_pre_norm and ffn_pre_norm."""
    indexer = _new(Indexer, (arch.index_n_heads, arch.index_head_dim)) if arch.index_n_heads is not None else None
    latent = _new(LatentAttention, (arch.hidden_size, arch.num_attention_heads, arch.q_lora_rank, arch.kv_lora_rank,
                                    arch.qk_nope_head_dim, arch.qk_rope_head_dim, arch.v_head_dim,
                                    arch.attention_bias, arch.attention_output_bias, False, indexer, arch.index_topk,
                                    "none"))
    return _new(GatedNormLatentAttention, (latent, arch.gated_norm_rank, ffn_norm_gated))


def check(arch: Any, where: str | None, key: str = "gated_norm_mla_layers") -> None:
    """Refusals shared by both kinds, ``key`` naming the layers' list."""
    if arch.gated_norm_rank is None:
        raise ArchitectureError("gated_norm_rank", f"required with {key} (the norms' gate bottleneck)", where)
    if arch.kv_lora_rank is None or arch.q_lora_rank is None:
        missing = "kv_lora_rank" if arch.kv_lora_rank is None else "q_lora_rank"
        raise ArchitectureError(missing, f"required with {key} (its latent attention's rank)", where)
    if arch.norm_placement != "none":
        raise ArchitectureError(key, f"its layers hold their own norms: needs norm_placement 'none', got "
                                f"{arch.norm_placement!r}", where)


MIXER = MixerKind("gated_norm_mla_layers", Keys, Names, build, lambda arch: bool(arch.gated_norm_mla_layers), check,
                  positive_or_null=("gated_norm_rank",))
