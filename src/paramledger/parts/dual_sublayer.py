"""LongCat-Flash's layer (transformers 5.24.0 modeling_longcat_flash.py LongcatFlashDecoderLayer, lines 445-468): two
attention sublayers and two dense FFNs in turn, each behind its own norm, and a shortcut MoE fed from the first
sublayer's post-attention norm, whose experts include zero-compute ones (parts/zero_experts.py).  One part for the
whole layer: its modules are ModuleLists (self_attn.{0,1}, mlps.{0,1}, input_layernorm.{0,1},
post_attention_layernorm.{0,1}), which no block norm or FFN names, so the layer's FFN and block norms are none.

The attention is DeepSeek-V3's MLA (parts/latent.py, LongcatFlashMLA lines 330-360); each of the two caches its latent
and rotary key per token: the cache has 2 × num_layers layers (LongcatFlashConfig.num_hidden_layers)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import BufferCollector, Collector
from ._protocol import MixerKind, holds_its_own_ffn, part
from .ffn import DenseFFN
from .latent import LatentAttention
from .zero_experts import ZeroComputeExperts

_new = tuple.__new__
SUBLAYERS = (0, 1)


@part
class DualSublayerLayer(NamedTuple):
    """Registered as LongcatFlashDecoderLayer does: mlp (the MoE: its experts, then its router), self_attn.0 and .1,
    mlps.0 and .1, input_layernorm.0 and .1, post_attention_layernorm.0 and .1.  The attention and FFN parts name
    their tensors relative to their module (the family's Naming), each put under its ModuleList entry here."""
    hidden_size: int
    moe: ZeroComputeExperts
    attention: LatentAttention
    ffn: DenseFFN

    def tensors(self, c: Collector) -> None:
        self.moe.tensors(c)
        for path, sublayer in (("self_attn", self.attention), ("mlps", self.ffn)):
            inner = Collector(c.naming, c._norm_kind)
            sublayer.tensors(inner)
            for s in SUBLAYERS:
                prefix = f"{path}.{s}."
                for t in inner.tensors:
                    c.add(prefix + t.name, t.shape, t.component, t.layer, t.experts)
        for path in ("input_layernorm", "post_attention_layernorm"):
            for s in SUBLAYERS:
                c.norm(f"{path}.{s}", self.hidden_size)

    def buffers(self, c: BufferCollector) -> None:
        self.moe.buffers(c)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return len(SUBLAYERS) * self.attention.kv_values_per_token(mla_layout)

    def attention_flops(self, keys: int) -> int:
        return len(SUBLAYERS) * self.attention.attention_flops(keys)

    def expansion_flops(self, keys: int) -> int:
        return len(SUBLAYERS) * self.attention.expansion_flops(keys)

    def mixer_label(self) -> tuple[str, str | None]:
        return "MLA ×2", None


class Keys:
    """The flat keys: the layers of two sublayer pairs, and the zero-compute experts the router scores beside
    num_experts (LongcatFlashConfig.zero_expert_num); the attention is the design's MLA, the FFNs intermediate_size
    wide and the experts moe_intermediate_size."""
    dual_sublayer_layers: tuple[int, ...] = ()
    zero_expert_num: int | None = None


class Names:
    """No paths of its own: the layer's ModuleLists are LongcatFlashDecoderLayer's names."""


def _check(arch: Any, where: str | None) -> None:
    if not arch.dual_sublayer_layers:
        raise ArchitectureError("zero_expert_num", "set without dual_sublayer_layers (the two-sublayer layers)", where)
    zero = arch.zero_expert_num
    if zero is None or type(zero) is not int or zero < 0:
        raise ArchitectureError("zero_expert_num", f"must be a whole number of 0 or more, got {zero!r}"[:200], where)
    if not arch.is_mla or arch.q_lora_rank is None:
        raise ArchitectureError("dual_sublayer_layers", "holds multi-head latent attention with a q LoRA "
                                "(kv_lora_rank and q_lora_rank)", where)
    if arch.num_experts + zero < 1:
        raise ArchitectureError("zero_expert_num", "0 beside no routed experts: the router scores no expert", where)
    holds_its_own_ffn(arch, "dual_sublayer_layers", "the layer's own", where)


def _build(arch: Any) -> DualSublayerLayer:
    d = arch.hidden_size
    moe = _new(ZeroComputeExperts, (d, arch.num_experts, arch.zero_expert_num, arch.expert_size, arch.router_bias,
                                    "mlp"))
    attention = _new(LatentAttention, (d, arch.num_attention_heads, arch.q_lora_rank, arch.kv_lora_rank,
                                       arch.qk_nope_head_dim, arch.qk_rope_head_dim, arch.v_head_dim,
                                       arch.attention_bias, arch.attention_bias, False, None, None, "none"))
    ffn = _new(DenseFFN, (d, arch.ffn_size, True, arch.mlp_bias, False, False, False))
    return _new(DualSublayerLayer, (d, moe, attention, ffn))


MIXER = MixerKind("dual_sublayer_layers", Keys, Names, _build,
                  lambda arch: bool(arch.dual_sublayer_layers) or arch.zero_expert_num is not None, _check)
