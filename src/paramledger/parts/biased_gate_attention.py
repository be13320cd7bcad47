"""Self-attention whose per-channel output gate is biased as its projections are (transformers 5.24.0
modeling_hrm_text.py HrmTextAttention, lines 151-185: ``self.gate_proj = nn.Linear(hidden_size, heads × head_dim,
bias=config.attention_bias)``, registered after o_proj).  Its projections, cache and FLOPs are the attention part's
(parts/attention.py, whose own gate is never biased: Qwen3-Next's and Dory's); only the gate's bias is added, after
the gate's weight, the attention's last tensor."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION

_new = tuple.__new__


@wrapping("attention")
class BiasedGateAttention(NamedTuple):
    attention: Attention  # the layer's self-attention, its output gate per channel (attention_output_gate)

    def tensors(self, c: Collector) -> None:
        attention = self.attention
        attention.tensors(c)
        if attention.bias:  # attention_bias: gate_proj's bias, after its weight
            c.add(c.naming.attn_gate + ".bias", (attention.num_heads * attention.value_head_dim,), "attention")


class Keys:
    """The flat key: the attention layers whose output gate is biased by attention_bias; every other size is the
    attention's (num_attention_heads, num_key_value_heads, head_dim, attention_bias, attention_output_gate)."""
    biased_gate_attention_layers: tuple[int, ...] = ()


class Names:
    pass  # the gate's path is the attention's (Naming.attn_gate)


def _build(arch: Any) -> BiasedGateAttention:
    # the attention local_attention builds from the design's attention keys (its rotary is the model's here)
    return _new(BiasedGateAttention, (LOCAL_ATTENTION.build(arch).attention,))


def _check(arch: Any, where: str | None) -> None:
    if (arch.attention_output_gate != "per_channel" or arch.qk_norm != "none" or arch.attention_sinks
            or arch.attention_lambdas):
        # the bias follows the gate's weight only where the gate is the attention's last tensor
        raise ArchitectureError("biased_gate_attention_layers", "needs attention_output_gate per_channel, without "
                                "qk_norm, attention_sinks or attention_lambdas (HrmTextAttention's gate_proj)", where)


MIXER = MixerKind("biased_gate_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.biased_gate_attention_layers), _check)
