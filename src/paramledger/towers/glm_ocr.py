"""GLM-OCR's vision tower: GLM-4.1V's lineage without its learned position table or post-conv norm.  A biased Conv3d
over temporal_patch_size × patch_size² patches, depth blocks of RMSNorms, a fused qkv and an output proj (both biased
by attention_bias), RMSNorm q/k norms per head, a gated MLP (biased by attention_bias); then the merger at the
output width (proj without bias, a LayerNorm, a gated MLP out_hidden_size × in_channels wide), the downsampling
conv (spatial_merge_size², biased) and a final RMSNorm.  The merger is its "projector" component, as GLM-4.1V's
is (the whole model's only projector); the conv and the norm are the tower's.  Its 2-D RoPE's
inv_freq pair is its only state.  transformers 5.24.0 models/glm_ocr/modeling_glm_ocr.py (GlmOcrVisionModel,
GlmOcrVisionBlock, GlmOcrVisionAttention, GlmOcrVisionPatchMerger)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number

_new = tuple.__new__


class GlmOcrTower(NamedTuple):
    prefix: str
    width: int  # hidden_size
    depth: int
    num_heads: int
    in_channels: int
    patch_size: int
    temporal_patch_size: int
    spatial_merge_size: int
    intermediate_size: int
    out_width: int  # out_hidden_size
    bias: bool  # attention_bias
    merger_width: int = 0  # GLM-5-Next's projection_intermediate_size; 0: out_hidden_size × in_channels (GLM-OCR's)

    @property
    def hidden_size(self) -> int:
        return self.out_width

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, o, head = self.width, self.prefix, self.out_width, self.width // self.num_heads
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...], component: str = "vision") -> None:
            out.append(_new(Tensor, (p + name, shape, component, None, False, 0)))

        def linear(name: str, rows: int, cols: int, bias: bool, component: str = "vision") -> None:
            add(name + ".weight", (rows, cols), component)
            if bias:
                add(name + ".bias", (rows,), component)

        add("patch_embed.proj.weight", (d, self.in_channels, self.temporal_patch_size, self.patch_size,
                                        self.patch_size))
        add("patch_embed.proj.bias", (d,))
        for i in range(self.depth):
            block = f"blocks.{i}."
            add(block + "norm1.weight", (d,))
            add(block + "norm2.weight", (d,))
            linear(block + "attn.qkv", 3 * d, d, self.bias)
            linear(block + "attn.proj", d, d, self.bias)
            add(block + "attn.q_norm.weight", (head,))
            add(block + "attn.k_norm.weight", (head,))
            linear(block + "mlp.gate_proj", self.intermediate_size, d, self.bias)
            linear(block + "mlp.up_proj", self.intermediate_size, d, self.bias)
            linear(block + "mlp.down_proj", d, self.intermediate_size, self.bias)
        # GlmOcrVisionModel: context_dim=out_hidden_size * in_channels; Glm5NextVisionModel (modeling_glm5_next.py
        # lines 1826-1831): context_dim=projection_intermediate_size
        inner = self.merger_width or o * self.in_channels
        linear("merger.proj", o, o, False, "projector")
        add("merger.post_projection_norm.weight", (o,), "projector")
        add("merger.post_projection_norm.bias", (o,), "projector")
        linear("merger.gate_proj", inner, o, False, "projector")
        linear("merger.up_proj", inner, o, False, "projector")
        linear("merger.down_proj", o, inner, False, "projector")
        merge = self.spatial_merge_size
        add("downsample.weight", (o, d, merge, merge))
        add("downsample.bias", (o,))
        add("post_layernorm.weight", (d,))
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        """The axial RoPE's inv_freq pair: arange(0, head_dim // 2, 2) frequencies, float32, non-persistent."""
        rows = (self.width // self.num_heads // 2 + 1) // 2
        return [Buffer(f"{self.prefix}rotary_pos_emb.{which}", (rows,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


@lru_cache(maxsize=64)
def _listed(tower: GlmOcrTower) -> tuple[Tensor, ...]:
    return tower.listed()


SIZES = ("hidden_size", "depth", "num_heads", "in_channels", "patch_size", "temporal_patch_size",
         "spatial_merge_size", "intermediate_size", "out_hidden_size")


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> GlmOcrTower:
    sizes = [positive(vision, key, where) for key in SIZES]
    if sizes[0] % sizes[2]:
        raise ArchitectureError("vision_config.num_heads", f"{sizes[2]} heads do not divide hidden_size={sizes[0]}",
                                where)
    return GlmOcrTower(prefix, *sizes, bias=bool(vision.get("attention_bias")))


GLM_OCR_DEFAULTS = {"depth": 24, "hidden_size": 1024, "attention_bias": True, "num_heads": 16, "in_channels": 3,
                    "image_size": 336, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                    "out_hidden_size": 1536, "intermediate_size": 4096}
"""transformers 5.24.0 models/glm_ocr/configuration_glm_ocr.py (GlmOcrVisionConfig)."""



def make_glm5_next(prefix: str, vision: Mapping[str, Any], where: str | None) -> GlmOcrTower:
    """GLM-5-Next's tower: GLM-OCR's, its merger projection_intermediate_size wide (Glm5NextVisionModel)."""
    return make(prefix, vision, where)._replace(merger_width=positive(vision, "projection_intermediate_size", where))


GLM5_NEXT_DEFAULTS = {**GLM_OCR_DEFAULTS, "projection_intermediate_size": 10240}
"""transformers 5.24.0 models/glm5_next/configuration_glm5_next.py (Glm5NextVisionConfig): GLM-OCR's sizes, and
the merger's width."""

TOWERS = {"glm_ocr_vision": TowerKind(GLM_OCR_DEFAULTS, make),
          "glm5_next_vision": TowerKind(GLM5_NEXT_DEFAULTS, make_glm5_next)}
