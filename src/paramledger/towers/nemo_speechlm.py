"""Nemotron 3.5 Transcribe's audio tower and its word-timestamp encoder.  transformers 5.24.0
models/nemotron3_5_transcribe/modeling_nemotron3_5_transcribe.py (Nemotron3_5TranscribeAudioModel,
Nemotron3_5TranscribeAsrAudioModel, Nemotron3_5TranscribeWordTimestampModel, Nemotron3_5TranscribeAttention,
Nemotron3_5TranscribeSpeakerEmbedding) and models/nemotron3_diarization/modeling_nemotron3_diarization.py
(Nemotron3DiarizationForAudioFrameClassification, the diarization model the audio tower builds by
AutoModelForAudioFrameClassification).

Every encoder here is one stack: a bias-free projection of subsampling_factor stacked mel frames (the word-timestamp
encoder: a biased ConvTranspose1d upsampler instead), an input LayerNorm, layers (q, k and v bias-free, k at
num_key_value_heads and v at num_attention_heads, each head head_dim wide (the config's, else hidden // heads), o
biased; the ASR and word-timestamp encoders add a LayerNorm over each head of q and of k; two LayerNorms, a biased
fc1/fc2 MLP), a final LayerNorm and a rotary buffer pair of int(head_dim × partial_rotary_factor) channels.

The audio tower (``model.audio_tower``): the ASR encoder, then the diarization model (silence_embeds, its own encoder
under model.audio_tower, a biased proj and sub-pixel upsampler Conv1d of its head_config, a two-Linear classifier),
asr_norm and speaker_norm; a fixed sinusoidal speaker table (num_speakers × the ASR width, a float32 buffer).
The word-timestamp encoder (``model.word_timestamp_encoder``, a sub-config of its own) carries the head transformers
registers last, word_timestamp_head (a kernel-1 Conv1d to its vocabulary)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, positive, stamped

_new = tuple.__new__
AUDIO = "nemotron3_5_transcribe_audio"
WORD_TIMESTAMP = "nemotron3_5_transcribe_word_timestamp"
HALF = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5}
FULL = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 1.0}
STACK = {"hidden_act": "gelu", "max_position_embeddings": 5000, "rope_parameters": None, "num_key_value_heads": None,
         "num_mel_bins": 128, "subsampling_factor": 8}
ASR = {**STACK, "hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32, "num_attention_heads": 10}
"""configuration_nemotron3_5_transcribe.py (Nemotron3_5TranscribeAsrAudioConfig)."""
DIARIZATION_AUDIO = {**STACK, "hidden_size": 512, "intermediate_size": 2048, "num_hidden_layers": 31,
                     "num_attention_heads": 8}
"""nemotron3_diarization/configuration_nemotron3_diarization.py (Nemotron3DiarizationAudioConfig)."""
HEAD = {"hidden_size": 192, "num_speakers": 8, "audio_hidden_size": 512, "subsampling_factor": 8}
"""The same file (Nemotron3DiarizationHeadConfig)."""
STREAMING = {"num_speakers": 8, "subsampling_factor": 8, "speaker_cache_length": 264,
             "speaker_cache_silence_frames_per_speaker": 1}
"""The same file (Nemotron3DiarizationStreamingConfig: the fields its checks read)."""
DIARIZATION = {"model_type": "nemotron3_diarization", "chunk_length": 340, "chunk_right_context": 40}
"""The same file (Nemotron3DiarizationConfig); the audio tower's default one is built with chunk_length 500,
chunk_right_context 50 and streaming_config.speaker_cache_length 188 (Nemotron3_5TranscribeAudioConfig)."""
DIARIZATION_DEFAULT = {**DIARIZATION, "chunk_length": 500, "chunk_right_context": 50,
                       "streaming_config": {"speaker_cache_length": 188}}
WORD = {**STACK, "hidden_size": 1280, "intermediate_size": 640, "num_hidden_layers": 2, "num_attention_heads": 16,
        "vocab_size": 23863, "blank_token_id": 23862, "upsampling_factor": 2}
"""configuration_nemotron3_5_transcribe.py (Nemotron3_5TranscribeWordTimestampConfig)."""


class Stack(NamedTuple):
    """One encoder stack's layers, norms and rotary buffers, under ``prefix``."""
    prefix: str
    hidden: int
    inner: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    qk_norm: bool
    rotary: int  # the rotary's inv_freq entries

    def tensors(self, stem: list[tuple[str, tuple[int, ...]]]) -> list[Tensor]:
        d, width, p = self.hidden, self.heads * self.head_dim, self.prefix
        block = [("self_attn.q_proj.weight", (width, d)), ("self_attn.k_proj.weight", (self.kv_heads * self.head_dim, d)),
                 ("self_attn.v_proj.weight", (width, d)), ("self_attn.o_proj.weight", (d, width)),
                 ("self_attn.o_proj.bias", (d,))]
        if self.qk_norm:
            block += [(f"self_attn.{which}_norm.{part}", (self.head_dim,)) for which in "qk" for part in ("weight", "bias")]
        block += [("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,)), ("mlp.fc1.weight", (self.inner, d)),
                  ("mlp.fc1.bias", (self.inner,)), ("mlp.fc2.weight", (d, self.inner)), ("mlp.fc2.bias", (d,)),
                  ("layer_norm2.weight", (d,)), ("layer_norm2.bias", (d,))]
        head = [*stem, ("input_layer_norm.weight", (d,)), ("input_layer_norm.bias", (d,))]
        return ([_new(Tensor, (p + name, shape, "audio", None, False, 0)) for name, shape in head]
                + stamped([f"{p}layers.{i}." for i in range(self.layers)], block, "audio")
                + [_new(Tensor, (p + name, (d,), "audio", None, False, 0)) for name in ("layer_norm.weight",
                                                                                      "layer_norm.bias")])

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"{self.prefix}rotary_emb.{name}", (self.rotary,), "float32", False)
                for name in ("inv_freq", "original_inv_freq")]


