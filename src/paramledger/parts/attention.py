"""Self-attention: multi-head, grouped or multi-query (by num_key_value_heads), with q/k norms,
sinks, an output gate, a sub-norm, keys shared from an earlier layer and values made from the keys
as options, JetMoE's mixture of attention heads among them (transformers 5.24.0 LlamaAttention and kin)."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class Attention(NamedTuple):
    hidden_size: int
    num_heads: int  # num_attention_heads (this layer's: num_attention_heads_per_layer)
    num_kv_heads: int  # num_key_value_heads (this layer's, or sliding_num_key_value_heads)
    head_dim: int  # head_dim (this layer's: head_dim_per_layer)
    value_head_dim: int  # v_head_dim, else head_dim
    bias: bool = False  # attention_bias: on q, k and v
    output_bias: bool = False  # attention_output_bias (or this layer in attention_output_bias_layers)
    qk_norm: str = "none"  # QK_NORMS
    qk_norm_bias: bool = True
    output_gate: str = "none"  # attention_output_gate
    sub_norm: bool = False  # attn_sub_norm: on the attention output, before o_proj (BitNet)
    sinks: bool = False  # one learned logit per head (gpt-oss; MiMo's sliding layers)
    kv_shared: bool = False  # keys and values from an earlier layer (Gemma 3n's num_kv_shared_layers)
    values_from_keys: bool = False  # no value projection (Gemma 4's attention_k_eq_v, full layers)
    # Mixture of attention heads (JetMoE's JetMoeMoA, attention_experts): a router, num_experts query
    # projections in and output projections out of the KV heads' channels, a (hidden,) output bias and
    # one shared key and value projection; 0: plain projections.
    experts: int = 0
    lambdas: bool = False  # differential attention's four head_dim vectors (DiffLlamaAttention)
    dynamic_mask: bool = False  # DogeAttention's A (one per KV head) and dt_proj from the KV heads' width

    def tensors(self, c: Collector) -> None:
        n, d = c.naming, self.hidden_size
        heads, kv_heads, hd, v_dim = self.num_heads, self.num_kv_heads, self.head_dim, self.value_head_dim
        q_out, kv_out = heads * hd, kv_heads * hd
        gate = self.output_gate  # the output gate's rows: one per channel or one per head
        gate_rows = 0 if gate == "none" else heads * v_dim if gate == "per_channel" else heads
        q_gate_rows = gate_rows if n.attn_gate_in_q else 0  # stored in q_proj after the queries' (Qwen3-Next)
        v_out = 0 if self.values_from_keys else kv_heads * v_dim
        bias, kv_shared, experts = self.bias, self.kv_shared, self.experts
        if experts:
            _attention_experts(c, d, experts, kv_out, bias)
        elif kv_shared:  # keys and values come from an earlier layer: queries only (Gemma3nTextAttention)
            c.linear(n.q, q_out + q_gate_rows, d, "attention", None, bias)
        elif n.qkv is not None:
            c.linear(n.qkv, q_out + q_gate_rows + kv_out + v_out, d, "attention", None, bias)
        else:
            c.linear(n.q, q_out + q_gate_rows, d, "attention", None, bias)
            c.linear(n.k, kv_out, d, "attention", None, bias and n.key_bias)
            if v_out:
                c.linear(n.v, v_out, d, "attention", None, bias)
        if self.dynamic_mask:
            c.add(n.attn_dynamic_mask, (kv_heads,), "attention")
            c.linear(n.attn_dt_proj, kv_heads, kv_out, "attention", None, bias)
        output_bias = self.output_bias
        if not experts:
            c.linear(n.o, d, heads * v_dim, "attention", None, output_bias and n.o_bias is None)
        if output_bias and n.o_bias is not None:  # a bias kept apart from the projection
            c.add(n.o_bias, (d,), "attention")
        if self.sub_norm:
            c.norm(n.attn_sub_norm, heads * v_dim)
        if gate_rows and not q_gate_rows:  # its own projection from the block's input, scaling the output
            c.linear(n.attn_gate, gate_rows, d, "attention")
        qk_norms(c, self.qk_norm, self.qk_norm_bias, hd, q_out, kv_out, heads, kv_heads, kv_shared)
        if self.sinks:
            c.add(n.sinks, (heads,), "attention")
        if self.lambdas:
            for which in ("q1", "k1", "q2", "k2"):
                c.add(n.attn_lambda + which, (hd,), "attention")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        # a key of head_dim and a value of v_head_dim per KV head; values made from the keys'
        # projection (attention_k_eq_v) are normed apart and cached apart; shared layers cache nothing
        return 0 if self.kv_shared else self.num_kv_heads * (self.head_dim + self.value_head_dim)

    def attention_flops(self, keys: int) -> int:
        return 2 * self.num_heads * (self.head_dim + self.value_head_dim) * keys

    def mixer_label(self) -> tuple[str, str | None]:
        heads, kv_heads = self.num_heads, self.num_kv_heads
        if kv_heads == heads:
            return "MHA", None
        return ("MQA" if kv_heads == 1 else f"GQA ({heads // kv_heads}×)"), None


def qk_norms(c: Collector, kind: str, offset: bool, head_dim: int, q_out: int, kv_out: int, heads: int,
             kv_heads: int, kv_shared: bool = False) -> None:
    """head: one norm of head_dim on q and on k; full: over all query (key) channels; per_head: one
    of head_dim per head, a ModuleList where the path holds "{h}", else one (heads, head_dim) weight."""
    n = c.naming
    if kind == "head":
        c.norm(n.q_norm, head_dim, offset=offset)
        if not kv_shared:
            c.norm(n.k_norm, head_dim, offset=offset)
    elif kind == "full":
        c.norm(n.q_norm, q_out, offset=offset)
        if not kv_shared:
            c.norm(n.k_norm, kv_out, offset=offset)
    elif kind == "per_head_layernorm":  # a LayerNorm's weight and bias whatever the block's kind (Chameleon's)
        for path, rows in ((n.q_norm, heads), (n.k_norm, kv_heads))[:2 - kv_shared]:
            c.add(path + ".weight", (rows, head_dim), "norm")
            c.add(path + ".bias", (rows, head_dim), "norm")
    elif kind == "per_head":
        for path, rows in ((n.q_norm, heads), (n.k_norm, kv_heads))[:2 - kv_shared]:
            if "{h}" in path:
                for h in range(rows):
                    c.norm(path.format(h=h), head_dim, offset=offset)
            else:
                c.norm(path, head_dim, rows=rows, offset=offset)


def _attention_experts(c: Collector, hidden: int, experts: int, width: int, bias: bool) -> None:
    """JetMoeMoA: the router, the routed q and o experts ``width`` (KV heads × head_dim) wide, the
    output bias, and the shared keys and values (one kv_proj where the naming fuses them)."""
    n = c.naming
    c.linear(n.attn_router, experts, hidden, "router")
    c.add(n.attn_experts_q, (experts, width, hidden), "experts", experts=experts)
    c.add(n.attn_experts_o, (experts, hidden, width), "experts", experts=experts)
    c.add(n.attn_experts_bias, (hidden,), "attention")
    if n.kv is not None:
        c.linear(n.kv, 2 * width, hidden, "attention", None, bias)
    else:
        c.linear(n.k, width, hidden, "attention", None, bias)
        c.linear(n.v, width, hidden, "attention", None, bias)
