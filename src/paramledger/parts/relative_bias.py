"""Self-attention holding a learned relative-position bias table of its own (transformers 5.24.0 modeling_t5.py
T5Attention, lines 207-213: q, k, v, o, then ``relative_attention_bias = nn.Embedding(relative_attention_num_buckets,
n_heads)`` where has_relative_attention_bias).  T5Stack gives it to the first block only
(``has_relative_attention_bias=bool(i == 0)``, line 652: the later layers reuse that layer's position bias), in the
encoder and in the decoder; UMT5LayerSelfAttention to every layer (modeling_umt5.py line 379).  The cross-attention
never holds one.

Its projections, cache and FLOPs are the attention part's (parts/attention.py); only the (buckets, heads) table is
its own, an nn.Embedding registered after ``o`` (named_parameters() lists it there), the "positions" component (an
nn.Embedding: Hugging Face's non-embedding count drops it).  Adding a bucket's bias to each score is not a matmul:
no FLOPs beyond the attention's.

The table's size is a flat key of its own, not MPNet's relative_attention_num_buckets (one table after the layers,
_builder.py): a family maps its config's relative_attention_num_buckets onto ``relative_bias_num_buckets``."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, plain_attention_only, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION

_new = tuple.__new__


@wrapping("attention")
class RelativeBiasAttention(NamedTuple):
    attention: Attention  # the layer's self-attention (num_heads × head_dim wide: T5's n_heads × d_kv)
    num_buckets: int  # relative_bias_num_buckets (T5's relative_attention_num_buckets)
    global_table: bool = False  # relative_bias_global: a second table for the global tokens (LongT5's transient-global)
    heads: int | None = None  # relative_bias_heads: the table's columns, where not the attention's heads

    def tensors(self, c: Collector) -> None:
        self.attention.tensors(c)
        rows = (self.num_buckets, self.heads or self.attention.num_heads)
        c.add(c.naming.relative_bias + ".weight", rows, "positions")
        if self.global_table:  # LongT5TransientGlobalAttention.global_relative_attention_bias, after the first
            c.add(c.naming.global_relative_bias + ".weight", rows, "positions")


class Keys:
    """The flat keys: the layers whose self-attention holds a table (T5: (0,); UMT5: every layer) and its rows;
    every other size is the attention's."""
    relative_bias_layers: tuple[int, ...] = ()
    relative_bias_num_buckets: int | None = None
    relative_bias_global: bool = False  # each table layer holds a global-token table too (LongT5 transient-global)
    # the table's columns where they are not the attention's heads (Pix2Struct's num_heads beside a q, k, v and o
    # hidden_size wide whatever d_kv says: families/pix2struct.py); None: the attention's num_attention_heads
    relative_bias_heads: int | None = None


class Names:
    relative_bias: str = "self_attn.relative_attention_bias"  # the (buckets, heads) nn.Embedding
    global_relative_bias: str = "self_attn.global_relative_attention_bias"  # its global-token twin


def _build(arch: Any) -> RelativeBiasAttention:
    # the attention local_attention builds from the design's attention keys
    return _new(RelativeBiasAttention, (LOCAL_ATTENTION.build(arch).attention, arch.relative_bias_num_buckets,
                                        arch.relative_bias_global, arch.relative_bias_heads))


_into_plain_attention = plain_attention_only("relative_bias_layers")


def _check(arch: Any, where: str | None) -> None:
    if arch.relative_bias_layers and arch.relative_bias_num_buckets is None:
        raise ArchitectureError("relative_bias_layers", "set without relative_bias_num_buckets (the table's rows)",
                                where)
    for key in ("relative_bias_num_buckets", "relative_bias_global", "relative_bias_heads"):
        if getattr(arch, key) not in (None, False) and not arch.relative_bias_layers:
            raise ArchitectureError(key, "set without relative_bias_layers (the layers whose attention holds the "
                                    "table)", where)
    _into_plain_attention(arch, where)


MIXER = MixerKind("relative_bias_layers", Keys, Names, _build,
                  lambda arch: (bool(arch.relative_bias_layers) or arch.relative_bias_num_buckets is not None
                                or arch.relative_bias_global or arch.relative_bias_heads is not None),
                  _check, positive_or_null=("relative_bias_num_buckets", "relative_bias_heads"))
