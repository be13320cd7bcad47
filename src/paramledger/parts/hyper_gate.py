"""What HY-V4 adds beside DeepSeek-V3.2's latent attention in every layer (transformers 5.24.0 modeling_hy_v4.py):
the attention's per-channel output gate (HYV4Attention, lines 371-373: ``gate_proj``, hidden → heads × v_head_dim,
unbiased, registered after the indexer) and the layer's two hyper-connections (HYV4HyperConnection, lines 604-621:
``attn_hc`` and ``ffn_hc``, each ``fn`` (2 × hc_mult, hc_mult × hidden), ``base`` (2 × hc_mult,) and ``scale``
(2,), float32).  A kind beside the attention (``hyper_gate_beside_attention``), as Falcon-H1's Mamba is: the
latent attention stays the design's own, its sinks and indexer with it.  The model's hc_head is no layer's: it waits
on docs/notes/coverage-set-m.patch (Naming.hyper_head)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class HyperGate(NamedTuple):
    hidden_size: int
    gate_rows: int  # num_attention_heads × v_head_dim: the gate's width
    streams: int  # hc_mult: the residual streams each hyper-connection mixes

    def tensors(self, c: Collector) -> None:
        n, d, streams = c.naming, self.hidden_size, self.streams
        c.linear(n.attn_gate, self.gate_rows, d, "attention")
        for path, fed in ((n.attn_hyper_connection, "attention"), (n.ffn_hyper_connection, "ffn")):
            c.add(path + ".fn", (2 * streams, streams * d), fed)  # a matmul on every token's streams
            c.add(path + ".base", (2 * streams,), fed)
            c.add(path + ".scale", (2,), fed)


class Keys:
    """The flat keys: every attention layer carries it (no layer list of its own), and the streams."""
    hyper_gate_layers: tuple[int, ...] = ()  # unused: the kind sits beside the attention only
    hyper_gate_beside_attention: bool = False
    hc_mult: int | None = None


class Names:
    attn_hyper_connection: str = "attn_hc"
    ffn_hyper_connection: str = "ffn_hc"


def _build(arch: Any) -> HyperGate:
    return _new(HyperGate, (arch.hidden_size, arch.num_attention_heads * arch.v_head_dim, arch.hc_mult))


def _check(arch: Any, where: str | None) -> None:
    if arch.hyper_gate_layers:
        raise ArchitectureError("hyper_gate_layers", "the kind sits beside the attention only: set "
                                "hyper_gate_beside_attention instead", where)
    if arch.hc_mult is None:
        raise ArchitectureError("hc_mult", "required with hyper_gate_beside_attention (the residual streams)", where)
    if arch.v_head_dim is None:
        raise ArchitectureError("v_head_dim", "required with hyper_gate_beside_attention (the gate's width is "
                                "heads × v_head_dim)", where)


MIXER = MixerKind("hyper_gate_layers", Keys, Names, _build,
                  lambda arch: arch.hyper_gate_beside_attention or bool(arch.hyper_gate_layers), _check,
                  positive_or_null=("hc_mult",), beside_attention="hyper_gate_beside_attention")
