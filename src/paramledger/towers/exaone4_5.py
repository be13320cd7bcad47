"""EXAONE 4.5's vision tower: Qwen2.5-VL's (towers/qwen_vl.py: the Conv3d patch embedding without bias, RMSNorm
blocks with a biased gated MLP, the patch merger that is its "projector") whose fused qkv holds grouped keys and
values: num_heads query heads and num_key_value_heads key and value heads, each hidden_size // num_heads wide.
transformers 5.24.0 models/exaone4_5/modeling_exaone4_5.py (Exaone4_5_VisionModel, Exaone4_5_VisionAttention)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .qwen_vl import QWEN2_5_VL, QWEN2_5_VL_DEFAULTS, WindowedTower, windowed

_new = tuple.__new__


class GroupedTower(NamedTuple):
    """A Qwen2.5-VL tower whose qkv rows are (num_heads + 2 × num_key_value_heads) × head_dim, registered after
    the attention's proj."""
    tower: WindowedTower
    kv_heads: int  # vision_config num_key_value_heads

    @property
    def hidden_size(self) -> int:
        return self.tower.hidden_size

    def tensors(self) -> list[Tensor]:
        tower = self.tower
        rows = (tower.num_heads + 2 * self.kv_heads) * (tower.width // tower.num_heads)
        out: list[Tensor] = []
        held: list[Tensor] = []  # a block's qkv, listed after its proj (registered first in this attention)
        for t in tower.tensors():
            if ".attn.qkv." in t.name:
                held.append(_new(Tensor, (t.name, (rows, *t.shape[1:]), *t[2:])))
                continue
            if held and ".attn.proj." not in t.name:
                out += held
                held = []
            out.append(t)
        return out + held

    def buffers(self) -> list[Buffer]:
        return self.tower.buffers()

    def embedding_tables(self) -> list[str]:
        return self.tower.embedding_tables()


_windowed = windowed(QWEN2_5_VL)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> GroupedTower:
    tower = _windowed(prefix, vision, where)
    kv = vision.get("num_key_value_heads")
    if type(kv) is not int or kv <= 0:
        raise ArchitectureError("vision_config.num_key_value_heads", f"must be a positive whole number, got {kv!r}",
                                where)
    if tower.num_heads % kv:  # Exaone4_5_VisionAttention repeats each key head num_heads // kv times
        raise ArchitectureError("vision_config.num_key_value_heads", f"{kv} does not divide num_heads="
                                f"{tower.num_heads}", where)
    return GroupedTower(tower, kv)


EXAONE4_5_DEFAULTS = {**QWEN2_5_VL_DEFAULTS, "num_key_value_heads": 8}
"""transformers 5.24.0 models/exaone4_5/configuration_exaone4_5.py (Exaone4_5_VisionConfig): Qwen2.5-VL's vision
config class's defaults and num_key_value_heads."""

TOWERS = {"exaone4_5_vision": TowerKind(EXAONE4_5_DEFAULTS, make)}
