"""SqueezeBERT's layer, whole (transformers 5.24.0 models/squeezebert, SqueezeBertModule, modeling_squeezebert.py
lines 121-290): BERT's post-LN layer with every projection a grouped pointwise Conv1d (kernel_size 1, biased), each
weight (out_channels, in_channels / groups, 1): attention.query, .key and .value (hidden -> hidden, q_groups,
k_groups, v_groups), post_attention.conv1d (hidden -> hidden, post_attention_groups) and its layernorm,
intermediate.conv1d (hidden -> intermediate_size, intermediate_groups), output.conv1d (intermediate_size -> hidden,
output_groups) and its layernorm.

One part holds the layer (the design has no FFN or block norms of its own there: layers_without_ffn, norm_placement
"none"), as a mixer kind. What an attention would cache per token is a key and a value of hidden_size; QKᵀ and AV
cost 4 × hidden per key."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part


@part
class GroupedConvLayer(NamedTuple):
    hidden_size: int  # hidden_size: every conv's channels but the FFN's inner ones
    intermediate_size: int  # intermediate_size
    groups: tuple[int, int, int, int, int, int]  # q, k, v, post-attention, intermediate and output groups

    def tensors(self, c: Collector) -> None:
        n, d, inner = c.naming, self.hidden_size, self.intermediate_size
        q, k, v, post, up, down = self.groups
        for path, groups in ((n.q, q), (n.k, k), (n.v, v)):
            _conv(c, path, d, d, groups)
        _conv(c, n.grouped_post_attention, d, d, post)
        c.norm(n.grouped_post_attention_norm, d)
        _conv(c, n.grouped_intermediate, inner, d, up)
        _conv(c, n.grouped_output, d, inner, down)
        c.norm(n.grouped_output_norm, d)

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 2 * self.hidden_size

    def attention_flops(self, keys: int) -> int:
        return 4 * self.hidden_size * keys

    def mixer_label(self) -> tuple[str, str | None]:
        return "grouped-conv attention (SqueezeBERT)", None


def _conv(c: Collector, path: str, out_channels: int, in_channels: int, groups: int) -> None:
    """nn.Conv1d(in_channels, out_channels, kernel_size=1, groups=groups), biased."""
    c.add(path + ".weight", (out_channels, in_channels // groups, 1), "attention" if "attention" in path else "ffn")
    c.add(path + ".bias", (out_channels,), "attention" if "attention" in path else "ffn")


class Keys:
    """The layers it makes (SqueezeBERT's: every one) and SqueezeBertConfig's six group counts."""
    grouped_conv_layers: tuple[int, ...] = ()
    q_groups: int = 1
    k_groups: int = 1
    v_groups: int = 1
    post_attention_groups: int = 1
    intermediate_groups: int = 1
    output_groups: int = 1


class Names:
    """Its Naming paths, relative to the layer (q, k and v are the attention's own fields)."""
    grouped_post_attention: str = "post_attention.conv1d"
    grouped_post_attention_norm: str = "post_attention.layernorm"
    grouped_intermediate: str = "intermediate.conv1d"
    grouped_output: str = "output.conv1d"
    grouped_output_norm: str = "output.layernorm"


GROUP_KEYS = ("q_groups", "k_groups", "v_groups", "post_attention_groups", "intermediate_groups", "output_groups")


def _check(arch: Any, where: str | None) -> None:
    d, inner = arch.hidden_size, arch.ffn_size  # (a design may give intermediate_ratio instead)
    channels = {"q_groups": (d, d), "k_groups": (d, d), "v_groups": (d, d), "post_attention_groups": (d, d),
                "intermediate_groups": (d, inner), "output_groups": (inner, d)}
    for key in GROUP_KEYS:
        groups = getattr(arch, key)
        if any(size % groups for size in channels[key]):
            raise ArchitectureError(key, f"{groups} does not divide the conv's channels {channels[key]} (nn.Conv1d "
                                    "refuses it)", where)


def _build(arch: Any) -> GroupedConvLayer:
    return tuple.__new__(GroupedConvLayer, (arch.hidden_size, arch.ffn_size,
                                            tuple(getattr(arch, key) for key in GROUP_KEYS)))


MIXER = MixerKind("grouped_conv_layers", Keys, Names, _build, lambda arch: bool(arch.grouped_conv_layers), _check,
                  positive=GROUP_KEYS)
