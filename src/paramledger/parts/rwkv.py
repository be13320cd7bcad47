"""RWKV-4's time mixing and channel mixing (transformers 5.24.0 modeling_rwkv.py RwkvSelfAttention, lines 217-245,
and RwkvFeedForward, lines 287-303), one part for both: the channel mix is an FFN whose receptance gate and token
shift no FFN part builds, so this part holds it too, with the layer's FFN none.  The part lists ln2, the norm
before the channel mix, as the FFN's norm would be listed (the block registers pre_ln, ln1, ln2, attention,
feed_forward: RwkvBlock, lines 325-338; the family's layer_order puts them in that order).

It caches no keys or values: per sequence, five hidden_size vectors (RwkvModel.forward's state, lines 560-568: the
two token shifts at the model's dtype, the WKV numerator, denominator and running maximum at float32)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class TimeChannelMix(NamedTuple):
    """Time mix: time_decay and time_first per attention channel, three (1, 1, hidden) token-shift mixes, then key,
    value and receptance to attention_hidden_size and output back, none biased.  Channel mix: two token-shift mixes,
    key to intermediate_size, receptance hidden to hidden, value back from intermediate_size, none biased."""
    hidden_size: int
    attention_hidden_size: int  # rwkv_attention_hidden_size: attention_hidden_size (None: hidden_size)
    intermediate_size: int  # intermediate_size (None: 4 × hidden_size)

    def tensors(self, c: Collector) -> None:
        n, d, inner, ffn = c.naming, self.hidden_size, self.attention_hidden_size, self.intermediate_size
        c.norm(n.rwkv_channel_norm, d)
        time = n.rwkv_time_mix + "."
        c.add(time + "time_decay", (inner,), "mixer")
        c.add(time + "time_first", (inner,), "mixer")
        for which in ("key", "value", "receptance"):
            c.add(time + "time_mix_" + which, (1, 1, d), "mixer")
        for which in ("key", "value", "receptance"):
            c.linear(time + which, inner, d, "mixer")
        c.linear(time + "output", d, inner, "mixer")
        channel = n.rwkv_channel_mix + "."
        c.add(channel + "time_mix_key", (1, 1, d), "ffn")
        c.add(channel + "time_mix_receptance", (1, 1, d), "ffn")
        c.linear(channel + "key", ffn, d, "ffn")
        c.linear(channel + "receptance", d, d, "ffn")
        c.linear(channel + "value", d, ffn, "ffn")

    def state_values(self) -> int:
        """The channel mix's and the time mix's last input, and the WKV numerator, denominator and maximum: each
        (batch, hidden_size, layers) in RwkvModel's state, so hidden_size wide whatever attention_hidden_size."""
        return 5 * self.hidden_size

    def mixer_label(self) -> tuple[str, str | None]:
        return "RWKV time mix", "linear"

    def state_label(self) -> str:
        return "recurrent (RWKV)"


class Keys:
    """The flat keys: the RWKV layers and the time mix's width (RwkvConfig's attention_hidden_size, spelt apart from
    Zamba's attention_hidden_size, which means another width); the channel mix is intermediate_size wide."""
    rwkv_layers: tuple[int, ...] = ()
    rwkv_attention_hidden_size: int | None = None


class Names:
    rwkv_time_mix: str = "attention"  # RwkvBlock.attention
    rwkv_channel_mix: str = "feed_forward"  # RwkvBlock.feed_forward
    rwkv_channel_norm: str = "ln2"  # the norm before the channel mix


def _check(arch: Any, where: str | None) -> None:
    if not arch.rwkv_layers:
        raise ArchitectureError("rwkv_attention_hidden_size", "set without rwkv_layers (the RWKV layers)", where)
    overlap = sorted(set(arch.rwkv_layers) - set(arch.layers_without_ffn))
    if overlap:  # the channel mix is the layer's FFN
        raise ArchitectureError("rwkv_layers", f"layer {overlap[0]} holds an FFN beside the RWKV channel mix (list "
                                "it in layers_without_ffn)", where)


def _build(arch: Any) -> TimeChannelMix:
    return _new(TimeChannelMix, (arch.hidden_size, arch.rwkv_attention_hidden_size or arch.hidden_size,
                                 arch.ffn_size))


MIXER = MixerKind("rwkv_layers", Keys, Names, _build,
                  lambda arch: bool(arch.rwkv_layers or arch.rwkv_attention_hidden_size is not None), _check,
                  positive_or_null=("rwkv_attention_hidden_size",))
