"""Donut's Swin as AutoModel builds it (DonutSwinModel): the image encoder of naver-clova-ix/donut-* and Nougat's
VisionEncoderDecoderModel, read from config.encoder (families/vision_encoder_decoder.py), the component "vision".

transformers 5.24.0 models/donut/modeling_donut_swin.py:
- DonutSwinEmbeddings (lines 139-157): position_embeddings (1, patches + 1, E), an nn.Parameter, only with
  use_absolute_embeddings, listed first; patch_embeddings.projection, an nn.Conv2d (E, channels, ph, pw) with its
  bias (lines 239-250); norm, a LayerNorm (E);
- DonutSwinEncoder (lines 674-690): one stage per depths entry, stage i at dim = E × 2^i with num_heads[i] heads
  (dim must divide, line 319), each of depths[i] blocks (DonutSwinLayer, lines 497-507): layernorm_before,
  attention.self (relative_position_bias_table ((2w - 1)², heads), an nn.Parameter listed before query, key, value
  (dim, dim), biased by qkv_bias; its relative_position_index (w², w²) int64, a persistent buffer, lines 316-339),
  attention.output.dense (dim, dim), layernorm_after, intermediate.dense (int(mlp_ratio × dim), dim), output.dense;
  every stage but the last ends in downsample (DonutSwinPatchMerging, lines 275-287: reduction (2 dim, 4 dim)
  without bias, norm (4 dim));
- DonutSwinModel (lines 784-800): no final norm; its pooler an nn.AdaptiveAvgPool1d, no parameters.
DonutSwinConfig.__post_init__ sets hidden_size to E × 2^(stages - 1) whatever a config says (the width
enc_to_dec_proj and cross_attention_hidden_size are checked against).

models/swin/modeling_swin.py (SwinModel, ``swin``): identical except position_embeddings of patches rows (no
extra one), each block's attention.q_proj, k_proj, v_proj (biased by qkv_bias), o_proj (biased), then
attention.relative_position_bias.relative_position_bias_table (lines 400-416), its index a flat (w⁴,) non-persistent
buffer under relative_position_bias., then layernorm_before, layernorm_after, mlp.fc1, mlp.fc2 (lines 475-476,
508-522); no divisibility check (head_dim = dim // heads: heads above dim divide by zero); a final layernorm over the
last width (line 840)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TOWER_LAYERS, stamped
from .vit import _pair

_new = tuple.__new__
DONUT_SWIN_DEFAULTS = {"image_size": 224, "patch_size": 4, "num_channels": 3, "embed_dim": 96, "depths": [2, 2, 6, 2],
                       "num_heads": [3, 6, 12, 24], "window_size": 7, "mlp_ratio": 4.0, "qkv_bias": True,
                       "use_absolute_embeddings": False}
"""transformers 5.24.0 models/donut/configuration_donut_swin.py (DonutSwinConfig, lines 51-66); SwinConfig's are the
same (models/swin/configuration_swin.py lines 58-71)."""


class Stage(NamedTuple):
    dim: int  # embed_dim × 2^i
    depth: int  # depths[i]
    heads: int  # num_heads[i]
    inner: int  # int(mlp_ratio × dim)
    merged: bool  # a downsample (every stage but the last)


class DonutSwin(NamedTuple):
    """One DonutSwinModel under ``prefix``."""
    prefix: str
    embed_dim: int
    num_channels: int
    patch: tuple[int, int]
    patches: int
    window_size: int
    qkv_bias: bool
    absolute: bool  # use_absolute_embeddings
    stages: tuple[Stage, ...]
    swin: bool = False  # SwinModel's layout (above), not DonutSwinModel's

    @property
    def hidden_size(self) -> int:
        return self.stages[-1].dim

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def embedding_tables(self) -> list[str]:
        return []  # (its positions are an nn.Parameter)

    def buffers(self) -> list[Buffer]:
        cells = self.window_size ** 2
        name, shape = (("attention.relative_position_bias.relative_position_index", (cells * cells,)) if self.swin
                       else ("attention.self.relative_position_index", (cells, cells)))
        return [Buffer(f"{self.prefix}encoder.layers.{i}.blocks.{j}.{name}", shape, "int64", not self.swin)
                for i, stage in enumerate(self.stages) for j in range(stage.depth)]

    def listed(self) -> tuple[Tensor, ...]:
        p, width = self.prefix, self.embed_dim
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "vision", None, False, 0)))

        if self.absolute:
            add("embeddings.position_embeddings", (1, self.patches + (not self.swin), width))
        add("embeddings.patch_embeddings.projection.weight", (width, self.num_channels, *self.patch))
        add("embeddings.patch_embeddings.projection.bias", (width,))
        add("embeddings.norm.weight", (width,))
        add("embeddings.norm.bias", (width,))
        table = (2 * self.window_size - 1) ** 2
        for i, stage in enumerate(self.stages):
            d, inner = stage.dim, stage.inner
            block = _swin_block(d, inner, table, stage.heads, self.qkv_bias) if self.swin else [("layernorm_before.weight", (d,)), ("layernorm_before.bias", (d,)),
                     ("attention.self.relative_position_bias_table", (table, stage.heads))]
            if not self.swin:
                for name in ("query", "key", "value"):
                    block.append((f"attention.self.{name}.weight", (d, d)))
                    if self.qkv_bias:
                        block.append((f"attention.self.{name}.bias", (d,)))
                block += [("attention.output.dense.weight", (d, d)), ("attention.output.dense.bias", (d,)),
                          ("layernorm_after.weight", (d,)), ("layernorm_after.bias", (d,)),
                          ("intermediate.dense.weight", (inner, d)), ("intermediate.dense.bias", (inner,)),
                          ("output.dense.weight", (d, inner)), ("output.dense.bias", (d,))]
            out += stamped([f"{p}encoder.layers.{i}.blocks.{j}." for j in range(stage.depth)], block)
            if stage.merged:
                add(f"encoder.layers.{i}.downsample.reduction.weight", (2 * d, 4 * d))
                add(f"encoder.layers.{i}.downsample.norm.weight", (4 * d,))
                add(f"encoder.layers.{i}.downsample.norm.bias", (4 * d,))
        if self.swin:  # SwinModel's final layernorm
            add("layernorm.weight", (self.hidden_size,))
            add("layernorm.bias", (self.hidden_size,))
        return tuple(out)


def _swin_block(d: int, inner: int, table: int, heads: int, qkv_bias: bool) -> list[tuple[str, tuple[int, ...]]]:
    """A SwinLayer's tensors, in registration order."""
    block = []
    for name in ("q_proj", "k_proj", "v_proj"):
        block.append((f"attention.{name}.weight", (d, d)))
        if qkv_bias:
            block.append((f"attention.{name}.bias", (d,)))
    return [*block, ("attention.o_proj.weight", (d, d)), ("attention.o_proj.bias", (d,)),
            ("attention.relative_position_bias.relative_position_bias_table", (table, heads)),
            ("layernorm_before.weight", (d,)), ("layernorm_before.bias", (d,)), ("layernorm_after.weight", (d,)),
            ("layernorm_after.bias", (d,)), ("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)),
            ("mlp.fc2.weight", (d, inner)), ("mlp.fc2.bias", (d,))]


@lru_cache(maxsize=64)
def _listed(tower: DonutSwin) -> tuple[Tensor, ...]:
    return tower.listed()


def _positive(config: Mapping[str, Any], key: str, section: str, where: str | None) -> int:
    value = config.get(key)
    if type(value) is not int or not 0 < value <= MAX_INTEGER:
        raise ArchitectureError(f"{section}.{key}", f"must be a positive whole number, got {quoted(value)}"[:200], where)
    return value


def _flag(config: Mapping[str, Any], key: str, section: str, where: str | None) -> bool:
    value = config.get(key)
    if not isinstance(value, bool):
        raise ArchitectureError(f"{section}.{key}", f"must be true or false, got {quoted(value)}"[:200], where)
    return value


def _list(config: Mapping[str, Any], key: str, section: str, where: str | None) -> list[int]:
    value = config.get(key)
    if (not isinstance(value, (list, tuple)) or not value
            or not all(type(n) is int and 0 < n <= MAX_INTEGER for n in value)):
        raise ArchitectureError(f"{section}.{key}", f"must be a list of positive whole numbers, got "
                                f"{quoted(value)}"[:200], where)
    return list(value)


def make(prefix: str, config: Mapping[str, Any], where: str | None, section: str = "encoder",
         swin: bool = False) -> DonutSwin:
    """The DonutSwinModel (SwinModel where ``swin``) ``config`` builds (over its config class's defaults), each value
    checked, a bad one refused in one line under ``section``."""
    embed = _positive(config, "embed_dim", section, where)
    channels = _positive(config, "num_channels", section, where)
    window = _positive(config, "window_size", section, where)
    image, patch = _pair(config, "image_size", section, where), _pair(config, "patch_size", section, where)
    if patch[0] > image[0] or patch[1] > image[1]:
        raise ArchitectureError(f"{section}.patch_size", f"{quoted(config.get('patch_size'))} is larger than "
                                f"image_size={quoted(config.get('image_size'))}: no patch fits", where)
    depths, heads = _list(config, "depths", section, where), _list(config, "num_heads", section, where)
    if len(heads) < len(depths):  # (DonutSwinEncoder reads num_heads[i] for every stage: an IndexError)
        raise ArchitectureError(f"{section}.num_heads", f"has {len(heads)} entries for {len(depths)} stages (depths)",
                                where)
    if sum(depths) > TOWER_LAYERS:
        raise ArchitectureError(f"{section}.depths", f"{sum(depths):,} blocks are beyond the bound of "
                                f"{TOWER_LAYERS:,} a tower's layers are named to (docs/limits.md)", where)
    ratio = config.get("mlp_ratio")
    if type(ratio) not in (int, float) or not 0 < ratio <= MAX_INTEGER:
        raise ArchitectureError(f"{section}.mlp_ratio", f"must be a positive number, got {quoted(ratio)}"[:200], where)
    stages = []
    for i, (depth, count) in enumerate(zip(depths, heads)):
        dim = embed * 2 ** i
        if 4 * dim > MAX_INTEGER:
            raise ArchitectureError(f"{section}.depths", f"{len(depths)} stages widen embed_dim={embed} past the bound "
                                    f"(docs/limits.md)", where)
        if swin and count > dim:  # (SwinAttention's head_dim 0: its scaling divides by zero)
            raise ArchitectureError(f"{section}.num_heads", f"{count} heads are more than stage {i}'s width {dim} "
                                    f"(embed_dim × 2^{i})", where)
        if dim % count and not swin:  # (DonutSwinSelfAttention's ValueError)
            raise ArchitectureError(f"{section}.num_heads", f"{count} heads do not divide stage {i}'s width {dim} "
                                    f"(embed_dim × 2^{i})", where)
        inner = int(ratio * dim)
        if inner <= 0:
            raise ArchitectureError(f"{section}.mlp_ratio", f"{ratio!r} gives stage {i} an FFN of {inner} channels",
                                    where)
        stages.append(Stage(dim, depth, count, inner, i < len(depths) - 1))
    return DonutSwin(prefix, embed, channels, patch, (image[0] // patch[0]) * (image[1] // patch[1]), window,
                     _flag(config, "qkv_bias", section, where),
                     _flag(config, "use_absolute_embeddings", section, where), tuple(stages), swin)


def width(config: Mapping[str, Any]) -> Any:
    """DonutSwinConfig.__post_init__'s hidden_size: embed_dim × 2^(stages - 1) (a config's own is overwritten)."""
    depths = config.get("depths")
    embed = config.get("embed_dim")
    if type(embed) is not int or not isinstance(depths, (list, tuple)) or not depths:
        return None  # (refused when the tower is made)
    return int(embed * 2 ** (len(depths) - 1))
