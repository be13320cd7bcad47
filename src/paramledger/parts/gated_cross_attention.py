"""Llama 3.2 Vision's gated cross-attention layers (transformers 5.24.0 modeling_mllama.py
MllamaCrossAttentionDecoderLayer, MllamaTextCrossAttention): at the layers cross_attention_layers lists, the token
mixer is an attention over the vision states instead of self-attention.  The layer's own two tanh gates come first
(cross_attn_attn_gate, cross_attn_mlp_gate, one scalar each), then cross_attn (q, k, v, o unbiased, RMSNorm q_norm
and k_norm over head_dim = hidden // heads), then its input_layernorm, registered after the attention (the design
lists these layers in layers_without_attn_pre_norm, so the block's norms leave it to this part), then the FFN and
post_attention_layernorm as any layer's.

What it caches is fixed by the image's vision tokens, not the text: a key and a value per KV head for each
(cross_kv_values_per_token); MllamaTextModel skips the whole layer on a text-only prompt with nothing cached, its FFN
too, so a text token's FLOPs leave the layer out and an image's tokens (encoder_length) put it back."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part


@part
class GatedCrossAttention(NamedTuple):
    hidden_size: int
    num_heads: int  # num_attention_heads
    num_kv_heads: int  # num_key_value_heads
    head_dim: int  # hidden_size // num_attention_heads
    ffn_weights: int = 0  # the layer's FFN matmul weights: they run only with it (a text-only prompt skips the layer)

    def tensors(self, c: Collector) -> None:
        n, d = c.naming, self.hidden_size
        inner, kv = self.num_heads * self.head_dim, self.num_kv_heads * self.head_dim
        c.add(n.cross_attn_attn_gate, (1,), "attention")  # the layer's own parameters, first
        c.add(n.cross_attn_mlp_gate, (1,), "ffn")
        attn = n.gated_cross_attn + "."
        c.linear(attn + "q_proj", inner, d, "attention")  # (heads × head_dim, hidden)
        c.linear(attn + "k_proj", kv, d, "attention")  # over the vision states, projected to hidden already
        c.linear(attn + "v_proj", kv, d, "attention")
        c.linear(attn + "o_proj", d, inner, "attention")
        c.add(attn + "q_norm.weight", (self.head_dim,), "norm")  # MllamaTextRMSNorm whatever the block's
        c.add(attn + "k_norm.weight", (self.head_dim,), "norm")
        c.norm(n.attn_pre_norm, d)  # the layer's input_layernorm, registered after its cross_attn

    def encoder_weights(self) -> int:
        # q and o; k and v (run per vision token); and the layer's FFN: MllamaTextModel skips the whole layer
        # when there is no image and nothing cached (its `continue`), so none of them runs for a text token
        inner, kv = self.num_heads * self.head_dim, self.num_kv_heads * self.head_dim
        return 2 * inner * self.hidden_size + 2 * kv * self.hidden_size + self.ffn_weights

    def encoder_flops(self, encoder_keys: int) -> int:
        inner = self.num_heads * self.head_dim
        return 2 * 2 * inner * self.hidden_size + 2 * 2 * inner * encoder_keys + 2 * self.ffn_weights  # q, o; QKᵀ, AV

    def cross_kv_values_per_token(self) -> int:
        return 2 * self.num_kv_heads * self.head_dim

    def mixer_label(self) -> tuple[str, str | None]:
        return "gated cross-attention", None


class Keys:
    """The flat keys: the layers whose mixer it is (MllamaTextConfig's cross_attention_layers)."""
    cross_attention_layers: tuple[int, ...] = ()


class Names:
    gated_cross_attn: str = "cross_attn"
    cross_attn_attn_gate: str = "cross_attn_attn_gate"
    cross_attn_mlp_gate: str = "cross_attn_mlp_gate"


def _check(arch: Any, where: str | None) -> None:
    missing = [i for i in arch.cross_attention_layers if i not in arch.layers_without_attn_pre_norm]
    if missing:
        raise ArchitectureError("cross_attention_layers", f"layer {missing[0]} must be in layers_without_attn_pre_norm "
                                "too (the cross-attention layer registers its input_layernorm itself)", where)


def _build(arch: Any) -> GatedCrossAttention:
    d = arch.hidden_size
    return tuple.__new__(GatedCrossAttention, (d, arch.num_attention_heads, arch.kv_heads,
                                               d // arch.num_attention_heads,
                                               (3 if arch.mlp_gated else 2) * arch.ffn_size * d))


MIXER = MixerKind("cross_attention_layers", Keys, Names, _build, lambda arch: bool(arch.cross_attention_layers),
                  _check)
