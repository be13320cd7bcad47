"""DeBERTa-v2's self-attention where it is no plain multi-head attention (transformers 5.24.0 models/deberta_v2,
DisentangledSelfAttention and DebertaV2SelfOutput, modeling_deberta_v2.py lines 42-53 and 142-176): query_proj,
key_proj and value_proj (hidden -> heads × attention_head_size, biased: all_head_size, the config's
attention_head_size wherever it is given, hidden_size / heads else); without share_att_key, with relative attention,
pos_key_proj ("c2p" in pos_att_type) and pos_query_proj ("p2c"), each hidden -> all_head_size, biased; then the
output's dense, hidden_size square whatever all_head_size is (its LayerNorm is the block's post-attention norm).

families/deberta_v2.py places it in every layer where all_head_size is not hidden_size (a model whose forward cannot
run: the dense reads hidden_size channels of all_head_size) or a position projection is built; else the layer's
attention is the plain one.  An attention caches a key and a value of all_head_size per token; QKᵀ and AV cost 4 ×
that per key (the relative terms, against the relative table's rows, are not answered: parts/disentangled_extras.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import MixerKind, part


@part
class DisentangledV2Attention(NamedTuple):
    hidden_size: int  # hidden_size: every projection's input, the output dense's both sides
    all_head_size: int  # num_attention_heads × attention_head_size (head_dim)
    pos_key_proj: bool  # unshared_pos_key_proj: relative_attention, not share_att_key, "c2p" in pos_att_type
    pos_query_proj: bool  # unshared_pos_query_proj: likewise with "p2c"

    def tensors(self, c: Collector) -> None:
        n, d, inner = c.naming, self.hidden_size, self.all_head_size
        for path in (n.q, n.k, n.v):
            c.linear(path, inner, d, "attention", None, True)  # (all_head_size, hidden)
        if self.pos_key_proj:
            c.linear(n.deberta_pos_key_proj, inner, d, "attention", None, True)
        if self.pos_query_proj:
            c.linear(n.deberta_pos_query_proj, inner, d, "attention", None, True)
        c.linear(n.o, d, d, "attention", None, True)  # (hidden, hidden): DebertaV2SelfOutput.dense

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        """A key and a value of all_head_size (the position projections read the relative table, not the tokens)."""
        return 2 * self.all_head_size

    def attention_flops(self, keys: int) -> int:
        """QKᵀ and AV over all_head_size channels per key; the relative terms are not answered."""
        return 4 * self.all_head_size * keys

    def mixer_label(self) -> tuple[str, str | None]:
        return "disentangled attention (DeBERTa-v2)", None


class Keys:
    """The layers it makes (DeBERTa-v2's: every one, or none) and its position projections, derived by the family."""
    disentangled_v2_layers: tuple[int, ...] = ()
    unshared_pos_key_proj: bool = False
    unshared_pos_query_proj: bool = False


class Names:
    """Its Naming paths beside the attention's own q, k, v and o, relative to the layer: DeBERTa-v2's."""
    deberta_pos_key_proj: str = "attention.self.pos_key_proj"
    deberta_pos_query_proj: str = "attention.self.pos_query_proj"


def _build(arch: Any) -> DisentangledV2Attention:
    return tuple.__new__(DisentangledV2Attention, (
        arch.hidden_size, arch.num_attention_heads * arch.attention_head_dim, arch.unshared_pos_key_proj,
        arch.unshared_pos_query_proj))


MIXER = MixerKind("disentangled_v2_layers", Keys, Names, _build, lambda arch: bool(arch.disentangled_v2_layers),
                  lambda arch, where: None)
