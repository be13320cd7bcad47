"""Cross-attention: a decoder layer's attention over the encoder's output (transformers 5.24.0
BartDecoderLayer.encoder_attn and its encoder_attn_layer_norm, and every BART-lineage decoder's copy;
BertLayer.crossattention with add_cross_attention).  Its queries read the layer's hidden state, its keys
and values the encoder's (cross_attention_hidden_size wide where the class reads that key: TrOCR's
TrOCRAttention kdim/vdim; else d_model, as BartAttention and BertSelfAttention build them).

What it caches is fixed by the encoder's input length, not by the generated length: each layer keeps one key
and one value per head for every encoder token (EncoderDecoderCache.cross_attention_cache, filled on the first
step and never grown), answered by ``cross_kv_values_per_token``, never in ``kv_values_per_token``."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part, plain_attention_only


@part
class CrossAttention(NamedTuple):
    hidden_size: int  # d_model: the queries' input and the output's width
    num_heads: int  # decoder_attention_heads (the layer's own, as its self-attention's)
    head_dim: int  # d_model // heads
    encoder_width: int  # cross_attention_hidden_size, else hidden_size: what k_proj and v_proj read
    bias: bool = False  # attention_bias: on q, k and v (BartAttention's bias=True)
    output_bias: bool = False  # attention_output_bias
    norm: bool = True  # its own norm (encoder_attn_layer_norm), before or after it as the block's placement
    kv_heads: int = 0  # cross_attention_kv_heads: k_proj's and v_proj's heads (T5Gemma's GQA); 0: num_heads
    # cross_attention_merged: no tensors of its own, the self-attention's k_proj, v_proj (and k_norm) read the
    # encoder's states too and one softmax runs over both key sets (T5Gemma 2's T5Gemma2MergedAttention,
    # modeling_t5gemma2.py lines 315-433): the cross cache and the FLOPs over the encoder's keys stay
    merged: bool = False

    def tensors(self, c: Collector) -> None:
        if self.merged:
            return
        n, d, bias = c.naming, self.hidden_size, self.bias
        inner, kv = self.num_heads * self.head_dim, (self.kv_heads or self.num_heads) * self.head_dim
        if n.cross_kv:  # GPT-2's crossattention: c_attn (k and v fused) registered before q_attn
            c.linear(n.cross_kv, 2 * kv, self.encoder_width, "attention", None, bias)  # (2 × kv, encoder)
            c.linear(n.cross_q, inner, d, "attention", None, bias)
        else:
            c.linear(n.cross_q, inner, d, "attention", None, bias)  # (heads × head_dim, d_model)
            c.linear(n.cross_k, kv, self.encoder_width, "attention", None, bias and n.key_bias)  # (kv, encoder)
            c.linear(n.cross_v, kv, self.encoder_width, "attention", None, bias)
        c.linear(n.cross_o, d, inner, "attention", None, self.output_bias)  # (d_model, heads × head_dim)
        if self.norm:
            c.norm(n.cross_attn_norm, d)
            if n.cross_attn_post_norm:  # a norm after it too (T5Gemma's post_cross_attn_layernorm)
                c.norm(n.cross_attn_post_norm, d)

    def encoder_weights(self) -> int:
        if self.merged:  # (the self-attention's weights, run by every token)
            return 0
        inner, kv = self.num_heads * self.head_dim, (self.kv_heads or self.num_heads) * self.head_dim
        return 2 * inner * self.hidden_size + 2 * kv * self.encoder_width  # q and o; k and v

    def encoder_flops(self, encoder_keys: int) -> int:
        # a decoded token runs q_proj and out_proj, then QKᵀ and AV over the cached keys and values (BartAttention
        # projects the encoder's states once, on the first step: is_updated)
        inner = self.num_heads * self.head_dim
        if self.merged:  # QKᵀ and AV over the encoder's keys; q and o are the self-attention's
            return 2 * 2 * inner * encoder_keys
        return 2 * 2 * inner * self.hidden_size + 2 * 2 * inner * encoder_keys

    def cross_kv_values_per_token(self) -> int:
        # a key and a value of head_dim per head, for every encoder token (BartAttention caches
        # key_states and value_states of the encoder's hidden states once, in cross_attention_cache)
        return 2 * (self.kv_heads or self.num_heads) * self.head_dim


class Keys:
    """The flat keys: the switch (BertConfig's and TrOCR's add_cross_attention) and the encoder's width."""
    add_cross_attention: bool = False
    cross_attention_hidden_size: int | None = None  # None: hidden_size (the encoder's states as wide as the decoder's)
    cross_attention_kv_heads: int | None = None  # None: its query heads (T5Gemma's: num_key_value_heads)
    cross_attention_merged: bool = False  # True: no tensors of its own, the self-attention's (T5Gemma 2's)


class Names:
    """Its Naming paths, relative to the layer: BART's, which every BART-lineage decoder shares."""
    cross_q: str = "encoder_attn.q_proj"
    cross_k: str = "encoder_attn.k_proj"
    cross_v: str = "encoder_attn.v_proj"
    cross_o: str = "encoder_attn.out_proj"
    cross_attn_norm: str = "encoder_attn_layer_norm"
    cross_attn_post_norm: str | None = None  # T5Gemma's sandwich: pre_ and post_cross_attn_layernorm
    cross_kv: str | None = None  # one fused key and value projection (GPT-2's crossattention.c_attn), else k and v


_beside_plain_attention = plain_attention_only("add_cross_attention", "is built beside")


def _check(arch: Any, where: str | None) -> None:
    if not arch.add_cross_attention:
        if arch.cross_attention_merged:
            raise ArchitectureError("cross_attention_merged", "set without add_cross_attention (only a "
                                    "cross-attention is merged into the self-attention)", where)
        if arch.cross_attention_hidden_size is None:  # (cross_attention_kv_heads alone)
            raise ArchitectureError("cross_attention_kv_heads", "set without add_cross_attention (only a "
                                    "cross-attention has them)", where)
        raise ArchitectureError("cross_attention_hidden_size", "set without add_cross_attention (only a "
                                "cross-attention reads the encoder's width)", where)
    _beside_plain_attention(arch, where)


def _engaged(arch: Any) -> bool:
    return (arch.add_cross_attention or arch.cross_attention_hidden_size is not None
            or arch.cross_attention_kv_heads is not None or arch.cross_attention_merged)


def _build(arch: Any) -> CrossAttention:
    d = arch.hidden_size
    return tuple.__new__(CrossAttention, (d, arch.num_attention_heads, arch.attention_head_dim,
                                          arch.cross_attention_hidden_size or d, arch.attention_bias,
                                          arch.attention_output_bias, arch.norm_placement != "none",
                                          arch.cross_attention_kv_heads or 0, arch.cross_attention_merged))


SUBLAYER = SublayerKind(Keys, Names, _build, _engaged, _check,
                        positive_or_null=("cross_attention_hidden_size", "cross_attention_kv_heads"))
