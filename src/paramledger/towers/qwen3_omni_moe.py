"""Qwen3-Omni-MoE's thinker towers (transformers 5.24.0 models/qwen3_omni_moe/modeling_qwen3_omni_moe.py):

- the audio encoder (Qwen3OmniMoeAudioEncoder): Qwen3-ASR's (qwen3_asr.py; its sinusoid table max_source_positions
  rows), then proj1 (d_model to d_model) and proj2 (to output_dim, the decoder's width), both biased: the "projector"
  component, as Qwen2.5-Omni's proj is;
- the vision encoder (Qwen3OmniMoeVisionEncoder): Qwen3-VL's tower (qwen_vl.py) whose deepstack mergers are
  ``merger_list``, registered first, and whose mergers name their parts as Qwen2-VL's do (ln_q, mlp.0, mlp.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .qwen3_asr import Qwen3AsrEncoder, encoder
from .qwen_vl import QWEN3_VL, QWEN3_VL_DEFAULTS, WindowedTower, windowed

_new = tuple.__new__


class OmniMoeAudioEncoder(NamedTuple):
    inner: Qwen3AsrEncoder

    def tensors(self) -> list[Tensor]:
        tower, p = self.inner, self.inner.prefix
        d, out_dim = tower.d_model, tower.output_dim
        return [*tower.tensors(), *(_new(Tensor, (p + name, shape, "projector", None, False, 0)) for name, shape in (
            ("proj1.weight", (d, d)), ("proj1.bias", (d,)), ("proj2.weight", (out_dim, d)), ("proj2.bias", (out_dim,))))]

    def buffers(self) -> list[Buffer]:
        return self.inner.buffers()


OMNI_MOE_AUDIO = {"num_mel_bins": 128, "encoder_layers": 32, "encoder_attention_heads": 20, "encoder_ffn_dim": 5120,
                  "d_model": 1280, "max_source_positions": 1500, "output_dim": 3584, "downsample_hidden_size": 480}
"""transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeAudioEncoderConfig)."""


def make_audio(prefix: str, audio: Mapping[str, Any], where: str | None) -> OmniMoeAudioEncoder:
    return OmniMoeAudioEncoder(encoder(prefix, audio, where, OMNI_MOE_AUDIO, rows="max_source_positions"))


RENAMED = ((".norm.", ".ln_q."), (".linear_fc1.", ".mlp.0."), (".linear_fc2.", ".mlp.2."))


class OmniMoeVisionEncoder(NamedTuple):
    inner: WindowedTower

    @property
    def hidden_size(self) -> int:
        return self.inner.hidden_size

    def tensors(self) -> list[Tensor]:
        p = self.inner.prefix
        out = []
        for tensor in self.inner.tensors():
            name = tensor.name.removeprefix(p)
            if name.startswith(("merger.", "deepstack_merger_list.")):
                name = name.replace("deepstack_merger_list.", "merger_list.", 1)
                for old, new in RENAMED:
                    name = name.replace(old, new)
                tensor = tensor._replace(name=p + name)
            out.append(tensor)
        first = [t for t in out if t.name.startswith(p + "merger_list.")]
        return first + [t for t in out if not t.name.startswith(p + "merger_list.")]

    def embedding_tables(self) -> list[str]:
        return self.inner.embedding_tables()

    def buffers(self) -> list[Buffer]:
        return self.inner.buffers()


_vision = windowed(QWEN3_VL)


def make_vision(prefix: str, vision: Mapping[str, Any], where: str | None) -> OmniMoeVisionEncoder:
    return OmniMoeVisionEncoder(_vision(prefix, vision, where))


OMNI_MOE_VISION = {**QWEN3_VL_DEFAULTS}
"""transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeVisionEncoderConfig:
Qwen3-VL's vision defaults, diffed)."""

TOWERS = {"qwen3_omni_moe_audio_encoder": TowerKind(OMNI_MOE_AUDIO, make_audio),
          "qwen3_omni_moe_vision_encoder": TowerKind(OMNI_MOE_VISION, make_vision)}
