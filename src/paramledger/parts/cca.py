"""ZAYA's compressed convolutional attention (transformers 5.24.0 modeling_zaya.py ZayaAttention, lines 353-427, with
ZayaCCAProjection, lines 143-257, and ZayaQKNorm, lines 260-278): grouped-query attention whose queries and keys pass
through two causal convolutions and whose values are half the current token's, half the previous token's.  It caches
keys and values per token and, per sequence, the convolutions' last inputs and the last token's delayed values.

Declared as a mixer kind (``cca_layers``) for families/zaya.py; tests/test_part_cca.py checks it against ZayaAttention
built alone, tests/test_families.py within ZayaForCausalLM."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part


@part
class CompressedConvolutionalAttention(NamedTuple):
    """o_proj (registered first), then under qkv_proj: q_proj, k_proj and the two value halves (kv heads × head_dim / 2
    each), all biased by attention_bias; a depthwise conv of cca_time0 taps and a grouped conv (one group per query and
    key head) of cca_time1 taps over the queries' and keys' channels, both always biased; qk_norm's one learned key
    scale per KV head (the norms themselves are L2, no parameters)."""
    hidden_size: int
    num_heads: int  # num_attention_heads
    num_kv_heads: int  # num_key_value_heads
    head_dim: int  # head_dim
    depthwise_kernel: int  # cca_time0
    grouped_kernel: int  # cca_time1
    bias: bool = False  # attention_bias: on q, k, both value halves and o
    path: str = "self_attn"  # the module's path in its layer (ZayaDecoderLayer.self_attn)

    @property
    def conv_channels(self) -> int:
        """The queries' and keys' channels side by side, which both convolutions run over."""
        return (self.num_heads + self.num_kv_heads) * self.head_dim

    @property
    def conv_state_width(self) -> int:
        """Inputs the two convolutions need before the new token: (cca_time0 − 1) + (cca_time1 − 1)."""
        return self.depthwise_kernel - 1 + self.grouped_kernel - 1

    def tensors(self, c: Collector) -> None:
        path, d, bias = self.path + ".", self.hidden_size, self.bias
        q_out, kv_out, channels = self.num_heads * self.head_dim, self.num_kv_heads * self.head_dim, self.conv_channels
        c.linear(path + "o_proj", d, q_out, "attention", None, bias)
        qkv = path + "qkv_proj."
        c.linear(qkv + "q_proj", q_out, d, "attention", None, bias)
        c.linear(qkv + "k_proj", kv_out, d, "attention", None, bias)
        c.linear(qkv + "v_proj_current", kv_out // 2, d, "attention", None, bias)
        c.linear(qkv + "v_proj_delayed", kv_out // 2, d, "attention", None, bias)
        c.add(qkv + "conv_qk_depthwise.weight", (channels, 1, self.depthwise_kernel), "attention")
        c.add(qkv + "conv_qk_depthwise.bias", (channels,), "attention")
        c.add(qkv + "conv_qk_grouped.weight", (channels, self.head_dim, self.grouped_kernel), "attention")
        c.add(qkv + "conv_qk_grouped.bias", (channels,), "attention")
        c.add(path + "qk_norm.temp", (self.num_kv_heads,), "attention")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 2 * self.num_kv_heads * self.head_dim  # a key and a value of head_dim per KV head

    def state_values(self) -> int:
        """The convolutions' last inputs over every query and key channel, and the last token's delayed value half
        (the cache layer's conv_states and recurrent_states)."""
        return self.conv_channels * self.conv_state_width + self.num_kv_heads * self.head_dim // 2

    def attention_flops(self, keys: int) -> int:
        """One decoded token over ``keys`` keys: scores and the weighted sum (2 × head_dim each per query head and
        key), and what the depthwise conv adds beyond its weights: it runs over cca_time1 positions so that the
        grouped conv has its cca_time1 inputs."""
        attention = 2 * self.num_heads * 2 * self.head_dim * keys
        depthwise_beyond_weights = 2 * self.conv_channels * self.depthwise_kernel * (self.grouped_kernel - 1)
        return attention + depthwise_beyond_weights

    def mixer_label(self) -> tuple[str, str | None]:
        heads, kv_heads = self.num_heads, self.num_kv_heads
        return ("CCA" if kv_heads == heads else f"CCA, GQA ({heads // kv_heads}×)"), None

    def state_label(self) -> str:
        return "convolution (ZAYA CCA)"


class Keys:
    """The flat keys: the CCA layers and the two convolutions' taps (ZayaConfig's cca_time0, cca_time1); the heads,
    head_dim and attention_bias are the attention's own keys."""
    cca_layers: tuple[int, ...] = ()
    cca_time0: int | None = None
    cca_time1: int | None = None


class Names:
    """No path of its own: the part holds its module's (self_attn, as ZayaDecoderLayer names it)."""


def _check(arch: Any, where: str | None) -> None:
    for key in ("cca_time0", "cca_time1"):
        if not arch.cca_layers:  # engaged by a kernel alone
            if getattr(arch, key) is not None:
                raise ArchitectureError(key, "set without cca_layers (the compressed convolutional attention "
                                        "layers)", where)
        elif getattr(arch, key) is None:
            raise ArchitectureError(key, "required with cca_layers (the compressed convolutional attention layers)",
                                    where)
    if arch.is_mla or arch.attention_experts:
        raise ArchitectureError("cca_layers", "is grouped-query attention (not with kv_lora_rank or "
                                "attention_experts)", where)
    if arch.num_attention_heads % arch.kv_heads:
        raise ArchitectureError("num_key_value_heads", f"{arch.kv_heads} does not divide num_attention_heads="
                                f"{arch.num_attention_heads} (ZayaConfig.validate_architecture)", where)


def _build(arch: Any) -> CompressedConvolutionalAttention:
    return tuple.__new__(CompressedConvolutionalAttention, (
        arch.hidden_size, arch.num_attention_heads, arch.kv_heads, arch.attention_head_dim, arch.cca_time0,
        arch.cca_time1, arch.attention_bias, "self_attn"))


MIXER = MixerKind("cca_layers", Keys, Names, _build, lambda arch: bool(arch.cca_layers or arch.cca_time0 is not None
                                                                        or arch.cca_time1 is not None), _check,
                  positive_or_null=("cca_time0", "cca_time1"))
