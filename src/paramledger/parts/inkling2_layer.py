"""Inkling 2's layers (transformers 5.24.0 modeling_inkling2.py Inkling2SlidingDecoderLayer and
Inkling2FullDecoderLayer, lines 861-980), one part for the whole layer: its modules (block attention residuals,
the gated attention with L2-clip scales, a sink projection and a relative bias, every layer's routed experts, the
two output convolutions) are no block norm, attention or FFN of the design's.

Registered (named_parameters()): attention_input.query (none on layer 0; (hidden,) on a sliding layer, (3, hidden)
on a full one: its q, k and v inputs), mlp_input.query (hidden,); self_attn: q_proj.linear, q_proj.norm.scale
(heads, head_dim), k_proj and v_proj each a linear and its sconv (a depthwise conv1d on sliding layers; on full ones
a dynamic conv: static_weight (kernel, kv × head_dim) and weight_proj (kv_heads × kernel, hidden)), o_proj.gate_proj
and o_proj.linear, sink_proj (heads, hidden), relative_position_bias.proj (d_rel, extent) before its linear (heads ×
d_rel) and norm.scale (heads, d_rel); mlp.experts (fused 3-D) before mlp.gate.weight (float32); input_layernorm (a
full layer: q_, k_ and v_input_layernorm), post_attention_layernorm, post_attention_convolution.conv1d and
post_mlp_convolution.conv1d (hidden, 1, kernel).  Sliding layers ("hybrid_sliding") at the swa_* sizes, their bank
spanning sliding_window_size; full ones ("hybrid") at the design's heads with rel_extent.

It caches a key and a value per KV head per token and holds four convs' last sconv_kernel_size inputs per sequence
(k, v, both outputs; float32 as parts/inkling_attention.py's).  The kinds: the full layers (this module), the
sliding ones (inkling2_sliding_layer.py), layer 0 (inkling2_first_layer.py: no attention_input), and Inkling 2
Loop's looped layers with their message gates (inkling2_loop_layer.py, inkling2_loop_sliding_layer.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import BufferCollector, Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class Inkling2Layer(NamedTuple):
    hidden_size: int
    full: bool  # a "hybrid" layer (else "hybrid_sliding")
    first: bool  # layer 0: no attention_input
    num_heads: int  # num_attention_heads (swa_num_attention_heads)
    num_kv_heads: int  # num_key_value_heads (swa_num_key_value_heads)
    head_dim: int  # head_dim (swa_head_dim)
    d_rel: int  # d_rel
    rel_extent: int  # rel_extent (sliding_window_size)
    kernel: int  # conv_kernel_size (sconv_kernel_size)
    num_experts: int  # n_routed_experts
    expert_size: int  # moe_intermediate_size (intermediate_size)
    gate_rank: int = 0  # loop_gate_rank: a looped layer's four message gates (Inkling 2 Loop); 0: none
    # loop_num_passes: a looped layer's runs a token, each caching its own keys, values and conv states at a cache
    # layer of its own (Inkling2LoopTextModel's cache_offset); not the design's layer_passes, which is built for dense
    # FFNs: a run again multiplies by the router and the top-k experts only (repeated_weights)
    passes: int = 1

    def tensors(self, c: Collector) -> None:
        d, heads, width, kv_heads, k = self.hidden_size, self.num_heads, self.head_dim, self.num_kv_heads, self.kernel
        kv, e, m = kv_heads * width, self.num_experts, self.expert_size
        if not self.first:
            c.add("attention_input.query", (3, d) if self.full else (d,), "attention")
        c.add("mlp_input.query", (d,), "ffn")
        c.add("self_attn.q_proj.linear.weight", (heads * width, d), "attention")
        c.add("self_attn.q_proj.norm.scale", (heads, width), "attention")
        for path in ("self_attn.k_proj.", "self_attn.v_proj."):
            c.add(path + "linear.weight", (kv, d), "attention")
            if self.full:  # Inkling2DynamicShortConvolution: static taps and per-token taps per KV head
                c.add(path + "sconv.static_weight", (k, kv), "attention")
                c.add(path + "sconv.weight_proj.weight", (kv_heads * k, d), "attention")
            else:
                c.add(path + "sconv.conv1d.weight", (kv, 1, k), "attention")
        c.add("self_attn.o_proj.gate_proj.weight", (heads * width, d), "attention")
        c.add("self_attn.o_proj.linear.weight", (d, heads * width), "attention")
        c.add("self_attn.sink_proj.weight", (heads, d), "attention")
        c.add("self_attn.relative_position_bias.proj", (self.d_rel, self.rel_extent), "attention")
        c.add("self_attn.relative_position_bias.linear.weight", (heads * self.d_rel, d), "attention")
        c.add("self_attn.relative_position_bias.norm.scale", (heads, self.d_rel), "attention")
        c.add("mlp.experts.gate_up_proj", (e, 2 * m, d), "experts", experts=e)
        c.add("mlp.experts.down_proj", (e, d, m), "experts", experts=e)
        c.add("mlp.gate.weight", (e, d), "router")
        for norm in ("q_input_layernorm", "k_input_layernorm", "v_input_layernorm") if self.full else (
                "input_layernorm",):
            c.add(norm + ".weight", (d,), "norm")
        c.add("post_attention_layernorm.weight", (d,), "norm")
        c.add("post_attention_convolution.conv1d.weight", (d, 1, k), "attention")
        c.add("post_mlp_convolution.conv1d.weight", (d, 1, k), "ffn")
        rank = self.gate_rank
        for gate in ("q", "k", "v", "mlp") if rank else ():  # Inkling2LoopMessageGate, forget and message in float32
            c.add(f"{gate}_message_gate.down_proj.weight", (rank, 2 * d), "attention" if gate != "mlp" else "ffn")
            c.add(f"{gate}_message_gate.forget_gate_proj.weight", (d, rank), "attention" if gate != "mlp" else "ffn")
            c.add(f"{gate}_message_gate.message_gate_proj.weight", (d, rank), "attention" if gate != "mlp" else "ffn")

    def buffers(self, c: BufferCollector) -> None:  # Inkling2TopKRouter's score correction, float32
        c.buffer("mlp.gate.e_score_correction_bias", (self.num_experts,), "float32")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return self.passes * 2 * self.num_kv_heads * self.head_dim

    def state_values(self) -> int:
        return self.passes * (2 * self.num_kv_heads * self.head_dim + 2 * self.hidden_size) * self.kernel

    def attention_flops(self, keys: int) -> int:
        # QKᵀ and AV over the keys, each head's relative state against the bank's columns it reaches
        return self.passes * (4 * self.num_heads * self.head_dim * keys
                              + 2 * self.num_heads * self.d_rel * min(keys, self.rel_extent))

    def repeated_weights(self) -> int:
        """The matmul weights a token multiplies by in each run past the first: every matrix but the experts', and
        top_k of those (num_experts_per_tok is the design's: the part holds the share, compute.py the count)."""
        if self.passes == 1:
            return 0
        d, heads, width, kv = self.hidden_size, self.num_heads, self.head_dim, self.num_kv_heads * self.head_dim
        matrices = (2 * heads * width * d + 2 * kv * d + d * heads * width + heads * d + heads * self.d_rel * d
                    + self.num_experts * d + 4 * 3 * self.gate_rank * d)
        if self.full:
            matrices += 2 * self.num_kv_heads * self.kernel * d
        return (self.passes - 1) * matrices

    def state_label(self) -> str:
        return "convolution (Inkling 2 short convs)"

    def mixer_label(self) -> tuple[str, str | None]:
        heads, kv_heads = self.num_heads, self.num_kv_heads
        if kv_heads == heads:
            return "MHA", None
        return ("MQA" if kv_heads == 1 else f"GQA ({heads // kv_heads}×)"), None


def inkling2_layer(arch: Any, full: bool, first: bool, loop: bool = False) -> Inkling2Layer:
    """One Inkling 2 layer of the design (``loop``: a looped one, with its message gates and passes)."""
    if full:
        sizes = (arch.num_attention_heads, arch.kv_heads, arch.attention_head_dim, arch.d_rel, arch.rel_extent)
    else:
        sizes = (arch.inkling_swa_num_attention_heads, arch.inkling_swa_num_key_value_heads, arch.inkling_swa_head_dim,
                 arch.d_rel, arch.sliding_window)
    return _new(Inkling2Layer, (arch.hidden_size, full, first, *sizes, arch.sconv_kernel_size, arch.num_experts,
                                arch.expert_size, arch.loop_gate_rank if loop else 0,
                                arch.loop_num_passes if loop else 1))


def check(arch: Any, where: str | None) -> None:
    """The refusals every Inkling 2 kind shares: its sizes and experts, its layers holding no FFN or norms of the
    design's."""
    for key in ("sconv_kernel_size", "d_rel", "rel_extent"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with Inkling 2's layers (inkling2_full_layers, "
                                    "inkling2_sliding_layers, inkling2_first_layers)", where)
    if arch.num_experts < 1:
        raise ArchitectureError("num_experts", "required with Inkling 2's layers (every one routes)", where)


class Keys:
    """The flat keys: the full layers ("hybrid") but layer 0; the sizes are parts/inkling_attention.py's and
    parts/inkling_sconv.py's keys, the experts the design's."""
    inkling2_full_layers: tuple[int, ...] = ()


class Names:
    """No paths of its own: Inkling2's names are written in the part."""


MIXER = MixerKind("inkling2_full_layers", Keys, Names, lambda arch: inkling2_layer(arch, True, False),
                  lambda arch: bool(arch.inkling2_full_layers), check)
