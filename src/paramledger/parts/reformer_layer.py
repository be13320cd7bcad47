"""Reformer's layer (transformers 5.24.0 models/reformer/modeling_reformer.py ReformerLayer, lines 1347-1356,
1434-1475): a pre-LayerNorm, then the self-attention of the layer's kind in ``attn_layers``: "local"
(LocalSelfAttention, query, key and value) or "lsh" (LSHSelfAttention, one shared query_key and value), all unbiased,
heads × attention_head_size wide (free of hidden_size / heads); output.dense back to hidden_size (unbiased); then
the chunked feed-forward, its own pre-LayerNorm, dense.dense and output.dense (biased).  As Funnel's
(parts/funnel_layer.py), the part is the whole layer (the layer's FFN is none, its norms the part's), its tensors in
registration order; the variant is the attention's kind ("local" or "lsh").  Each attention registers its mask
constants as non-persistent 0-dimensional buffers."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class ReformerLayer(NamedTuple):
    hidden_size: int  # hidden_size
    num_heads: int  # num_attention_heads
    head_dim: int  # attention_head_size
    inner: int  # feed_forward_size
    lsh: bool  # attn_layers[i] == "lsh": LSHSelfAttention (query_key, value), else LocalSelfAttention

    def tensors(self, c: Collector) -> None:
        n, d, wide = c.naming, self.hidden_size, self.num_heads * self.head_dim
        attention = n.reformer_attention + "."
        c.norm(attention + "layer_norm", d)  # ReformerAttention.layer_norm, registered before its self_attention
        mixer = attention + "self_attention."
        for projection in ("query_key", "value") if self.lsh else ("query", "key", "value"):
            c.linear(mixer + projection, wide, d, "attention")  # (heads × attention_head_size, hidden), no bias
        c.linear(attention + "output.dense", d, wide, "attention")  # ReformerSelfOutput: no bias
        ffn = n.reformer_ffn + "."
        c.norm(ffn + "layer_norm", d)
        c.linear(ffn + "dense.dense", self.inner, d, "ffn", None, True)
        c.linear(ffn + "output.dense", d, self.inner, "ffn", None, True)

    def buffers(self, c: Any) -> None:
        """LSHSelfAttention's four mask constants, LocalSelfAttention's two (nn.Buffer(torch.tensor(...),
        persistent=False): 0-dimensional, the model's dtype), in their registration order."""
        mixer = c.naming.reformer_attention + ".self_attention."
        names = ("self_mask_value_float16", "self_mask_value_float32") if self.lsh else ()
        for name in (*names, "mask_value_float16", "mask_value_float32"):
            c.buffer(mixer + name, (), None, False)

    def attention_flops(self, keys: int) -> int:
        """Not modelled: compute.NO_FLOPS refuses Reformer (its chunks and hash rounds, not the context, set it)."""
        return 0

    def mixer_label(self) -> tuple[str, str | None]:
        return ("LSH attention" if self.lsh else "local attention"), None


class Keys:
    """The flat keys: the layers that are Reformer layers (every one) and those of them that are LSH attention
    (ReformerConfig.attn_layers, read by families/reformer.py's rule)."""
    reformer_layers: tuple[int, ...] = ()
    reformer_lsh_layers: tuple[int, ...] = ()
    reformer_decoder: bool = False  # is_decoder: the class counted is ReformerModelWithLMHead, else ReformerForMaskedLM


class Names:
    reformer_attention: str = "attention"  # ReformerLayer.attention (its norm, self_attention, output)
    reformer_ffn: str = "feed_forward"  # ReformerLayer.feed_forward (ChunkReformerFeedForward)


def _variants(arch: Any) -> list:
    lsh = set(arch.reformer_lsh_layers)
    every = set(arch.reformer_layers)
    return [("lsh" if i in lsh else "local") if i in every else None for i in range(arch.num_hidden_layers)]


def _build(arch: Any, variant: str = "local") -> ReformerLayer:
    return _new(ReformerLayer, (arch.hidden_size, arch.num_attention_heads, arch.attention_head_dim, arch.ffn_size,
                                variant == "lsh"))


def _check(arch: Any, where: str | None) -> None:
    """Its layers hold their own feed-forward and norms: none beside them; the LSH layers among them."""
    key = "reformer_layers"
    if arch.norm_placement != "none":
        raise ArchitectureError(key, f"its layers hold their own norms: needs norm_placement 'none', got "
                                f"{arch.norm_placement!r}", where)
    with_ffn = sorted(set(arch.reformer_layers) - set(arch.layers_without_ffn))
    if with_ffn:
        raise ArchitectureError(key, f"its layers hold their own feed-forward: layer {with_ffn[0]} must be in "
                                "layers_without_ffn too", where)
    stray = sorted(set(arch.reformer_lsh_layers) - set(arch.reformer_layers))
    if stray:
        raise ArchitectureError("reformer_lsh_layers", f"layer {stray[0]} is not a Reformer layer "
                                "(reformer_layers)", where)


MIXER = MixerKind("reformer_layers", Keys, Names, _build,
                  lambda arch: bool(arch.reformer_layers or arch.reformer_lsh_layers), _check, variants=_variants,
                  lists=("reformer_lsh_layers",))
