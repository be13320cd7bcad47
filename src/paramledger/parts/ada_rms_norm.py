"""Voxtral Realtime's time-conditioned norm (transformers 5.24.0 models/voxtral_realtime/modeling_voxtral_realtime.py,
VoxtralRealtimeTextAdaRmsNorm, in every VoxtralRealtimeTextDecoderLayer as ``ada_rms_norm``): a bottleneck from the
delay's time embedding (hidden_size wide) down to 32 channels and back, both Linears unbiased, whose output scales the
FFN's normalised input (``hidden * (1 + ada_rms_norm(t_cond))``).  Registered after the layer's two norms.

The 32 is written into the class, not read from the config; Mistral's own release files call it
``ada_rms_norm_t_cond_dim``, the name this key takes (set by the family, families/voxtral_realtime.py).  Counted with
the FFN (it only modulates the FFN's input); nothing cached."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import SublayerKind, part, plain_attention_only


@part
class AdaRmsNorm(NamedTuple):
    hidden_size: int  # hidden_size: the time embedding's width and the FFN input's
    width: int  # ada_rms_norm_t_cond_dim: the bottleneck (32 in VoxtralRealtimeTextAdaRmsNorm)

    def tensors(self, c: Collector) -> None:
        path, d, width = c.naming.ada_rms_norm, self.hidden_size, self.width
        c.linear(path + ".linear1", width, d, "ffn")  # (32, hidden)
        c.linear(path + ".linear2", d, width, "ffn")  # (hidden, 32)


class Keys:
    """The bottleneck's width; None: no such norm (every family but Voxtral Realtime's decoder)."""
    ada_rms_norm_t_cond_dim: int | None = None


class Names:
    ada_rms_norm: str = "ada_rms_norm"


def _build(arch: Any) -> AdaRmsNorm:
    return tuple.__new__(AdaRmsNorm, (arch.hidden_size, arch.ada_rms_norm_t_cond_dim))


SUBLAYER = SublayerKind(Keys, Names, _build, lambda arch: arch.ada_rms_norm_t_cond_dim is not None,
                        plain_attention_only("ada_rms_norm_t_cond_dim", "is built beside"),
                        positive_or_null=("ada_rms_norm_t_cond_dim",))
