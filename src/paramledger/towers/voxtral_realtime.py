"""Voxtral Realtime's audio tower (VoxtralRealtimeEncoder) and its projector.

transformers 5.24.0 models/voxtral_realtime/modeling_voxtral_realtime.py (VoxtralRealtimeEncoder, -Embedder,
-EncoderLayer, -Attention, -MLP, -RotaryEmbedding, -MultiModalProjector): identical to GLM-ASR's tower
(towers/glmasr.py) except that the two causal convolutions sit under ``embedder.``, the norms are RMSNorms
(self_attn_layer_norm, final_layer_norm, registered between the attention and the MLP), the MLP is Mistral's SwiGLU
with only down_proj biased, and every head is a key-value head (VoxtralRealtimeEncoderConfig's attribute_map sends
num_key_value_heads to num_attention_heads).  head_dim is the config's (64 by default, not width // heads).  The rotary inv_freq pair is ceil(head_dim / 2) wide (its own
compute_default_rope_parameters reads no partial factor)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ..inventory import Buffer, Tensor
from ._kind import TowerKind, odd_rotary, positive
from .audio import sized

_new = tuple.__new__
SPELLINGS = {"hidden_size": ("hidden_size", "d_model"), "intermediate_size": ("intermediate_size", "encoder_ffn_dim"),
             "num_hidden_layers": ("num_hidden_layers", "encoder_layers"),
             "num_attention_heads": ("num_attention_heads", "encoder_attention_heads", "num_key_value_heads"),
             "num_mel_bins": ("num_mel_bins",)}
"""Each size's stored name, then the attribute_map's aliases (an alias the config gives is read over the default)."""


class VoxtralRealtimeEncoder(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int  # every one a key-value head too
    num_mel_bins: int
    head_dim: int

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, ffn = self.hidden_size, self.prefix, self.intermediate_size
        q = self.num_attention_heads * self.head_dim
        block = (("self_attn.q_proj.weight", (q, d)), ("self_attn.q_proj.bias", (q,)),
                 ("self_attn.k_proj.weight", (q, d)), ("self_attn.v_proj.weight", (q, d)),
                 ("self_attn.v_proj.bias", (q,)), ("self_attn.o_proj.weight", (d, q)), ("self_attn.o_proj.bias", (d,)),
                 ("self_attn_layer_norm.weight", (d,)), ("final_layer_norm.weight", (d,)),
                 ("mlp.gate_proj.weight", (ffn, d)), ("mlp.up_proj.weight", (ffn, d)),
                 ("mlp.down_proj.weight", (d, ffn)), ("mlp.down_proj.bias", (d,)))
        named = [("embedder.conv1.weight", (d, self.num_mel_bins, 3)), ("embedder.conv1.bias", (d,)),
                 ("embedder.conv2.weight", (d, d, 3)), ("embedder.conv2.bias", (d,)),
                 *((f"layers.{i}.{name}", shape) for i in range(self.num_hidden_layers) for name, shape in block),
                 ("norm.weight", (d,))]
        return tuple(_new(Tensor, (p + name, shape, "audio", None, False, 0)) for name, shape in named)

    def buffers(self) -> list[Buffer]:
        """The rotary inv_freq and its original copy, float32, non-persistent (arange(0, head_dim, 2))."""
        rows = (self.head_dim + 1) // 2
        return [Buffer(self.prefix + "rotary_emb." + name, (rows,), "float32", False)
                for name in ("inv_freq", "original_inv_freq")]


@lru_cache(maxsize=64)
def _listed(tower: VoxtralRealtimeEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> VoxtralRealtimeEncoder:
    sizes = [sized(audio, name, spellings, ENCODER, "audio_config", where) for name, spellings in SPELLINGS.items()]
    # VoxtralRealtimeEncoderConfig declares head_dim an int (strict: null is refused), 64 unless given
    head_dim = positive(audio, "head_dim", "audio_config", where)
    odd_rotary(audio, head_dim, "audio_config", where)  # (its class's validate_rope: 65 was counted)
    return VoxtralRealtimeEncoder(prefix, *sizes, head_dim)


ENCODER = {"hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_mel_bins": 128, "head_dim": 64}
"""transformers 5.24.0 models/voxtral_realtime/configuration_voxtral_realtime.py (VoxtralRealtimeEncoderConfig; its
vocab_size, max_position_embeddings and sliding_window size nothing it holds)."""

TOWERS = {"voxtral_realtime_encoder": TowerKind(ENCODER, make)}


def projector(config: Mapping[str, Any], audio: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """VoxtralRealtimeMultiModalProjector: Voxtral's two unbiased Linears, linear_1 from downsample_factor (4) frames
    of the encoder's output stacked (audio hidden_size × downsample_factor), linear_2 at the text width."""
    factor = positive({"downsample_factor": 4, **config}, "downsample_factor", "")
    return [("linear_1.weight", (hidden, audio.hidden_size * factor)), ("linear_2.weight", (hidden, hidden))]


def time_embedding(config: Mapping[str, Any], tower: Any) -> list[tuple[str, tuple[int, ...], str, bool]]:
    """VoxtralRealtimeTimeEmbedding (the model's time_embedding): an inv_freq of text hidden_size // 2 frequencies,
    float32, non-persistent.  The width is text_config's (read again here: a model buffer sees the whole config)."""
    text = config.get("text_config") or {}
    hidden = text.get("hidden_size", 3072) if isinstance(text, Mapping) else 3072
    return [("model.time_embedding.inv_freq", (hidden // 2,), "float32", False)]
