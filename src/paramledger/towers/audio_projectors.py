"""The projectors of the audio-text models, from an audio tower's features (audio.py) into the decoder's width: each
cites the module transformers 5.24.0 builds and gives its tensors under ``Whole.projector_prefix``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from .projectors import flag, two_linears

Named = list[tuple[str, tuple[int, ...]]]


def qwen2_audio(config: Mapping[str, Any], audio: Any, hidden: int) -> Named:
    """Qwen2AudioMultiModalProjector: one biased Linear from the encoder's d_model (modeling_qwen2_audio.py)."""
    return [("linear.weight", (hidden, audio.hidden_size)), ("linear.bias", (hidden,))]


def voxtral(config: Mapping[str, Any], audio: Any, hidden: int) -> Named:
    """VoxtralMultiModalProjector: linear_1 from audio_config's intermediate_size (four frames of the encoder's
    output stacked: the encoder's FFN width, read as the config class reads it), linear_2 at the text width, no
    bias (modeling_voxtral.py)."""
    return [("linear_1.weight", (hidden, audio.encoder_ffn_dim)), ("linear_2.weight", (hidden, hidden))]


def audioflamingo3(config: Mapping[str, Any], audio: Any, hidden: int) -> Named:
    """AudioFlamingo3MultiModalProjector (and MusicFlamingo's, the same): linear_1 from the encoder's width,
    linear_2 at the text width, both biased by projector_bias (True) (modeling_audioflamingo3.py)."""
    return two_linears(audio.hidden_size, hidden, flag(config, "projector_bias", True))


def moss_transcribe_diarize(config: Mapping[str, Any], audio: Any, hidden: int) -> Named:
    """MossTranscribeDiarizeMultiModalProjector: Audio Flamingo 3's two Linears from audio_merge_size stacked frames
    (adaptor_input_dim: the encoder's width × audio_merge_size, 4), then a biased LayerNorm at the text width
    (modeling_moss_transcribe_diarize.py)."""
    merge = config.get("audio_merge_size", 4)
    if type(merge) is not int or merge <= 0:
        raise ArchitectureError("audio_merge_size", f"must be a positive whole number, got {merge!r}")
    return [*two_linears(audio.hidden_size * merge, hidden, flag(config, "projector_bias", True)),
            ("norm.weight", (hidden,)), ("norm.bias", (hidden,))]
