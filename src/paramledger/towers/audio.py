"""An audio tower: Whisper's encoder (WhisperEncoder) and the encoders written as copies of it (Qwen2-Audio's,
Voxtral's, Audio Flamingo 3's, MOSS's), the "audio" component of a whole audio-text model.

transformers 5.24.0 models/whisper/modeling_whisper.py (WhisperEncoder, WhisperEncoderLayer, WhisperAttention):
two biased Conv1d (num_mel_bins to d_model, kernel 3; d_model to d_model, kernel 3, stride 2), a learned
(max_source_positions, d_model) position table (an nn.Embedding set requires_grad False: still a parameter, in the
state dict, so counted, and frozen), encoder_layers layers of a pre-norm block (self_attn k_proj without bias, v_proj,
q_proj, out_proj biased; self_attn_layer_norm, fc1, fc2, final_layer_norm: LayerNorms with bias), then layer_norm.

The interface other modules build on (kept stable; helper N's Whisper seq2seq family reads it):
- ``encoder(prefix, config, where, key="audio_config", component="audio", spellings=...)`` -> ``WhisperEncoder``:
  the tower of a config that holds the encoder keys (an audio_config over its class's defaults, or WhisperConfig
  itself), each key read under its config class's spelling or its attribute_map alias (``SPELLINGS``); a bad size
  is refused in one line naming ``key.<its key>`` (``key=""``: the key alone).
- ``WhisperEncoder.tensors()`` (full names, registration order, ``component``; the position table frozen),
  ``buffers()`` (none), ``embedding_tables()`` (the position table: an nn.Embedding), ``hidden_size`` (d_model,
  what a projector reads).
- ``TOWERS``: the audio_config model_types built so (towers.tower_kinds)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind

_new = tuple.__new__

WHISPER_KEYS = ("d_model", "encoder_layers", "encoder_attention_heads", "encoder_ffn_dim", "num_mel_bins",
                "max_source_positions")
"""The encoder's sizes, WhisperConfig's names (the fields of WhisperEncoder, in order)."""

SPELLINGS: Mapping[str, tuple[str, ...]] = {
    "d_model": ("d_model", "hidden_size"), "encoder_layers": ("encoder_layers", "num_hidden_layers"),
    "encoder_attention_heads": ("encoder_attention_heads", "num_attention_heads"),
    "encoder_ffn_dim": ("encoder_ffn_dim", "intermediate_size"), "num_mel_bins": ("num_mel_bins",),
    "max_source_positions": ("max_source_positions",)}
"""Each size's spellings: WhisperConfig's and Qwen2AudioEncoderConfig's own name first, then the attribute_map alias
(VoxtralEncoderConfig and AudioFlamingo3EncoderConfig store hidden_size, num_hidden_layers, num_attention_heads and
intermediate_size and map d_model, encoder_* to them)."""


class WhisperEncoder(NamedTuple):
    """One Whisper-style encoder as a config gives it, under its module path."""
    prefix: str  # e.g. "model.audio_tower."
    d_model: int
    encoder_layers: int
    encoder_attention_heads: int
    encoder_ffn_dim: int
    num_mel_bins: int
    max_source_positions: int
    component: str = "audio"

    @property
    def hidden_size(self) -> int:
        return self.d_model

    def tensors(self) -> list[Tensor]:
        """Every tensor, full names, in transformers' registration order."""
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, ffn, p, component = self.d_model, self.encoder_ffn_dim, self.prefix, self.component
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...], frozen: bool = False) -> None:
            out.append(_new(Tensor, (p + name, shape, component, None, frozen, 0)))

        add("conv1.weight", (d, self.num_mel_bins, 3))
        add("conv1.bias", (d,))
        add("conv2.weight", (d, d, 3))
        add("conv2.bias", (d,))
        add("embed_positions.weight", (self.max_source_positions, d), True)  # requires_grad_(False)
        encoder_layers(add, self.encoder_layers, d, ffn)
        add("layer_norm.weight", (d,))
        add("layer_norm.bias", (d,))
        return tuple(out)

    def embedding_tables(self) -> list[str]:
        """Its nn.Embedding tables: the position table (num_parameters(exclude_embeddings) drops it)."""
        return [self.prefix + "embed_positions.weight"]

    def buffers(self) -> list[Buffer]:
        return []


def encoder_layers(add: Any, count: int, d: int, ffn: int, key_bias: bool = False) -> None:
    """``count`` WhisperEncoderLayers of width ``d`` through ``add(name, shape)``: self_attn's k_proj (biased only
    where ``key_bias``: Qwen3-ASR's), v_proj, q_proj, out_proj, self_attn_layer_norm, fc1, fc2, final_layer_norm."""
    for i in range(count):
        layer = f"layers.{i}."
        add(layer + "self_attn.k_proj.weight", (d, d))
        if key_bias:
            add(layer + "self_attn.k_proj.bias", (d,))
        for proj in ("v_proj", "q_proj", "out_proj"):
            add(layer + f"self_attn.{proj}.weight", (d, d))
            add(layer + f"self_attn.{proj}.bias", (d,))
        for name, shape in (("self_attn_layer_norm.weight", (d,)), ("self_attn_layer_norm.bias", (d,)),
                            ("fc1.weight", (ffn, d)), ("fc1.bias", (ffn,)), ("fc2.weight", (d, ffn)),
                            ("fc2.bias", (d,)), ("final_layer_norm.weight", (d,)), ("final_layer_norm.bias", (d,))):
            add(layer + name, shape)


