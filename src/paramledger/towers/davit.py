"""Florence-2's DaViT vision tower (Florence2VisionBackbone) and its projector, the component "vision" and
"projector" (families/florence2.py).

transformers 5.24.0 models/florence2/modeling_florence2.py:
- Florence2VisionBackbone (lines 505-547): one stage per embed_dim entry (num_heads and num_groups as many, else a
  ValueError), registered as convs.{i} (all stages), then blocks.{i}.{j}.  convs.{i} (Florence2VisionConvEmbed,
  lines 132-155): conv (E_i, in, k_i, k_i) with its bias (in: in_channels, then the stage before's E), then norm, a
  LayerNorm over in where patch_prenorm[i], else over E_i.  blocks.{i}.{j} for j < depths[i] (Florence2VisionBlock,
  lines 462-480): spatial_block (lines 402-429: conv1 (E, 1, 3, 3) depthwise with bias, norm1, window_attn.qkv
  (3E, E) biased by qkv_bias, window_attn.proj (E, E) biased, conv2, norm2, ffn.fc1 (int(E × mlp_ratio), E),
  ffn.fc2), then channel_block (lines 263-293: the same with channel_attn in window_attn's place).  No buffers;
  window attention's head_dim is E // heads, its scale head_dim ** -0.5 (a ZeroDivisionError where heads > E).
- Florence2MultiModalProjector (lines 569-590): image_projection (projection_dim, E_last) without bias,
  image_proj_norm (projection_dim), image_position_embed.row_embeddings (max_position_embeddings, E_last // 2) and
  column_embeddings (max_position_embeddings, E_last - E_last // 2), both nn.Embedding (lines 57-67);
  visual_temporal_embed.pos_idx_to_embed (max_temporal_embeddings, E_last), a persistent buffer in the model's
  dtype (lines 82-99)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TOWER_LAYERS, TowerKind, stamped

_new = tuple.__new__
FLORENCE_VISION_DEFAULTS = {
    "model_type": "florence_vision", "in_channels": 3, "depths": [1, 1, 9, 1], "patch_size": [7, 3, 3, 3],
    "patch_stride": [4, 2, 2, 2], "patch_padding": [3, 1, 1, 1], "patch_prenorm": [False, True, True, True],
    "embed_dim": [128, 256, 512, 1024], "num_heads": [4, 8, 16, 32], "num_groups": [4, 8, 16, 32], "window_size": 12,
    "mlp_ratio": 4.0, "qkv_bias": True, "projection_dim": 1024, "max_temporal_embeddings": 100,
    "max_position_embeddings": 50}
"""transformers 5.24.0 models/florence2/configuration_florence2.py (Florence2VisionConfig, lines 63-80)."""
SECTION = "vision_config"


class Stage(NamedTuple):
    width: int  # embed_dim[i]
    fed: int  # the conv's input channels: in_channels, then embed_dim[i - 1]
    kernel: int  # patch_size[i]
    prenorm: bool  # patch_prenorm[i]: the conv's norm over its input
    depth: int  # depths[i]
    inner: int  # int(embed_dim[i] × mlp_ratio)


class DaViT(NamedTuple):
    """Florence2VisionBackbone under ``prefix``."""
    prefix: str
    stages: tuple[Stage, ...]
    qkv_bias: bool

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return []

    def listed(self) -> tuple[Tensor, ...]:
        p = self.prefix
        out = []
        for i, stage in enumerate(self.stages):
            norm = stage.fed if stage.prenorm else stage.width
            out += stamped([f"{p}convs.{i}."], [("conv.weight", (stage.width, stage.fed, stage.kernel, stage.kernel)),
                                                ("conv.bias", (stage.width,)), ("norm.weight", (norm,)),
                                                ("norm.bias", (norm,))])
        for i, stage in enumerate(self.stages):
            block = [(f"{half}.{name}", shape) for half, attention in (("spatial_block", "window_attn"),
                                                                       ("channel_block", "channel_attn"))
                     for name, shape in _half(attention, stage.width, stage.inner, self.qkv_bias)]
            out += stamped([f"{p}blocks.{i}.{j}." for j in range(stage.depth)], block)
        return tuple(out)


def _half(attention: str, width: int, inner: int, qkv_bias: bool) -> list[tuple[str, tuple[int, ...]]]:
    """A spatial or channel block's tensors, in registration order."""
    return [("conv1.weight", (width, 1, 3, 3)), ("conv1.bias", (width,)), ("norm1.weight", (width,)),
            ("norm1.bias", (width,)), (f"{attention}.qkv.weight", (3 * width, width)),
            *([(f"{attention}.qkv.bias", (3 * width,))] if qkv_bias else []),
            (f"{attention}.proj.weight", (width, width)), (f"{attention}.proj.bias", (width,)),
            ("conv2.weight", (width, 1, 3, 3)), ("conv2.bias", (width,)), ("norm2.weight", (width,)),
            ("norm2.bias", (width,)), ("ffn.fc1.weight", (inner, width)), ("ffn.fc1.bias", (inner,)),
            ("ffn.fc2.weight", (width, inner)), ("ffn.fc2.bias", (width,))]


@lru_cache(maxsize=64)
def _listed(tower: DaViT) -> tuple[Tensor, ...]:
    return tower.listed()


def _positive(config: Mapping[str, Any], key: str) -> int:
    value = config.get(key)
    if type(value) is not int or not 0 < value <= MAX_INTEGER:
        raise ArchitectureError(f"{SECTION}.{key}", f"must be a positive whole number, got {quoted(value)}"[:200])
    return value


