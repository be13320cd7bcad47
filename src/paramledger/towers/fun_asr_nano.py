"""Fun-ASR-Nano's audio tower (FunAsrNanoEncoder, SenseVoice's SAN-M encoder) and its projector (transformers 5.24.0
models/fun_asr_nano/modeling_fun_asr_nano.py).

The tower: a sinusoid buffer (max_position_embeddings, input_size: num_mel_bins × num_stacked_frames, even), then
num_hidden_layers layers, each q_proj, k_proj, v_proj (from input_size in the first layer, hidden_size after), o_proj,
all biased, the FSMN's depthwise Conv1d (fsmn_kernel_size, no bias), an MLP of biased fc1 and fc2, input_layernorm (at
the layer's input width), post_attention_layernorm, and a final_layernorm only in the last transcription layer
(num_hidden_layers - num_timestamp_prediction_layers - 1) and the last layer.  The projector: linear_1 from the
encoder's width to adaptor_config's projector_hidden_size, linear_2 to its hidden_size, then its num_hidden_layers
layers of the same kind without the FSMN (all biased)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, section
from .audio import sized

_new = tuple.__new__
Named = list[tuple[str, tuple[int, ...]]]


def layer(width_in: int, d: int, ffn: int, fsmn: int, final_norm: bool) -> Named:
    """One FunAsrNanoEncoderLayer under its own path ("" prefix); ``fsmn``: the kernel (0: none)."""
    out: Named = [("self_attn.q_proj.weight", (d, width_in)), ("self_attn.q_proj.bias", (d,)),
                  ("self_attn.k_proj.weight", (d, width_in)), ("self_attn.k_proj.bias", (d,)),
                  ("self_attn.v_proj.weight", (d, width_in)), ("self_attn.v_proj.bias", (d,)),
                  ("self_attn.o_proj.weight", (d, d)), ("self_attn.o_proj.bias", (d,))]
    if fsmn:
        out.append(("self_attn.fsmn.conv.weight", (d, 1, fsmn)))
    out += [("mlp.fc1.weight", (ffn, d)), ("mlp.fc1.bias", (ffn,)), ("mlp.fc2.weight", (d, ffn)), ("mlp.fc2.bias", (d,)),
            ("input_layernorm.weight", (width_in,)), ("input_layernorm.bias", (width_in,)),
            ("post_attention_layernorm.weight", (d,)), ("post_attention_layernorm.bias", (d,))]
    if final_norm:
        out += [("final_layernorm.weight", (d,)), ("final_layernorm.bias", (d,))]
    return out


class FunAsrNanoEncoder(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_mel_bins: int
    num_stacked_frames: int
    max_position_embeddings: int
    fsmn_kernel_size: int
    num_timestamp_prediction_layers: int

    @property
    def input_size(self) -> int:
        return self.num_mel_bins * self.num_stacked_frames

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, count = self.hidden_size, self.prefix, self.num_hidden_layers
        normed = (count - self.num_timestamp_prediction_layers - 1, count - 1)
        return tuple(_new(Tensor, (f"{p}layers.{i}.{name}", shape, "audio", None, False, 0))
                     for i in range(count)
                     for name, shape in layer(self.input_size if i == 0 else d, d, self.intermediate_size,
                                              self.fsmn_kernel_size, i in normed))

    def buffers(self) -> list[Buffer]:
        return [Buffer(self.prefix + "position_embeddings.positional_embedding",
                       (self.max_position_embeddings, self.input_size), "float32", False)]


@lru_cache(maxsize=64)
def _listed(tower: FunAsrNanoEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


FUN_ASR_NANO_ENCODER = {"num_mel_bins": 80, "hidden_size": 512, "num_attention_heads": 4, "intermediate_size": 2048,
                        "num_hidden_layers": 70, "max_position_embeddings": 2049, "num_stacked_frames": 7,
                        "num_timestamp_prediction_layers": 20, "fsmn_kernel_size": 11}
"""transformers 5.24.0 models/fun_asr_nano/configuration_fun_asr_nano.py (FunAsrNanoEncoderConfig)."""
SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_mel_bins", "num_stacked_frames",
         "max_position_embeddings", "fsmn_kernel_size")


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> FunAsrNanoEncoder:
    sizes = [sized(audio, name, (name,), FUN_ASR_NANO_ENCODER, "audio_config", where) for name in SIZES]
    heads = audio.get("num_attention_heads")
    if type(heads) is not int or not 0 < heads <= sizes[0]:  # FunAsrNanoAttention's scaling: head_dim ** -0.5
        raise ArchitectureError("audio_config.num_attention_heads", f"must be a whole number from 1 to hidden_size "
                                f"({sizes[0]}), got {heads!r}", where)
    timestamps = audio.get("num_timestamp_prediction_layers")
    if type(timestamps) is not int or timestamps < 0:
        raise ArchitectureError("audio_config.num_timestamp_prediction_layers", f"must be a whole number from 0, got "
                                f"{timestamps!r}", where)
    tower = FunAsrNanoEncoder(prefix, *sizes, timestamps)
    if tower.input_size % 2 or tower.input_size < 4:  # FunAsrNanoPositionEmbedding: even channels, and its
        # log-timescale step divides by channels // 2 - 1
        raise ArchitectureError("audio_config.num_mel_bins", f"× num_stacked_frames must be even and at least 4 for "
                                f"the sinusoid positions, got {tower.input_size}", where)
    return tower


TOWERS = {"fun_asr_nano_encoder": TowerKind(FUN_ASR_NANO_ENCODER, make)}

ADAPTOR = {"hidden_size": 1024, "intermediate_size": 256, "num_hidden_layers": 2, "projector_hidden_size": 2048}
"""transformers 5.24.0 models/fun_asr_nano/configuration_fun_asr_nano.py (FunAsrNanoAdaptorConfig; FunAsrNanoConfig's
init_kwargs when no adaptor_config is given are the same hidden_size and intermediate_size)."""


def fun_asr_nano(config: Mapping[str, Any], audio: Any, hidden: int) -> Named:
    merged = section(config, "adaptor_config", ADAPTOR)
    width, ffn, count, inner = (sized(merged, key, (key,), ADAPTOR, "adaptor_config", None) if key != "num_hidden_layers"
                                else merged[key] for key in ADAPTOR)
    if type(count) is not int or count < 0:
        raise ArchitectureError("adaptor_config.num_hidden_layers", f"must be a whole number from 0, got {count!r}")
    if width != hidden:  # FunAsrNanoConfig.validate_architecture
        raise ArchitectureError("adaptor_config.hidden_size", f"{width} must match text_config.hidden_size ({hidden})")
    heads = merged.get("num_attention_heads", 8)
    if type(heads) is not int or not 0 < heads <= width:  # FunAsrNanoAttention's scaling: head_dim ** -0.5
        raise ArchitectureError("adaptor_config.num_attention_heads", f"must be a whole number from 1 to hidden_size "
                                f"({width}), got {heads!r}")
    if ffn != hidden // 4:
        raise ArchitectureError("adaptor_config.intermediate_size", f"{ffn} must equal text_config.hidden_size // 4 "
                                f"({hidden // 4})")
    out: Named = [("linear_1.weight", (inner, audio.hidden_size)), ("linear_1.bias", (inner,)),
                  ("linear_2.weight", (width, inner)), ("linear_2.bias", (width,))]
    return out + [(f"layers.{i}.{name}", shape) for i in range(count) for name, shape in layer(width, width, ffn, 0,
                                                                                                False)]
