"""Manifold-constrained hyper-connections on every layer, whatever its token mixer (transformers 5.24.0
modeling_glm5_next.py Glm5NextTextHyperConnection, lines 220-282, built twice by Glm5NextTextDecoderLayer, lines
1298-1299): ``attn_hc`` before the mixer and ``ffn_hc`` before the FFN, each ``fn`` ((2 + hc) × hc, hc × hidden),
``base`` ((2 + hc) × hc,) and ``scale`` (3,), the last two float32, its input norm unweighted (no tensor).
DeepSeek-V4's are the same shapes, held by its attention part (parts/shared_kv_attention.py) since every one of its
layers is that attention; HY-V4's are (2 × hc) wide (parts/hyper_gate.py).  A sublayer, so the KDA layers of a
hybrid hold them as the attention layers do; a family's Naming.layer_order puts them after the norms, where
named_parameters() meets them.  Nothing cached; the mixing is elementwise but for ``fn``'s matmul, a weight's, and
the comb's matmul of the streams, 2 × 2 × hc² × hidden FLOPs a token (attention_flops).  GLM-5-Next's hc_head (Glm5NextTextHyperHead, line 331) is a mean with no parameters: no tensor."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part


@part
class StreamHyperConnections(NamedTuple):
    hidden_size: int
    streams: int  # hc_mult: the residual streams each hyper-connection mixes

    def tensors(self, c: Collector) -> None:
        n, d, streams = c.naming, self.hidden_size, self.streams
        mixed = (2 + streams) * streams  # pre (hc), post (hc) and comb (hc × hc) weights, concatenated
        for path, fed in ((n.stream_attn_hc, "attention"), (n.stream_ffn_hc, "ffn")):
            c.add(path + ".fn", (mixed, streams * d), fed)  # a matmul on every token's flattened streams
            c.add(path + ".base", (mixed,), fed)  # float32
            c.add(path + ".scale", (3,), fed)  # float32: pre, post, comb

    def attention_flops(self, keys: int) -> int:
        """The comb mixing of the streams, a (hc, hc) @ (hc, hidden) matmul of activations after each of the two
        sublayers (Glm5NextTextDecoderLayer.forward, lines 1338-1349), whatever the keys (DeepSeek-V4's alike)."""
        return 2 * 2 * self.streams ** 2 * self.hidden_size


class Keys:
    """The switch (GLM-5-Next's family sets it); the streams are hc_mult, the key HY-V4's kind declares."""
    stream_hyper_connections: bool = False


class Names:
    stream_attn_hc: str = "attn_hc"
    stream_ffn_hc: str = "ffn_hc"


def _build(arch: Any) -> StreamHyperConnections:
    return tuple.__new__(StreamHyperConnections, (arch.hidden_size, arch.hc_mult))


def _check(arch: Any, where: str | None) -> None:
    if arch.hc_mult is None:
        raise ArchitectureError("hc_mult", "required with stream_hyper_connections (the residual streams)", where)
    if arch.hyper_gate_beside_attention:
        raise ArchitectureError("stream_hyper_connections", "and hyper_gate_beside_attention both hold attn_hc and "
                                "ffn_hc: set one", where)


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.stream_hyper_connections, _check)
