"""DeBERTa's disentangled attention beside its fused projection (transformers 5.24.0 models/deberta,
DisentangledSelfAttention, modeling_deberta.py lines 138-184): the query and value biases held apart from in_proj
(which has none), the talking-head projections (heads × heads, unbiased) and, with relative attention, the
position projections: pos_proj (c2p, unbiased) and pos_q_proj (p2c, biased), each hidden -> heads × head_dim.

The fused in_proj itself is the layer's attention (Naming.qkv, attention_bias false): these tensors are the rest.
Nothing is cached beyond the attention's keys and values; the relative terms' FLOPs (scores against the relative
table's rows) are not answered (they depend on the relative span, not the context alone)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part


@part
class DisentangledExtras(NamedTuple):
    hidden_size: int  # hidden_size: the position projections' input
    num_heads: int  # num_attention_heads: the talking heads' width
    inner: int  # num_attention_heads × (hidden_size / num_attention_heads): DisentangledSelfAttention's all_head_size
    talking_head: bool  # talking_head: head_logits_proj and head_weights_proj
    position_key_proj: bool  # relative_attention with "c2p" in pos_att_type: pos_proj
    position_query_proj: bool  # relative_attention with "p2c" in pos_att_type: pos_q_proj

    def tensors(self, c: Collector) -> None:
        n, d, inner, heads = c.naming, self.hidden_size, self.inner, self.num_heads
        c.add(n.attention_q_bias, (inner,), "attention")  # nn.Parameter, float32 whatever the model's dtype
        c.add(n.attention_v_bias, (inner,), "attention")
        if self.talking_head:
            c.linear(n.talking_head_logits, heads, heads, "attention")  # (heads, heads), no bias
            c.linear(n.talking_head_weights, heads, heads, "attention")
        if self.position_key_proj:
            c.linear(n.pos_proj, inner, d, "attention")  # (inner, hidden), no bias
        if self.position_query_proj:
            c.linear(n.pos_q_proj, inner, d, "attention", None, True)  # (inner, hidden) and its bias


class Keys:
    """The switches, derived by the family from DebertaConfig (pos_att_type, relative_attention, talking_head)."""
    disentangled_attention: bool = False
    talking_head: bool = False
    position_key_proj: bool = False
    position_query_proj: bool = False


class Names:
    """Its Naming paths, relative to the layer: DeBERTa's."""
    attention_q_bias: str = "attention.self.q_bias"
    attention_v_bias: str = "attention.self.v_bias"
    talking_head_logits: str = "attention.self.head_logits_proj"
    talking_head_weights: str = "attention.self.head_weights_proj"
    pos_proj: str = "attention.self.pos_proj"
    pos_q_proj: str = "attention.self.pos_q_proj"


def beside_every_head(key: str) -> Callable[[Any, str | None], None]:
    """The refusal of a sublayer built into multi-head self-attention whose every head has its key (DeBERTa's
    extras, the values' convolution), said under ``key``."""
    def check(arch: Any, where: str | None) -> None:
        if arch.is_mla or arch.attention_experts or arch.kv_heads != arch.num_attention_heads:
            raise ArchitectureError(key, "is built beside multi-head self-attention with every head keyed (not with "
                                    "kv_lora_rank, attention_experts or fewer KV heads)", where)
    return check


def _build(arch: Any) -> DisentangledExtras:
    heads = arch.num_attention_heads
    return tuple.__new__(DisentangledExtras, (arch.hidden_size, heads, heads * arch.attention_head_dim,
                                              arch.talking_head, arch.position_key_proj, arch.position_query_proj))


def _engaged(arch: Any) -> bool:
    return arch.disentangled_attention or arch.talking_head or arch.position_key_proj or arch.position_query_proj


SUBLAYER = SublayerKind(Keys, Names, _build, _engaged, beside_every_head("disentangled_attention"))
