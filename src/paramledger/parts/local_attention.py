"""Self-attention whose layer holds its own rotary embedding (transformers 5.24.0 modeling_recurrent_gemma.py
RecurrentGemmaAttention, lines 197-218: ``self.rotary_emb = RecurrentGemmaRotaryEmbedding(config)`` in every
attention layer, not one at the model).  Its tensors, cache and FLOPs are the attention part's (parts/attention.py);
only its buffers differ: each layer's own inv_freq and original_inv_freq."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import BufferCollector, Collector
from ._protocol import MixerKind, wrapping
from .attention import Attention

_new = tuple.__new__


@wrapping("attention")
class LocalAttention(NamedTuple):
    attention: Attention  # the layer's self-attention, built from the design's attention keys
    rotary_factor: float  # partial_rotary_factor: RoPE rotates int(head_dim × it) channels

    def tensors(self, c: Collector) -> None:
        self.attention.tensors(c)

    def buffers(self, c: BufferCollector) -> None:
        """RoPE's two float32 tables, non-persistent, in the layer (torch.arange(0, dim, 2): (dim + 1) // 2)."""
        width = (int(self.attention.head_dim * self.rotary_factor) + 1) // 2
        for which in ("inv_freq", "original_inv_freq"):
            c.buffer(f"{c.naming.layer_rotary}.{which}", (width,), "float32", False)


class Keys:
    """The flat key: the attention layers that hold their own rotary (block_types "attention"); every other
    size is the attention's (num_attention_heads, num_key_value_heads, head_dim, attention_bias,
    attention_output_bias, partial_rotary_factor)."""
    local_attention_layers: tuple[int, ...] = ()


class Names:
    layer_rotary: str = "self_attn.rotary_emb"  # the layer's rotary module


def _build(arch: Any) -> LocalAttention:
    head_dim = arch.attention_head_dim
    attention = _new(Attention, (arch.hidden_size, arch.num_attention_heads, arch.kv_heads, head_dim, head_dim,
                                 arch.attention_bias, arch.attention_output_bias, arch.qk_norm, arch.qk_norm_bias,
                                 arch.attention_output_gate, arch.attn_sub_norm, arch.attention_sinks, False, False, 0,
                                 arch.attention_lambdas, arch.attention_dynamic_mask))
    return _new(LocalAttention, (attention, arch.partial_rotary_factor))


def _check(arch: Any, where: str | None) -> None:
    return None  # the attention's own keys are checked by the Architecture


MIXER = MixerKind("local_attention_layers", Keys, Names, _build, lambda arch: bool(arch.local_attention_layers),
                  _check)
