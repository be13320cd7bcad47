"""XLNet's layer (transformers 5.24.0 modeling_xlnet.py XLNetLayer, XLNetRelativeAttention and XLNetFeedForward):
relative attention whose q, k, v, o and positional r projections are bare (hidden, heads, head_dim) Parameters,
three (heads, head_dim) biases (content, position, segment), a (2, heads, head_dim) segment embedding and a
post-LayerNorm; then the feed-forward, layer_1 and layer_2 biased, with its own post-LayerNorm.  The part is the
whole layer (the layer's FFN is none and its norms are the part's, as xLSTM's), its tensors in registration order:
rel_attn's own Parameters before its layer_norm, ff's layer_norm before its Linears."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class RelativeSegmentLayer(NamedTuple):
    hidden_size: int  # d_model
    num_heads: int  # n_head
    head_dim: int  # d_head (d_model // n_head: XLNetConfig.validate_architecture)
    inner: int  # d_inner: the feed-forward's width

    def tensors(self, c: Collector) -> None:
        n, d, heads, width = c.naming, self.hidden_size, self.num_heads, self.head_dim
        attention = n.relative_attention + "."
        for which in ("q", "k", "v", "o", "r"):
            c.add(attention + which, (d, heads, width), "attention")  # (d_model, n_head, d_head)
        for which in ("r_r_bias", "r_s_bias", "r_w_bias"):
            c.add(attention + which, (heads, width), "attention")
        c.add(attention + "seg_embed", (2, heads, width), "attention")  # same segment or not
        c.norm(attention + "layer_norm", d)
        ffn = n.relative_ffn + "."
        c.norm(ffn + "layer_norm", d)
        c.linear(ffn + "layer_1", self.inner, d, "ffn", None, True)
        c.linear(ffn + "layer_2", d, self.inner, "ffn", None, True)

    def attention_flops(self, keys: int) -> int:
        """QKᵀ and AV over the keys, and the positional scores against one relative position per key (r's)."""
        return 2 * self.num_heads * self.head_dim * 3 * keys

    def mixer_label(self) -> tuple[str, str | None]:
        return "relative MHA", None


class Keys:
    """The flat key: the layers that are XLNet layers; their sizes are the attention's and intermediate_size."""
    relative_segment_attention_layers: tuple[int, ...] = ()


class Names:
    relative_attention: str = "rel_attn"  # the attention module (its Parameters and post-norm)
    relative_ffn: str = "ff"  # the feed-forward module (its post-norm and layer_1, layer_2)


def _build(arch: Any) -> RelativeSegmentLayer:
    return _new(RelativeSegmentLayer, (arch.hidden_size, arch.num_attention_heads, arch.attention_head_dim,
                                       arch.ffn_size))


def _check(arch: Any, where: str | None) -> None:
    """Its layers hold their own feed-forward and norms: none beside them (its sizes are the Architecture's)."""
    key = "relative_segment_attention_layers"
    if arch.norm_placement != "none":
        raise ArchitectureError(key, f"its layers hold their own norms: needs norm_placement 'none', got "
                                f"{arch.norm_placement!r}", where)
    with_ffn = sorted(set(arch.relative_segment_attention_layers) - set(arch.layers_without_ffn))
    if with_ffn:
        raise ArchitectureError(key, f"its layers hold their own feed-forward: layer {with_ffn[0]} must be in "
                                "layers_without_ffn too", where)


MIXER = MixerKind("relative_segment_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.relative_segment_attention_layers), _check)
