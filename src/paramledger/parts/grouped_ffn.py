"""ConvBERT's grouped FFN (transformers 5.24.0 models/convbert, GroupedLinearLayer, ConvBertIntermediate and
ConvBertOutput, modeling_convbert.py lines 291-345): where num_groups > 1, the FFN's two projections are
GroupedLinearLayer(input, output, groups), each one weight of (groups, input // groups, output // groups) and a bias
of the whole output, then output.LayerNorm.  It stands in the layer's FFN's place (the design lists every layer in
layers_without_ffn and this sublayer holds the FFN and its norm, under the family's up, down and ffn_post_norm paths).

Each token runs every group's (input // groups) × (output // groups) product: a multiply-add per weight, the rule of
2 × parameters; nothing is cached."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import SublayerKind, part


@part
class GroupedFFN(NamedTuple):
    hidden_size: int  # hidden_size
    intermediate_size: int  # intermediate_size
    groups: int  # num_groups

    def tensors(self, c: Collector) -> None:
        n, d, inner, groups = c.naming, self.hidden_size, self.intermediate_size, self.groups
        c.add(n.up + ".weight", (groups, d // groups, inner // groups), "ffn")  # (groups, in / g, out / g)
        c.add(n.up + ".bias", (inner,), "ffn")
        c.add(n.down + ".weight", (groups, inner // groups, d // groups), "ffn")
        c.add(n.down + ".bias", (d,), "ffn")
        c.norm(n.ffn_post_norm, d)  # ConvBertOutput.LayerNorm (post-LN: after the FFN)


class Keys:
    """The FFN's groups where they are more than one (ConvBertConfig's num_groups); None: no grouped FFN."""
    num_groups: int | None = None


class Names:
    """No paths of its own: the FFN's (up, down, ffn_post_norm)."""


def _check(arch: Any, where: str | None) -> None:
    if len(arch.layers_without_ffn) != arch.num_hidden_layers:
        raise ArchitectureError("num_groups", "is ConvBERT's grouped FFN, which stands in every layer's FFN "
                                "(layers_without_ffn must list every layer)", where)


def _build(arch: Any) -> GroupedFFN:
    return tuple.__new__(GroupedFFN, (arch.hidden_size, arch.ffn_size, arch.num_groups))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.num_groups is not None, _check,
                        positive_or_null=("num_groups",))
