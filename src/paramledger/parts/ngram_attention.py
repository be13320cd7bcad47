"""ProphetNet's n-gram self-attention (transformers 5.24.0 modeling_prophetnet.py ProphetNetNgramSelfAttention,
lines 528-555): a biased multi-head self-attention (key_proj, value_proj, query_proj, out_proj, hidden → hidden)
plus ``relative_pos_embeddings = nn.Linear(hidden_size, num_buckets * num_attn_heads)``, biased, registered after
out_proj, which projects each stream's hidden state to the per-head bias of every relative-position bucket.

Its projections and label are the attention part's; its cache is the attention's too: only the main stream's keys
and values are cached (``curr_cache.update(main_key_states, main_value_states, ...)``), the n-gram streams are
recomputed every step.  The bucket Linear is a matmul of its own (FLOPs through its weights, as every Linear's)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, plain_attention_only, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION

_new = tuple.__new__


@wrapping("attention")
class NgramAttention(NamedTuple):
    attention: Attention  # the main stream's self-attention (num_decoder_attention_heads, hidden // heads wide)
    num_buckets: int  # ngram_num_buckets (ProphetNet's num_buckets)

    def tensors(self, c: Collector) -> None:
        self.attention.tensors(c)
        heads, width = self.attention.num_heads, self.attention.hidden_size
        # (num_buckets × heads, hidden), biased
        c.linear(c.naming.ngram_relative, self.num_buckets * heads, width, "attention", None, True)


class Keys:
    """The flat keys: the layers whose self-attention is the n-gram one (ProphetNet's decoder: every layer) and the
    bucket count; every other size is the attention's."""
    ngram_attention_layers: tuple[int, ...] = ()
    ngram_num_buckets: int | None = None


class Names:
    ngram_relative: str = "self_attn.relative_pos_embeddings"  # the bucket projection


def _build(arch: Any) -> NgramAttention:
    return _new(NgramAttention, (LOCAL_ATTENTION.build(arch).attention, arch.ngram_num_buckets))


_into_plain_attention = plain_attention_only("ngram_attention_layers")


def _check(arch: Any, where: str | None) -> None:
    if arch.ngram_attention_layers and arch.ngram_num_buckets is None:
        raise ArchitectureError("ngram_attention_layers", "set without ngram_num_buckets (the bucket projection's "
                                "rows)", where)
    if arch.ngram_num_buckets is not None and not arch.ngram_attention_layers:
        raise ArchitectureError("ngram_num_buckets", "set without ngram_attention_layers (the layers whose "
                                "self-attention is the n-gram one)", where)
    _into_plain_attention(arch, where)


MIXER = MixerKind("ngram_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.ngram_attention_layers) or arch.ngram_num_buckets is not None,
                  _check, positive_or_null=("ngram_num_buckets",))
