"""MiniCPM-V 4.6's vision tower and merger.  The tower: SigLIP's embeddings and layers (towers/vision.py, its names
and order; the learned position table an nn.Embedding without a position_ids buffer) and post_layernorm, then the
ViT window merger: an attention (k, v, q, out_proj, biased) with its LayerNorm, a LayerNorm over window_kernel_size's
patches folded together, and two biased Linears through intermediate_size × the window back to the tower's width.
The merger (after the decoder): merger_times downsample MLPs, each a LayerNorm over four patches folded together
and two biased Linears, the last into the decoder's width.  transformers 5.24.0
models/minicpmv4_6/modeling_minicpmv4_6.py (MiniCPMV4_6VisionModel, MiniCPMV4_6ViTWindowAttentionMerger,
MiniCPMV4_6Merger, MiniCPMV4_6DownsampleMLP)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .vision import SIGLIP, VisionLayout, VisionTower, vit

_new = tuple.__new__
MINICPM = VisionLayout(naming=SIGLIP.naming, head=None)


class MiniCPMTower(NamedTuple):
    vit: VisionTower
    window: int  # window_kernel_size's two sides multiplied

    @property
    def hidden_size(self) -> int:
        return self.vit.hidden_size

    def tensors(self) -> list[Tensor]:
        tower = self.vit
        d, wide, inner = tower.hidden_size, tower.hidden_size * self.window, tower.intermediate_size * self.window
        merger = tower.prefix + "vit_merger."
        named = [(f"self_attn.{name}.{kind}", (d, d) if kind == "weight" else (d,))
                 for name in ("k_proj", "v_proj", "q_proj", "out_proj") for kind in ("weight", "bias")]
        named += [("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,)), ("pre_norm.weight", (wide,)),
                  ("pre_norm.bias", (wide,)), ("linear_1.weight", (inner, wide)), ("linear_1.bias", (inner,)),
                  ("linear_2.weight", (d, inner)), ("linear_2.bias", (d,))]
        return [*tower.tensors(), *(_new(Tensor, (merger + name, shape, "vision", None, False, 0))
                                    for name, shape in named)]

    def embedding_tables(self) -> list[str]:
        return self.vit.embedding_tables()

    def buffers(self) -> list[Buffer]:
        return []  # MiniCPMV4_6VisionEmbeddings keeps no position_ids


_vit = vit(MINICPM)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> MiniCPMTower:
    tower = _vit(prefix, {k: v for k, v in vision.items() if k not in ("head_dim", "vision_use_head")}, where)
    kernel = vision.get("window_kernel_size")
    if (not isinstance(kernel, (list, tuple)) or len(kernel) != 2
            or any(type(side) is not int or side <= 0 for side in kernel)):
        raise ArchitectureError("vision_config.window_kernel_size", f"must be a [height, width] pair of positive whole "
                                f"numbers, got {kernel!r}", where)
    return MiniCPMTower(tower, kernel[0] * kernel[1])


MINICPMV4_6_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                        "num_attention_heads": 12, "num_channels": 3, "image_size": 224, "patch_size": 16,
                        "window_kernel_size": [2, 2]}
"""transformers 5.24.0 models/minicpmv4_6/configuration_minicpmv4_6.py (MiniCPMV4_6VisionConfig)."""

# MiniCPM-V 4.7's and MiniCPM-OCR's vision config classes have the same defaults and their modeling the same modules
# (models/minicpmv4_7/, models/minicpm_ocr/, diffed).
TOWERS = {"minicpmv4_6_vision": TowerKind(MINICPMV4_6_DEFAULTS, make),
          "minicpmv4_7_vision": TowerKind(MINICPMV4_6_DEFAULTS, make),
          "minicpm_ocr_vision": TowerKind(MINICPMV4_6_DEFAULTS, make)}


def minicpmv4_6(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """MiniCPMV4_6Merger: merger_times (MiniCPMV4_6Config: 1) downsample MLPs over four patches folded together
    (two 2×2 merges, fixed in MiniCPMV4_6DownsampleMLP), the last into the decoder's width."""
    times = config.get("merger_times", 1)
    if type(times) is not int or times <= 0:
        raise ArchitectureError("merger_times", f"must be a positive whole number, got {times!r}")
    d = vision.hidden_size
    out: list[tuple[str, tuple[int, ...]]] = []
    for j in range(times):
        width = hidden if j == times - 1 else d
        out += [(f"mlp.{j}.pre_norm.weight", (4 * d,)), (f"mlp.{j}.pre_norm.bias", (4 * d,)),
                (f"mlp.{j}.linear_1.weight", (4 * d, 4 * d)), (f"mlp.{j}.linear_1.bias", (4 * d,)),
                (f"mlp.{j}.linear_2.weight", (width, 4 * d)), (f"mlp.{j}.linear_2.bias", (width,))]
    return out
