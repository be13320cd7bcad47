"""Self-attention whose output gate carries one learned bias per head (transformers 5.24.0 modeling_beam.py
BeamAttention, lines 202-233: ``self.gate_bias = nn.Parameter(torch.zeros(config.num_attention_heads))``, added to
gate_proj's output broadcast over head_dim before the sigmoid).  Its projections, q/k norms, cache and FLOPs are the
attention part's (parts/attention.py, its per-channel output gate among them); only the (heads,) bias is its own,
registered on the attention module itself, so named_parameters() lists it before the projections."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION

_new = tuple.__new__


@wrapping("attention")
class GateBiasAttention(NamedTuple):
    attention: Attention  # the layer's self-attention, its output gate per channel (attention_output_gate)

    def tensors(self, c: Collector) -> None:
        c.add(c.naming.attn_gate_bias, (self.attention.num_heads,), "attention")  # (heads,)
        self.attention.tensors(c)


class Keys:
    """The flat key: the attention layers whose output gate has a per-head bias; every other size is the
    attention's (num_attention_heads, num_key_value_heads, head_dim, attention_bias, qk_norm,
    attention_output_gate)."""
    gate_bias_attention_layers: tuple[int, ...] = ()


class Names:
    attn_gate_bias: str = "self_attn.gate_bias"  # the (heads,) bias of the output gate


def _build(arch: Any) -> GateBiasAttention:
    # the attention local_attention builds from the design's attention keys (its rotary is the model's here)
    return _new(GateBiasAttention, (LOCAL_ATTENTION.build(arch).attention,))


def _check(arch: Any, where: str | None) -> None:
    if arch.attention_output_gate == "none":  # BeamAttention adds the bias to gate_proj's output: no gate, no bias
        raise ArchitectureError("gate_bias_attention_layers", "needs attention_output_gate (a bias of the output "
                                "gate, and there is no gate)", where)


MIXER = MixerKind("gate_bias_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.gate_bias_attention_layers), _check)