@lru_cache(maxsize=64)
def _listed(tower: WhisperEncoder) -> tuple[Tensor, ...]:
    """A tower's tensors, listed once per tower (frozen: a count of the same model lists them again from here)."""
    return tower.listed()


def sized(config: Mapping[str, Any], name: str, spellings: tuple[str, ...], own: Mapping[str, Any], key: str,
          where: str | None) -> int:
    """One size: an alias the config gives (one its class does not store: ``own``) wins over the class's own
    key, as attribute_map sets the stored field; refused in one line unless a positive whole number."""
    spelled = next((s for s in spellings[1:] if s in config and s not in own), spellings[0])
    value = config.get(spelled)
    if type(value) is not int or value <= 0:
        raise ArchitectureError(f"{key}.{spelled}" if key else spelled, f"must be a positive whole number, got "
                                f"{value!r}", where)
    return value


def encoder(prefix: str, config: Mapping[str, Any], where: str | None, key: str = "audio_config",
            component: str = "audio", spellings: Mapping[str, tuple[str, ...]] = SPELLINGS,
            own: Mapping[str, Any] = {}) -> WhisperEncoder:
    """The Whisper-style encoder of ``config`` (the keys over its class's defaults); ``own``: the keys its class
    stores (its defaults), so that an alias the config gives is read over a stored default."""
    sizes = [sized(config, name, spellings[name], own, key, where) for name in WHISPER_KEYS]
    width, heads = sizes[0], sizes[2]
    if width % heads:  # WhisperAttention: "embed_dim must be divisible by num_heads"
        heads_key = next((s for s in spellings["encoder_attention_heads"][1:] if s in config and s not in own),
                         spellings["encoder_attention_heads"][0])
        raise ArchitectureError(f"{key}.{heads_key}" if key else heads_key,
                                f"{heads} heads do not divide the width {width}", where)
    return WhisperEncoder(prefix, *sizes, component=component)


def whisper_kind(defaults: Mapping[str, Any]) -> TowerKind:
    """A TowerKind of a Whisper-style audio_config class with ``defaults`` (its own spellings)."""
    def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> WhisperEncoder:
        return encoder(prefix, audio, where, own=defaults)
    return TowerKind(defaults, make)


QWEN2_AUDIO_ENCODER = {"num_mel_bins": 128, "encoder_layers": 32, "encoder_attention_heads": 20,
                       "encoder_ffn_dim": 5120, "d_model": 1280, "max_source_positions": 1500}
"""transformers 5.24.0 models/qwen2_audio/configuration_qwen2_audio.py (Qwen2AudioEncoderConfig)."""
VOXTRAL_ENCODER = {"hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32, "num_attention_heads": 20,
                   "num_mel_bins": 128, "max_source_positions": 1500}
"""transformers 5.24.0 models/voxtral/configuration_voxtral.py (VoxtralEncoderConfig: d_model and encoder_* mapped
to these)."""
AUDIOFLAMINGO3_ENCODER = {"num_mel_bins": 128, "num_hidden_layers": 32, "num_attention_heads": 20,
                          "intermediate_size": 5120, "hidden_size": 1280, "max_source_positions": 1500}
"""transformers 5.24.0 models/audioflamingo3/configuration_audioflamingo3.py (AudioFlamingo3EncoderConfig)."""
MOSS_AUDIO = {"num_mel_bins": 80, "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096,
              "hidden_size": 1024, "max_source_positions": 1500}
"""transformers 5.24.0 models/moss_transcribe_diarize/configuration_moss_transcribe_diarize.py
(MossTranscribeDiarizeAudioConfig, stored as Voxtral's encoder config stores its sizes)."""
VOXTRAL_SPELLINGS = {name: (*spellings[1:], spellings[0]) for name, spellings in SPELLINGS.items()}
"""VoxtralEncoderConfig's and AudioFlamingo3EncoderConfig's spellings: the stored name first, then the alias."""


def _stored_as(defaults: Mapping[str, Any]) -> TowerKind:
    """A Whisper-style class that stores hidden_size and the rest under their Llama names (Voxtral's)."""
    def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> WhisperEncoder:
        return encoder(prefix, audio, where, spellings=VOXTRAL_SPELLINGS, own=defaults)
    return TowerKind(defaults, make)


TOWERS = {"qwen2_audio_encoder": whisper_kind(QWEN2_AUDIO_ENCODER),
          "voxtral_encoder": _stored_as(VOXTRAL_ENCODER),
          "audioflamingo3_encoder": _stored_as(AUDIOFLAMINGO3_ENCODER),
          "moss_transcribe_diarize_audio": _stored_as(MOSS_AUDIO)}
