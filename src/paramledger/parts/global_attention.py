"""Longformer's global attention projections (transformers 5.24.0 LongformerSelfAttention: query_global,
key_global and value_global beside query, key and value, each hidden × hidden with a bias): the global tokens'
own queries, keys and values, read by the same heads. An encoder's: nothing is cached, and their FLOPs (the
global tokens' rows) depend on how many tokens are global, which no config says: counted as tensors only."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import SublayerKind, part, plain_attention_only


@part
class GlobalProjections(NamedTuple):
    hidden_size: int  # hidden_size: LongformerSelfAttention's embed_dim, each projection's input and output

    def tensors(self, c: Collector) -> None:
        n, d = c.naming, self.hidden_size
        for path in (n.global_q, n.global_k, n.global_v):
            c.linear(path, d, d, "attention", None, True)  # (hidden, hidden) and its bias


class Keys:
    """The switch: a family that builds them sets it (LongformerConfig has no key of its own for them)."""
    global_attention_projections: bool = False


class Names:
    """Its Naming paths, relative to the layer: Longformer's."""
    global_q: str = "attention.self.query_global"
    global_k: str = "attention.self.key_global"
    global_v: str = "attention.self.value_global"


def _build(arch: Any) -> GlobalProjections:
    return tuple.__new__(GlobalProjections, (arch.hidden_size,))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.global_attention_projections,
                        plain_attention_only("global_attention_projections", "are built beside"))
