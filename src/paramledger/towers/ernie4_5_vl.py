"""ERNIE 4.5 VL's vision tower and resampler (transformers 5.24.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py:
Ernie4_5_VLMoeVisionTransformerPretrainedModel, Ernie4_5_VLMoePatchEmbed, Ernie4_5_VLMoeVisionBlock,
Ernie4_5_VLMoeVariableResolutionResamplerModel, Ernie4_5_VLMoeVisionMLP; configuration_ernie4_5_vl_moe.py).

The tower is Qwen2-VL's (towers/qwen_vl.py) except: the patch embedding is an unbiased nn.Linear over in_channels ×
patch_size² (no temporal patch), the block FFN is intermediate_size wide, the merger is deleted (``del
self.merger``) and a final LayerNorm ``ln`` closes the tower.  Blocks: norm1, norm2 (LayerNorms), attn.qkv and
attn.proj (biased), mlp.fc1 and mlp.fc2 (biased); the 2-D RoPE's inv_freq pair (float32, non-persistent).

The resampler (``model.resampler_model``, the "projector" component) folds spatial_merge_size² patches (S = width ×
merge²) and temporal_merge_size frames: spatial_linear (fc1 S -> S, fc2 S -> S, ln over S), temporal_linear (fc1
S × temporal_merge_size -> S, fc2, ln), mlp (S -> the decoder's hidden_size), after_norm (an RMSNorm over it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TowerKind, positive, stamped

_new = tuple.__new__
KEY = "vision_config"

DEFAULTS = {"model_type": "ernie4_5_vl_moe_vision", "depth": 32, "hidden_size": 1280, "intermediate_size": 5120,
            "num_heads": 16, "in_channels": 3, "patch_size": 14, "spatial_merge_size": 2, "temporal_merge_size": 2}
"""transformers 5.24.0 models/ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py (Ernie4_5_VLMoeVisionConfig over
Qwen2VLVisionConfig's depth, num_heads, in_channels, patch_size, spatial_merge_size)."""


class ErnieVisionTower(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int
    depth: int
    num_heads: int
    in_channels: int
    patch_size: int
    intermediate_size: int
    spatial_merge_size: int
    temporal_merge_size: int

    def tensors(self) -> list[Tensor]:
        d, p, inner = self.hidden_size, self.prefix, self.intermediate_size
        out = [_new(Tensor, (p + "patch_embed.proj.weight", (d, self.in_channels * self.patch_size ** 2), "vision",
                             None, False, 0))]
        block = [("norm1.weight", (d,)), ("norm1.bias", (d,)), ("norm2.weight", (d,)), ("norm2.bias", (d,)),
                 ("attn.qkv.weight", (3 * d, d)), ("attn.qkv.bias", (3 * d,)), ("attn.proj.weight", (d, d)),
                 ("attn.proj.bias", (d,)), ("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)),
                 ("mlp.fc2.weight", (d, inner)), ("mlp.fc2.bias", (d,))]
        out += stamped([f"{p}blocks.{i}." for i in range(self.depth)], block)
        out += [_new(Tensor, (p + name, (d,), "vision", None, False, 0)) for name in ("ln.weight", "ln.bias")]
        return out

    def buffers(self) -> list[Buffer]:
        rows = (self.hidden_size // self.num_heads // 2 + 1) // 2  # arange(0, head_dim // 2, 2)
        return [Buffer(f"{self.prefix}rotary_pos_emb.{which}", (rows,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> ErnieVisionTower:
    sizes = {key: positive(vision, key, KEY, where) for key in ("hidden_size", "depth", "num_heads", "in_channels",
                                                               "patch_size", "intermediate_size",
                                                               "spatial_merge_size", "temporal_merge_size")}
    if sizes["hidden_size"] % sizes["num_heads"]:
        raise ArchitectureError(f"{KEY}.num_heads", f"{sizes['num_heads']} heads do not divide "
                                f"hidden_size={sizes['hidden_size']}", where)
    merged = sizes["hidden_size"] * sizes["spatial_merge_size"] ** 2 * sizes["temporal_merge_size"]
    if merged > MAX_INTEGER or sizes["in_channels"] * sizes["patch_size"] ** 2 > MAX_INTEGER:
        raise ArchitectureError(f"{KEY}.spatial_merge_size", "the merged patches' width is beyond the bound of "
                                f"{MAX_INTEGER:,} (docs/limits.md)", where)
    return ErnieVisionTower(prefix, **sizes)


def resampler(config: Mapping[str, Any], tower: ErnieVisionTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Ernie4_5_VLMoeVariableResolutionResamplerModel's tensors, under model.resampler_model."""
    spatial = tower.hidden_size * tower.spatial_merge_size ** 2
    temporal = spatial * tower.temporal_merge_size
    out: list[tuple[str, tuple[int, ...]]] = []
    for name, into in (("spatial_linear", spatial), ("temporal_linear", temporal)):
        out += [(f"{name}.fc1.weight", (spatial, into)), (f"{name}.fc1.bias", (spatial,)),
                (f"{name}.fc2.weight", (spatial, spatial)), (f"{name}.fc2.bias", (spatial,)),
                (f"{name}.ln.weight", (spatial,)), (f"{name}.ln.bias", (spatial,))]
    return [*out, ("mlp.weight", (hidden, spatial)), ("mlp.bias", (hidden,)), ("after_norm.weight", (hidden,))]


TOWERS = {"ernie4_5_vl_moe_vision": TowerKind(DEFAULTS, make)}
