"""FNet's token mixing (transformers 5.24.0 models/fnet, FNetBasicFourierTransform, modeling_fnet.py lines 138-172):
the real part of a 2-D FFT over the sequence and hidden axes, which learns nothing. The layer's own norms are the
block's (FNetBasicOutput's LayerNorm after it: norm_placement "post").

Nothing is cached. Its FLOPs (an FFT of sequence × hidden values, about 5 N log2 N for N values: not a weight's 2 ×
parameters) are not answered: 0 here."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._collector import Collector
from ._protocol import MixerKind, part


@part
class FourierMixing(NamedTuple):
    hidden_size: int  # hidden_size: the transform's second axis

    def tensors(self, c: Collector) -> None:
        return None  # torch.fft.fftn: no parameter

    def mixer_label(self) -> tuple[str, str | None]:
        return "Fourier transform (FNet)", None


class Keys:
    """The layers it mixes (FNet's: every one)."""
    fourier_layers: tuple[int, ...] = ()


class Names:
    """No paths: the transform holds no tensor."""


def _build(arch: Any) -> FourierMixing:
    return tuple.__new__(FourierMixing, (arch.hidden_size,))


MIXER = MixerKind("fourier_layers", Keys, Names, _build, lambda arch: bool(arch.fourier_layers),
                  lambda arch, where: None)
