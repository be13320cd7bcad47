"""MobileBERT's layer, whole (transformers 5.24.0 models/mobilebert, MobileBertLayer, modeling_mobilebert.py lines
171-434): BERT's post-LN layer run inside a bottleneck, with stacked FFNs, every norm a NoNorm (an elementwise weight
and bias, no statistics, registering its bias first) or a LayerNorm by normalization_type.

In registration order, true = intra_bottleneck_size with use_bottleneck, else hidden_size (MobileBertConfig derives
it so; a config's own true_hidden_size wins, and the layers are built that wide around a bottleneck of the other
width, a model whose forward cannot run: families/mobilebert.py notes it):
- attention.self.query and .key (true -> heads × (true // heads)), .value (from hidden, or from true with
  use_bottleneck_attention), attention.output.dense (true -> true) and its norm, all biased;
- intermediate.dense (true -> intermediate_size), output.dense (-> true) and its norm; with use_bottleneck
  output.bottleneck.dense (true -> hidden) and its norm (hidden wide);
- with use_bottleneck: bottleneck.input (hidden -> intra_bottleneck_size, whatever true is) and its norm, and with
  key_query_shared_bottleneck bottleneck.attention (the same shapes);
- ffn.{j} for j < num_feedforward_networks - 1: intermediate.dense, output.dense and output.LayerNorm at the
  intermediate and true widths.

One part holds the layer (the design has no FFN or block norms of its own there: layers_without_ffn, norm_placement
"none"), as a mixer kind (parts/grouped_conv_layer.py is SqueezeBERT's). An attention caches a key and a value of
heads × (true // heads) per token; QKᵀ and AV cost 4 × that per key."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part


@part
class MobileBottleneckLayer(NamedTuple):
    hidden_size: int  # hidden_size: the layers' input and output
    true_hidden_size: int  # true_hidden_size: MobileBertConfig's intra_bottleneck_size with use_bottleneck, else hidden
    intra_bottleneck_size: int  # intra_bottleneck_size: the bottleneck's input and shared attention projections
    attention_width: int  # num_attention_heads × (true_hidden_size // num_attention_heads): q, k and v's outputs
    intermediate_size: int  # intermediate_size (the design's ffn_size: a symbol in a traced formula)
    use_bottleneck: bool  # use_bottleneck
    value_from_bottleneck: bool  # use_bottleneck_attention: the value projection reads the bottleneck's width
    shared_bottleneck: bool  # key_query_shared_bottleneck (only with use_bottleneck)
    stacked_ffns: int  # num_feedforward_networks - 1 FFNLayers before the layer's own
    no_norm: bool  # normalization_type "no_norm": NoNorm, its bias registered before its weight

    def tensors(self, c: Collector) -> None:
        d, true, inner = self.hidden_size, self.true_hidden_size, self.intermediate_size
        intra = self.intra_bottleneck_size
        width = self.attention_width
        c.linear("attention.self.query", width, true, "attention", None, True)
        c.linear("attention.self.key", width, true, "attention", None, True)
        c.linear("attention.self.value", width, true if self.value_from_bottleneck else d, "attention", None, True)
        c.linear("attention.output.dense", true, true, "attention", None, True)
        self._norm(c, "attention.output.LayerNorm", true)
        c.linear("intermediate.dense", inner, true, "ffn", None, True)
        c.linear("output.dense", true, inner, "ffn", None, True)
        self._norm(c, "output.LayerNorm", true)
        if self.use_bottleneck:  # OutputBottleneck, then Bottleneck's input and shared query/key projections
            c.linear("output.bottleneck.dense", d, true, "ffn", None, True)
            self._norm(c, "output.bottleneck.LayerNorm", d)
            c.linear("bottleneck.input.dense", intra, d, "ffn", None, True)  # (modeling_mobilebert.py 324-325)
            self._norm(c, "bottleneck.input.LayerNorm", intra)
            if self.shared_bottleneck:
                c.linear("bottleneck.attention.dense", intra, d, "attention", None, True)
                self._norm(c, "bottleneck.attention.LayerNorm", intra)
        for j in range(self.stacked_ffns):
            c.linear(f"ffn.{j}.intermediate.dense", inner, true, "ffn", None, True)
            c.linear(f"ffn.{j}.output.dense", true, inner, "ffn", None, True)
            self._norm(c, f"ffn.{j}.output.LayerNorm", true)

    def _norm(self, c: Collector, path: str, size: int) -> None:
        """NORM2FN[normalization_type](size): NoNorm registers bias then weight, nn.LayerNorm weight then bias."""
        for name in ("bias", "weight") if self.no_norm else ("weight", "bias"):
            c.add(f"{path}.{name}", (size,), "norm")

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 2 * self.attention_width

    def attention_flops(self, keys: int) -> int:
        return 4 * self.attention_width * keys

    def mixer_label(self) -> tuple[str, str | None]:
        return "bottleneck attention, stacked FFNs (MobileBERT)", None


class Keys:
    """The layers it makes (MobileBERT's: every one) and MobileBertConfig's bottleneck keys."""
    mobile_bottleneck_layers: tuple[int, ...] = ()
    intra_bottleneck_size: int = 128
    use_bottleneck: bool = True
    use_bottleneck_attention: bool = False
    key_query_shared_bottleneck: bool = True
    num_feedforward_networks: int = 1
    # a config's own true_hidden_size where it is not the width MobileBertConfig derives (intra_bottleneck_size with
    # use_bottleneck, else hidden_size): the attention and FFNs that wide; None: the derived width
    true_hidden_size: int | None = None
    # normalization_type "no_norm" (MobileBERT's NoNorm: bias registered first; the embeddings' norm reads it too)
    no_norm: bool = False


class Names:
    """Its paths are its own, relative to the layer (MobileBertLayer's, spelled in tensors())."""


def true_width(arch: Any) -> int:
    """The attention's and FFNs' width: a given true_hidden_size, else MobileBertConfig's derived one."""
    given = arch.true_hidden_size
    return given if given is not None else arch.intra_bottleneck_size if arch.use_bottleneck else arch.hidden_size


def _check(arch: Any, where: str | None) -> None:
    true = true_width(arch)
    if true < arch.num_attention_heads:  # (transformers: ZeroDivisionError initialising the 0-wide projections)
        key = ("true_hidden_size" if arch.true_hidden_size is not None else
               "intra_bottleneck_size" if arch.use_bottleneck else "hidden_size")
        raise ArchitectureError(key, f"{true} is narrower than num_attention_heads={arch.num_attention_heads}: each "
                                "head of MobileBertSelfAttention would be 0 wide", where)


def _build(arch: Any) -> MobileBottleneckLayer:
    true, heads = true_width(arch), arch.num_attention_heads
    return tuple.__new__(MobileBottleneckLayer, (
        arch.hidden_size, true, arch.intra_bottleneck_size, heads * (true // heads), arch.ffn_size,
        arch.use_bottleneck, arch.use_bottleneck_attention, arch.use_bottleneck and arch.key_query_shared_bottleneck,
        arch.num_feedforward_networks - 1, arch.no_norm))


MIXER = MixerKind("mobile_bottleneck_layers", Keys, Names, _build, lambda arch: bool(arch.mobile_bottleneck_layers),
                  _check, positive=("intra_bottleneck_size", "num_feedforward_networks"),
                  positive_or_null=("true_hidden_size",))
