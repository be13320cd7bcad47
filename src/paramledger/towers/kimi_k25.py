"""Kimi K2.5's vision tower (MoonViT, Kimi_K25VisionModel) and projector.  The tower: a biased Conv2d patch embedding
(three channels), a learned (pos_emb_height, pos_emb_width, hidden_size) position grid (a raw Parameter, resampled
per image) beside a sinusoidal table of pos_emb_time + 1 frames (a buffer), a 2-D axial RoPE (its inv_freq pair);
layers of LayerNorms, attention (proj registered before q/k/v, all biased) and a biased MLP (fc1, fc2); a final
LayerNorm.  The projector: a LayerNorm of projection_hidden_size, then two biased Linears over merge_kernel_size's
patches merged into one, the second into the decoder's width.  transformers 5.24.0
models/kimi_k25/modeling_kimi_k25.py (Kimi_K25VisionModel, Kimi_K25VisionPositionEmbeddings,
Kimi_K25VisionAttention, Kimi_K25MultimodalProjection)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, stamped
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number

_new = tuple.__new__


class MoonViT(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    patch_size: int
    pos_emb_height: int
    pos_emb_width: int
    pos_emb_time: int
    merge: int  # merge_kernel_size's two sides multiplied

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, inner = self.hidden_size, self.prefix, self.intermediate_size
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "vision", None, False, 0)))

        add("patch_embed.proj.weight", (d, 3, self.patch_size, self.patch_size))
        add("patch_embed.proj.bias", (d,))
        add("patch_embed.pos_emb.position_embeddings", (self.pos_emb_height, self.pos_emb_width, d))
        block = [("norm1.weight", (d,)), ("norm1.bias", (d,)), ("norm2.weight", (d,)), ("norm2.bias", (d,))]
        for name in ("proj", "q_proj", "k_proj", "v_proj"):
            block += [(f"attn.{name}.weight", (d, d)), (f"attn.{name}.bias", (d,))]
        block += [("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)), ("mlp.fc2.weight", (d, inner)),
                  ("mlp.fc2.bias", (d,))]
        out += stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)
        add("final_layernorm.weight", (d,))
        add("final_layernorm.bias", (d,))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        """The frames' sinusoid (a zero row, then pos_emb_time rows) and the axial RoPE's inv_freq pair (head_dim // 4
        frequencies, rounded up), float32, non-persistent."""
        rows = (self.hidden_size // self.num_attention_heads // 2 + 1) // 2
        return [Buffer(self.prefix + "patch_embed.pos_emb.time_position_embeddings",
                       (self.pos_emb_time + 1, self.hidden_size), "float32", False),
                *(Buffer(f"{self.prefix}rotary_emb.{which}", (rows,), "float32", False)
                  for which in ("inv_freq", "original_inv_freq"))]


@lru_cache(maxsize=64)
def _listed(tower: MoonViT) -> tuple[Tensor, ...]:
    return tower.listed()


SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "patch_size",
         "pos_emb_height", "pos_emb_width", "pos_emb_time")


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> MoonViT:
    sizes = [positive(vision, key, where) for key in SIZES]
    width, heads = sizes[0], sizes[3]
    if width % heads:
        raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads do not divide hidden_size={width}",
                                where)
    if width % 2:  # compute_pos_embed: sin and cos halves beside a zero row hidden_size wide
        raise ArchitectureError("vision_config.hidden_size", f"{width} is odd: Kimi K2.5's frame sinusoid needs an "
                                "even width", where)
    kernel = vision.get("merge_kernel_size")
    if (not isinstance(kernel, (list, tuple)) or len(kernel) != 2
            or any(type(side) is not int or side <= 0 for side in kernel)):
        raise ArchitectureError("vision_config.merge_kernel_size", f"must be a [height, width] pair of positive whole "
                                f"numbers, got {kernel!r}", where)
    return MoonViT(prefix, *sizes, merge=kernel[0] * kernel[1])


KIMI_K25_DEFAULTS = {"patch_size": 14, "pos_emb_height": 64, "pos_emb_width": 64, "pos_emb_time": 4,
                     "num_attention_heads": 16, "num_hidden_layers": 27, "hidden_size": 1152, "intermediate_size": 4304,
                     "merge_kernel_size": [2, 2]}
"""transformers 5.24.0 models/kimi_k25/configuration_kimi_k25.py (Kimi_K25VisionConfig)."""

TOWERS = {"kimi_k25_vision": TowerKind(KIMI_K25_DEFAULTS, make)}


def kimi_k25(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Kimi_K25MultimodalProjection: pre_norm over projection_hidden_size (Kimi_K25Config: 1152), in_proj and
    out_proj over the merged patches."""
    norm = config.get("projection_hidden_size", 1152)
    if type(norm) is not int or norm <= 0:
        raise ArchitectureError("projection_hidden_size", f"must be a positive whole number, got {norm!r}")
    merged = vision.hidden_size * vision.merge
    return [("pre_norm.weight", (norm,)), ("pre_norm.bias", (norm,)), ("in_proj.weight", (merged, merged)),
            ("in_proj.bias", (merged,)), ("out_proj.weight", (hidden, merged)), ("out_proj.bias", (hidden,))]