def _stack(prefix: str, config: Mapping[str, Any], key: str, qk_norm: bool, where: str | None,
           rope_default: Mapping[str, Any] = HALF) -> Stack:
    """A stack's sizes read as its config class reads them, each refused in one line under ``key``; a null
    rope_parameters is ``rope_default`` (the ASR and word-timestamp configs' __post_init__ set a half rotary, the
    diarization encoder's a full one: its partial_rotary_factor kwarg defaults to 1.0 first)."""
    sizes = {name: positive(config, name, key, where) for name in
             ("hidden_size", "intermediate_size", "num_attention_heads")}
    layers = config.get("num_hidden_layers")
    if type(layers) is not int or layers < 0:
        raise ArchitectureError(f"{key}.num_hidden_layers", f"must be a whole number from 0, got {layers!r}"[:200],
                                where)
    hidden, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    if hidden % heads:  # validate_architecture
        raise ArchitectureError(f"{key}.num_attention_heads", f"{heads} heads do not divide hidden_size={hidden} "
                                "(transformers refuses it)", where)
    kv = heads if config.get("num_key_value_heads") is None else positive(config, "num_key_value_heads", key, where)
    head_dim = hidden // heads if config.get("head_dim") is None else positive(config, "head_dim", key, where)
    rope = config.get("rope_parameters")
    rope = rope_default if rope is None else rope
    if not isinstance(rope, Mapping):
        raise ArchitectureError(f"{key}.rope_parameters", "must be a JSON object", where)
    factor = rope.get("partial_rotary_factor", 1.0)
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0 < factor <= 1:
        raise ArchitectureError(f"{key}.rope_parameters.partial_rotary_factor", f"must be a number in (0, 1], got "
                                f"{factor!r}"[:200], where)
    if config.get("head_dim") is not None and head_dim > 4 and head_dim % 2 and int(head_dim * factor) == head_dim:
        raise ArchitectureError(f"{key}.head_dim", f"{head_dim} with a full rotary: RoPE needs an even rotary "
                                "dimension (transformers' validate_rope refuses it)", where)
    return Stack(prefix, hidden, sizes["intermediate_size"], layers, heads, kv, head_dim, qk_norm,
                 (int(head_dim * factor) + 1) // 2)


class AudioTower(NamedTuple):
    prefix: str  # "model.audio_tower."
    asr: Stack
    asr_stem: int  # subsampling_factor × num_mel_bins: the ASR projection's input
    diarization: Stack
    diarization_stem: int
    head_hidden: int  # diarization_config.head_config.hidden_size
    head_audio: int  # its audio_hidden_size (proj's input)
    speakers: int  # num_speakers
    subsampling: int  # the head's subsampling_factor (the upsampler's factor)

    @property
    def hidden_size(self) -> int:
        """The ASR encoder's width: what the projector reads (Nemotron3_5TranscribeAudioConfig.hidden_size)."""
        return self.asr.hidden

    def tensors(self) -> list[Tensor]:
        p, h, sub = self.prefix + "diarization_model.", self.head_hidden, self.subsampling
        out = self.asr.tensors([("embedder.projection.weight", (self.asr.hidden, self.asr_stem))])
        out.append(_new(Tensor, (p + "silence_embeds", (self.diarization.hidden,), "audio", None, False, 0)))
        out += self.diarization.tensors([("embedder.projection.weight", (self.diarization.hidden,
                                                                         self.diarization_stem))])
        tail = [(p + "model.proj.weight", (h, self.head_audio)), (p + "model.proj.bias", (h,)),
                (p + "model.upsampler.conv.weight", (h * sub, h, 3)), (p + "model.upsampler.conv.bias", (h * sub,)),
                (p + "classifier.dense.weight", (h, h)), (p + "classifier.dense.bias", (h,)),
                (p + "classifier.out_proj.weight", (self.speakers, h)), (p + "classifier.out_proj.bias",
                                                                         (self.speakers,)),
                (self.prefix + "asr_norm.weight", (self.asr.hidden,)), (self.prefix + "asr_norm.bias", (self.asr.hidden,)),
                (self.prefix + "speaker_norm.weight", (self.speakers,)),
                (self.prefix + "speaker_norm.bias", (self.speakers,))]
        return out + [_new(Tensor, (name, shape, "audio", None, False, 0)) for name, shape in tail]

    def buffers(self) -> list[Buffer]:
        return [*self.asr.buffers(), *self.diarization.buffers(),
                Buffer(self.prefix + "speaker_embedding.weight", (self.speakers, self.asr.hidden), "float32", False)]


def _section(config: Mapping[str, Any], key: str, defaults: Mapping[str, Any], path: str,
             where: str | None) -> dict[str, Any]:
    """The sub-config ``key`` over its class's ``defaults`` (absent or null: the defaults), refused in one line under
    its full ``path`` unless a JSON object."""
    given = config.get(key)
    if given is None:
        return dict(defaults)
    if not isinstance(given, Mapping):
        raise ArchitectureError(path, "must be a JSON object", where)
    return {**defaults, **given}


def _equal(key: str, value: int, other_key: str, other: int, where: str | None) -> None:
    if value != other:
        raise ArchitectureError(key, f"{value} must equal {other_key}={other} (transformers refuses it)", where)


def audio_tower(prefix: str, config: Mapping[str, Any], where: str | None) -> AudioTower:
    """Nemotron3_5TranscribeAudioConfig over its defaults: asr_config, and diarization_config (its audio_config,
    head_config and streaming_config), with the checks their validate_architecture makes."""
    key = "audio_config"
    asr_config = _section(config, "asr_config", ASR, f"{key}.asr_config", where)
    diarization = (_section(config, "diarization_config", DIARIZATION, f"{key}.diarization_config", where)
                   if config.get("diarization_config") is not None else dict(DIARIZATION_DEFAULT))
    if diarization.get("model_type") != "nemotron3_diarization":
        raise ArchitectureError(f"{key}.diarization_config.model_type", f"{diarization.get('model_type')!r} is a "
                                "diarization model paramledger does not build (it builds nemotron3_diarization)", where)
    where_d = f"{key}.diarization_config"
    audio = _section(diarization, "audio_config", DIARIZATION_AUDIO, f"{where_d}.audio_config", where)
    head = _section(diarization, "head_config", HEAD, f"{where_d}.head_config", where)
    streaming = _section(diarization, "streaming_config", STREAMING, f"{where_d}.streaming_config", where)
    asr = _stack(prefix + "asr_encoder.", asr_config, f"{key}.asr_config", True, where)
    if asr.hidden % 2:  # Nemotron3_5TranscribeSpeakerEmbedding fills sines at the even and cosines at the odd columns
        raise ArchitectureError(f"{key}.asr_config.hidden_size", f"{asr.hidden} is odd: the speaker table's sines and "
                                "cosines need an even width (transformers cannot build it)", where)
    diarize = _stack(prefix + "diarization_model.model.audio_tower.", audio, f"{where_d}.audio_config", False, where,
                     FULL)
    stems = [positive(part, name, f"{at}", where) for part, at in ((asr_config, f"{key}.asr_config"),
                                                                   (audio, f"{where_d}.audio_config"))
             for name in ("subsampling_factor", "num_mel_bins")]
    heads = {name: positive(head, name, f"{where_d}.head_config", where) for name in HEAD}
    for name in ("num_speakers", "subsampling_factor", "speaker_cache_length"):
        positive(streaming, name, f"{where_d}.streaming_config", where)
    silence = streaming.get("speaker_cache_silence_frames_per_speaker")
    if type(silence) is not int or silence < 0:
        raise ArchitectureError(f"{where_d}.streaming_config.speaker_cache_silence_frames_per_speaker",
                                f"must be a whole number from 0, got {silence!r}"[:200], where)
    for name in ("chunk_length", "chunk_right_context"):
        if type(diarization.get(name)) is not int:
            raise ArchitectureError(f"{where_d}.{name}", f"must be a whole number, got {diarization.get(name)!r}"[:200],
                                    where)
    # Nemotron3_5TranscribeAudioConfig.validate_architecture, then Nemotron3DiarizationConfig's
    _equal(f"{key}.asr_config.subsampling_factor", stems[0], f"{where_d}.audio_config.subsampling_factor", stems[2],
           where)
    if diarization["chunk_right_context"] >= diarization["chunk_length"]:
        raise ArchitectureError(f"{where_d}.chunk_right_context", f"{diarization['chunk_right_context']} must be "
                                f"smaller than chunk_length={diarization['chunk_length']} (transformers refuses it)",
                                where)
    _equal(f"{where_d}.head_config.audio_hidden_size", heads["audio_hidden_size"],
           f"{where_d}.audio_config.hidden_size", diarize.hidden, where)
    _equal(f"{where_d}.head_config.subsampling_factor", heads["subsampling_factor"],
           f"{where_d}.audio_config.subsampling_factor", stems[2], where)
    _equal(f"{where_d}.streaming_config.num_speakers", streaming["num_speakers"],
           f"{where_d}.head_config.num_speakers", heads["num_speakers"], where)
    _equal(f"{where_d}.streaming_config.subsampling_factor", streaming["subsampling_factor"],
           f"{where_d}.audio_config.subsampling_factor", stems[2], where)
    least = (1 + silence) * streaming["num_speakers"]
    if streaming["speaker_cache_length"] < least:
        raise ArchitectureError(f"{where_d}.streaming_config.speaker_cache_length", f"{streaming['speaker_cache_length']}"
                                f" must be at least (1 + speaker_cache_silence_frames_per_speaker) × num_speakers = "
                                f"{least} (transformers refuses it)", where)
    return AudioTower(prefix, asr, stems[0] * stems[1], diarize, stems[2] * stems[3], heads["hidden_size"],
                      heads["audio_hidden_size"], heads["num_speakers"], heads["subsampling_factor"])


class WordTimestamps(NamedTuple):
    stack: Stack  # under "model.word_timestamp_encoder."
    upsampling: int  # upsampling_factor
    vocab: int  # vocab_size: word_timestamp_head's classes

    def tensors(self) -> list[Tensor]:
        d = self.stack.hidden
        out = self.stack.tensors([("upsampler.weight", (d, d, self.upsampling)), ("upsampler.bias", (d,))])
        return out + [_new(Tensor, (name, shape, "audio", None, False, 0)) for name, shape in (
            ("word_timestamp_head.weight", (self.vocab, d, 1)), ("word_timestamp_head.bias", (self.vocab,)))]

    def buffers(self) -> list[Buffer]:
        return self.stack.buffers()


def word_timestamps(prefix: str, config: Mapping[str, Any], where: str | None) -> WordTimestamps:
    key = "word_timestamp_config"
    stack = _stack(prefix, config, key, True, where)
    vocab = positive(config, "vocab_size", key, where)
    upsampling = positive(config, "upsampling_factor", key, where)
    blank = config.get("blank_token_id")
    if type(blank) is not int or not 0 <= blank < vocab:  # validate_architecture
        raise ArchitectureError(f"{key}.blank_token_id", f"{blank!r} must be a class below vocab_size={vocab} "
                                "(transformers refuses it)"[:200], where)
    return WordTimestamps(stack, upsampling, vocab)


def projector(config: Mapping[str, Any], tower: AudioTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """multi_modal_projector: one biased Linear from the ASR encoder's width into the decoder's."""
    return [("weight", (hidden, tower.hidden_size)), ("bias", (hidden,))]


TOWERS = {AUDIO: TowerKind({"asr_config": None, "diarization_config": None}, audio_tower),
          WORD_TIMESTAMP: TowerKind(WORD, word_timestamps)}
