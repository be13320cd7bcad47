"""Evolla's decoder layers that hold a sequence aligner (transformers 5.24.0 models/evolla/modeling_evolla.py
EvollaDecoderLayer, lines 1164-1181; EvollaSequenceAlignerCrossAttention, lines 761-811): Llama's self-attention,
and after the layer's post_attention_layernorm an ``adapter`` (cross-attention from the text to the resampled
protein latents, their width the decoder's hidden_size: protein_encoder_dim=config.hidden_size) at every layer
with (i + 1) % max(num_hidden_layers // aligner_num_add_layers, 1) == 0 (families/evolla.py lists them).

The adapter registers its two gates first (nn.Parameter on the module itself: named_parameters() lists a
module's own parameters before its children's), then query, key_protein, value_protein (biased, heads ×
int(hidden / heads) wide), attention_norm (EvollaRMSNorm), out_proj (biased by aligner_enable_bias) and ff
(EvollaFeedForward: LayerNorm, fc1 to int(hidden × aligner_ffn_mult), fc2, unbiased).  A family's
Naming.layer_order puts ``adapter`` last in the layer.  Its cache and FLOPs are refused for evolla
(kvcache.NO_CACHE, compute.NO_FLOPS): the attention's own are the wrapped part's."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .attention import Attention
from .local_attention import MIXER as LOCAL_ATTENTION

_new = tuple.__new__


@wrapping("attention")
class AlignedAttention(NamedTuple):
    attention: Attention  # the layer's self-attention (Llama's)
    hidden_size: int  # hidden_size: the adapter's query, its protein states' and its output width
    heads: int  # num_attention_heads: all_head_size = heads × int(hidden / heads)
    ffn_size: int  # int(hidden_size × aligner_ffn_mult)
    output_bias: bool  # aligner_enable_bias: out_proj's bias

    def tensors(self, c: Collector) -> None:
        self.attention.tensors(c)
        d, inner, a = self.hidden_size, self.heads * (self.hidden_size // self.heads), c.naming.aligner + "."
        c.add(a + "gate_attention", (1,), "attention")  # (1,): torch.tensor([0.0])
        c.add(a + "gate_ffw", (1,), "ffn")
        c.linear(a + "query", inner, d, "attention", None, True)  # (heads × head width, hidden) and its bias
        c.linear(a + "key_protein", inner, d, "attention", None, True)
        c.linear(a + "value_protein", inner, d, "attention", None, True)
        c.add(a + "attention_norm.weight", (d,), "norm")  # EvollaRMSNorm(hidden)
        c.linear(a + "out_proj", d, d, "attention", None, self.output_bias)  # (hidden, hidden)
        c.add(a + "ff.norm.weight", (d,), "norm")  # nn.LayerNorm(hidden)
        c.add(a + "ff.norm.bias", (d,), "norm")
        c.linear(a + "ff.fc1", self.ffn_size, d, "ffn")  # (int(hidden × mult), hidden)
        c.linear(a + "ff.fc2", d, self.ffn_size, "ffn")


class Keys:
    """The flat keys: the layers holding an adapter, its FFN's multiplier and its output bias (EvollaConfig's
    aligner_ffn_mult, aligner_enable_bias)."""
    aligned_attention_layers: tuple[int, ...] = ()
    aligner_ffn_mult: int = 4
    aligner_enable_bias: bool = True


class Names:
    aligner: str = "adapter"


def _build(arch: Any) -> AlignedAttention:
    d = arch.hidden_size
    return _new(AlignedAttention, (LOCAL_ATTENTION.build(arch).attention, d, arch.num_attention_heads,
                                   int(d * arch.aligner_ffn_mult), arch.aligner_enable_bias))


def _check(arch: Any, where: str | None) -> None:
    if arch.is_mla or arch.attention_experts:
        raise ArchitectureError("aligned_attention_layers", "is built into plain self-attention (not with "
                                "kv_lora_rank or attention_experts)", where)


MIXER = MixerKind("aligned_attention_layers", Keys, Names, _build, lambda arch: bool(arch.aligned_attention_layers),
                  _check, positive=("aligner_ffn_mult",))