def _per_stage(config: Mapping[str, Any], key: str, stages: int, kind: type = int) -> list[Any]:
    """A per-stage list with an entry for each of the ``stages`` (Florence2VisionBackbone indexes it by stage)."""
    value = config.get(key)
    good = (isinstance(value, (list, tuple)) and len(value) >= stages
            and all(isinstance(v, bool) if kind is bool else type(v) is int and 0 < v <= MAX_INTEGER for v in value))
    if not good:
        what = "true or false" if kind is bool else "a positive whole number"
        raise ArchitectureError(f"{SECTION}.{key}", f"must list {what} for each of the {stages} stages (embed_dim), "
                                f"got {quoted(value)}"[:200])
    return list(value)


def make(prefix: str, config: Mapping[str, Any], where: str | None) -> DaViT:
    """The Florence2VisionBackbone ``config`` (over Florence2VisionConfig's defaults) builds, each key checked."""
    if "dim_embed" in config:  # the remote code's layout (DaViT's own keys), which 5.24.0's config class never reads
        raise ArchitectureError(f"{SECTION}.dim_embed", "is the remote code's key: transformers 5.24.0's "
                                "Florence2VisionConfig reads embed_dim (a converted config), so this config would be "
                                "built at its defaults", where)
    try:
        widths = _per_stage(config, "embed_dim", 1)
        stages = len(widths)
        heads, groups = _per_stage(config, "num_heads", stages), _per_stage(config, "num_groups", stages)
        if not len(heads) == len(groups) == stages:  # (Florence2VisionBackbone's ValueError)
            raise ArchitectureError(f"{SECTION}.num_heads", f"{len(heads)} entries and num_groups {len(groups)} for "
                                    f"{stages} stages (embed_dim): each must have one per stage")
        depths, kernels = _per_stage(config, "depths", stages), _per_stage(config, "patch_size", stages)
        _per_stage(config, "patch_stride", stages)
        prenorm = _per_stage(config, "patch_prenorm", stages, bool)
        padding = config.get("patch_padding")
        if not (isinstance(padding, (list, tuple)) and len(padding) >= stages
                and all(type(v) is int and 0 <= v <= MAX_INTEGER for v in padding)):
            raise ArchitectureError(f"{SECTION}.patch_padding", f"must list a whole number for each of the {stages} "
                                    f"stages (embed_dim), got {quoted(padding)}"[:200])
        if sum(depths[:stages]) > TOWER_LAYERS:
            raise ArchitectureError(f"{SECTION}.depths", f"{sum(depths[:stages]):,} blocks are beyond the bound of "
                                    f"{TOWER_LAYERS:,} a tower's layers are named to (docs/limits.md)")
        for i in range(stages):
            if heads[i] > widths[i]:  # (head_dim 0: Florence2VisionWindowAttention's scale divides by zero)
                raise ArchitectureError(f"{SECTION}.num_heads", f"{heads[i]} heads at stage {i} are more than its "
                                        f"width {widths[i]} (embed_dim)")
        ratio = config.get("mlp_ratio")
        if type(ratio) not in (int, float) or not 0 < ratio <= MAX_INTEGER:
            raise ArchitectureError(f"{SECTION}.mlp_ratio", f"must be a positive number, got {quoted(ratio)}"[:200])
        qkv_bias = config.get("qkv_bias")
        if not isinstance(qkv_bias, bool):
            raise ArchitectureError(f"{SECTION}.qkv_bias", f"must be true or false, got {quoted(qkv_bias)}"[:200])
        fed = _positive(config, "in_channels")
        built = []
        for i in range(stages):
            inner = int(widths[i] * ratio)
            if inner <= 0:
                raise ArchitectureError(f"{SECTION}.mlp_ratio", f"{ratio!r} gives stage {i} an FFN of {inner} channels")
            built.append(Stage(widths[i], fed, kernels[i], prenorm[i], depths[i], inner))
            fed = widths[i]
        for key in ("projection_dim", "max_position_embeddings", "max_temporal_embeddings"):
            _positive(config, key)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    return DaViT(prefix, tuple(built), qkv_bias)


def projector(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Florence2MultiModalProjector's tensors (the vision_config's projection and position tables)."""
    vision = {**FLORENCE_VISION_DEFAULTS, **(config.get("vision_config") or {})}  # (checked by make: the tower first)
    last, rows = vision["embed_dim"][-1], vision["max_position_embeddings"]  # (not ``tower``: formula's projector_at
    # hands the first of the towers, which Whole.made's encoder precedes)
    width = vision["projection_dim"]
    return [("image_projection.weight", (width, last)), ("image_proj_norm.weight", (width,)),
            ("image_proj_norm.bias", (width,)), ("image_position_embed.row_embeddings.weight", (rows, last // 2)),
            ("image_position_embed.column_embeddings.weight", (rows, last - last // 2))]


def projector_buffers(config: Mapping[str, Any], hidden: int) -> list[tuple[str, tuple[int, ...], Any, bool]]:
    """visual_temporal_embed.pos_idx_to_embed: (max_temporal_embeddings, E_last), the model's dtype, persistent."""
    vision = {**FLORENCE_VISION_DEFAULTS, **(config.get("vision_config") or {})}
    return [("visual_temporal_embed.pos_idx_to_embed", (vision["max_temporal_embeddings"], vision["embed_dim"][-1]),
             None, True)]


TOWERS = {"florence_vision": TowerKind(FLORENCE_VISION_DEFAULTS, make)}
