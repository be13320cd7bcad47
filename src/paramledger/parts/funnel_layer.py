"""Funnel Transformer's layer (transformers 5.24.0 models/funnel/modeling_funnel.py FunnelLayer,
FunnelRelMultiheadAttention lines 343-365, FunnelPositionwiseFFN lines 487-495): relative attention with q_head
(unbiased), k_head and v_head (biased), three (heads, head_dim) biases (content, position, segment), a
(d_model, heads, head_dim) positional kernel, a (2, heads, head_dim) segment embedding, post_proj and a
post-LayerNorm; then the feed-forward, linear_1 and linear_2 biased, with its own post-LayerNorm.  As XLNet's
(parts/relative_segment_attention.py), the part is the whole layer (the layer's FFN is none and its norms are the
part's), its tensors in registration order: the attention's bare Parameters before its Linears.

The encoder's layers sit in blocks (block_sizes) and the decoder's in a list of their own: the design holds them as
one list, encoder's first, and layer_blocks.py names each where FunnelModel registers it (Naming.layer_blocks)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class FunnelLayer(NamedTuple):
    hidden_size: int  # d_model
    num_heads: int  # n_head
    head_dim: int  # d_head (free of d_model / n_head: FunnelConfig sets no relation)
    inner: int  # d_inner: the feed-forward's width

    def tensors(self, c: Collector) -> None:
        n, d, heads, width = c.naming, self.hidden_size, self.num_heads, self.head_dim
        attention = n.funnel_attention + "."
        for which in ("r_w_bias", "r_r_bias"):
            c.add(attention + which, (heads, width), "attention")  # (n_head, d_head)
        c.add(attention + "r_kernel", (d, heads, width), "attention")  # (d_model, n_head, d_head)
        c.add(attention + "r_s_bias", (heads, width), "attention")
        c.add(attention + "seg_embed", (2, heads, width), "attention")  # same segment or not
        c.linear(attention + "q_head", heads * width, d, "attention", None, False)
        c.linear(attention + "k_head", heads * width, d, "attention", None, True)
        c.linear(attention + "v_head", heads * width, d, "attention", None, True)
        c.linear(attention + "post_proj", d, heads * width, "attention", None, True)
        c.norm(attention + "layer_norm", d)
        ffn = n.funnel_ffn + "."
        c.linear(ffn + "linear_1", self.inner, d, "ffn", None, True)
        c.linear(ffn + "linear_2", d, self.inner, "ffn", None, True)
        c.norm(ffn + "layer_norm", d)

    def attention_flops(self, keys: int) -> int:
        """QKᵀ and AV over the keys, and the positional scores against one relative position per key (XLNet's
        figure; the pooled blocks' shorter queries are not modelled)."""
        return 2 * self.num_heads * self.head_dim * 3 * keys

    def mixer_label(self) -> tuple[str, str | None]:
        return "relative MHA", None


class Keys:
    """The flat keys: the layers that are Funnel layers (every one), and the encoder's blocks, the layers after
    their sum being the decoder's (FunnelConfig.block_sizes, num_decoder_layers)."""
    funnel_layers: tuple[int, ...] = ()
    block_sizes: tuple[int, ...] = ()


class Names:
    funnel_attention: str = "attention"  # FunnelLayer.attention (its Parameters, Linears and post-norm)
    funnel_ffn: str = "ffn"  # FunnelLayer.ffn (linear_1, linear_2, its post-norm)


def _build(arch: Any) -> FunnelLayer:
    return _new(FunnelLayer, (arch.hidden_size, arch.num_attention_heads, arch.attention_head_dim, arch.ffn_size))


def _check(arch: Any, where: str | None) -> None:
    """Its layers hold their own feed-forward and norms: none beside them; the blocks fit in the depth."""
    key = "funnel_layers"
    if arch.block_sizes and not arch.funnel_layers:
        raise ArchitectureError("block_sizes", "set without funnel_layers (the Funnel layers it puts in blocks)", where)
    if arch.norm_placement != "none":
        raise ArchitectureError(key, f"its layers hold their own norms: needs norm_placement 'none', got "
                                f"{arch.norm_placement!r}", where)
    with_ffn = sorted(set(arch.funnel_layers) - set(arch.layers_without_ffn))
    if with_ffn:
        raise ArchitectureError(key, f"its layers hold their own feed-forward: layer {with_ffn[0]} must be in "
                                "layers_without_ffn too", where)
    if any(size < 0 for size in arch.block_sizes) or sum(arch.block_sizes) > arch.num_hidden_layers:
        raise ArchitectureError("block_sizes", f"{list(arch.block_sizes)} does not fit in the "
                                f"{arch.num_hidden_layers} layers (sizes of 0 or more)"[:200], where)


MIXER = MixerKind("funnel_layers", Keys, Names, _build,
                  lambda arch: bool(arch.funnel_layers or arch.block_sizes), _check)
