"""GLM-ASR's audio tower (GlmAsrEncoder): Whisper's two convolutions and a final LayerNorm around Llama-named layers
with rotary positions instead of a position table, and its projector.

transformers 5.24.0 models/glmasr/modeling_glmasr.py (GlmAsrEncoder, GlmAsrEncoderLayer, GlmAsrAttention,
GlmAsrMLP, GlmAsrRotaryEmbedding, GlmAsrMultiModalProjector): conv1 (num_mel_bins to hidden_size, kernel 3) and conv2
(kernel 3, stride 2), biased; each layer a GQA attention (q_proj, v_proj and o_proj biased, k_proj not; head_dim
read by getattr, hidden_size // num_attention_heads when absent), an MLP of biased fc1 and fc2, input_layernorm and
post_attention_layernorm (LayerNorms with bias, registered after the attention and MLP); the final ``norm``; the
rotary inv_freq pair (int(head_dim × partial_rotary_factor) wide, the factor 0.5 unless the config says)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .audio import sized

_new = tuple.__new__
SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_mel_bins")


class GlmAsrEncoder(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_mel_bins: int
    num_key_value_heads: int
    head_dim: int
    rotary_dim: int  # int(head_dim × partial_rotary_factor)

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, ffn = self.hidden_size, self.prefix, self.intermediate_size
        q, kv = self.num_attention_heads * self.head_dim, self.num_key_value_heads * self.head_dim
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "audio", None, False, 0)))

        add("conv1.weight", (d, self.num_mel_bins, 3))
        add("conv1.bias", (d,))
        add("conv2.weight", (d, d, 3))
        add("conv2.bias", (d,))
        for i in range(self.num_hidden_layers):
            layer = f"layers.{i}."
            for name, shape in (("self_attn.q_proj.weight", (q, d)), ("self_attn.q_proj.bias", (q,)),
                                ("self_attn.k_proj.weight", (kv, d)), ("self_attn.v_proj.weight", (kv, d)),
                                ("self_attn.v_proj.bias", (kv,)), ("self_attn.o_proj.weight", (d, q)),
                                ("self_attn.o_proj.bias", (d,)), ("mlp.fc1.weight", (ffn, d)), ("mlp.fc1.bias", (ffn,)),
                                ("mlp.fc2.weight", (d, ffn)), ("mlp.fc2.bias", (d,)),
                                ("input_layernorm.weight", (d,)), ("input_layernorm.bias", (d,)),
                                ("post_attention_layernorm.weight", (d,)), ("post_attention_layernorm.bias", (d,))):
                add(layer + name, shape)
        add("norm.weight", (d,))
        add("norm.bias", (d,))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        """The rotary inv_freq and its original copy, float32, non-persistent (arange(0, dim, 2): ceil(dim / 2))."""
        rows = (self.rotary_dim + 1) // 2
        return [Buffer(self.prefix + "rotary_emb." + name, (rows,), "float32", False)
                for name in ("inv_freq", "original_inv_freq")]


@lru_cache(maxsize=64)
def _listed(tower: GlmAsrEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


def _factor(audio: Mapping[str, Any], where: str | None) -> Any:
    """partial_rotary_factor where the config gives it (rope_parameters, else the top level), else 0.5
    (GlmAsrEncoderConfig.__post_init__'s default)."""
    rope = audio.get("rope_parameters")
    factor = rope.get("partial_rotary_factor") if isinstance(rope, Mapping) else None
    factor = audio.get("partial_rotary_factor") if factor is None else factor
    factor = 0.5 if factor is None else factor
    if type(factor) not in (int, float) or not 0 < factor <= 1:
        raise ArchitectureError("audio_config.rope_parameters.partial_rotary_factor", f"must be a number in (0, 1], "
                                f"got {factor!r}", where)
    return factor


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> GlmAsrEncoder:
    sizes = [sized(audio, name, (name,), {}, "audio_config", where) for name in SIZES]
    width, heads = sizes[0], sizes[3]
    kv = audio.get("num_key_value_heads")
    kv = heads if kv is None else sized(audio, "num_key_value_heads", ("num_key_value_heads",), {}, "audio_config",
                                        where)
    head_dim = audio.get("head_dim")
    if head_dim is None:
        head_dim = width // heads
    else:
        head_dim = sized(audio, "head_dim", ("head_dim",), {}, "audio_config", where)
    if head_dim == 0:
        raise ArchitectureError("audio_config.num_attention_heads", f"{heads} heads are more than hidden_size={width}",
                                where)
    return GlmAsrEncoder(prefix, *sizes, kv, head_dim, int(head_dim * _factor(audio, where)))


GLMASR_ENCODER = {"hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32, "num_attention_heads": 20,
                  "num_key_value_heads": None, "num_mel_bins": 128}
"""transformers 5.24.0 models/glmasr/configuration_glmasr.py (GlmAsrEncoderConfig; num_key_value_heads None: the
attention heads)."""

TOWERS = {"glmasr_encoder": TowerKind(GLMASR_ENCODER, make)}


def glmasr(config: Mapping[str, Any], audio: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """GlmAsrMultiModalProjector: linear_1 from audio_config's intermediate_size to twice the text width, linear_2
    back to it, both biased."""
    return [("linear_1.weight", (2 * hidden, audio.intermediate_size)), ("linear_1.bias", (2 * hidden,)),
            ("linear_2.weight", (hidden, 2 * hidden)), ("linear_2.bias", (hidden,))]
