"""PaddleOCR-VL's vision tower and projector.  The tower: SigLIP's (towers/vision.py: its embeddings, with the
learned position table and its position_ids, its layers, names and order, post_layernorm, no pooling head), under
"vision_model", plus a 2-D RoPE whose inv_freq pair sits in the encoder.  The projector: a LayerNorm over the
vision width, then two biased Linears over spatial_merge_size² merged patches (vision_config's), the second into
the decoder's width.  transformers 5.24.0 models/paddleocr_vl/modeling_paddleocr_vl.py (PaddleOCRVisionModel,
PaddleOCRVisionEmbeddings, PaddleOCRVisionEncoder, PaddleOCRProjector)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number
from .vision import SIGLIP, VisionLayout, VisionTower, vit

PADDLEOCR = VisionLayout(naming=SIGLIP.naming, head=None)


class PaddleOCRTower(NamedTuple):
    """A SigLIP VisionTower (its tensors, its position_ids) whose encoder's RoPE adds an inv_freq pair (head_dim // 4
    frequencies, rounded up, as Qwen2-VL's), and the merge the projector reads."""
    vit: VisionTower
    spatial_merge_size: int  # vision_config spatial_merge_size

    @property
    def hidden_size(self) -> int:
        return self.vit.hidden_size

    def tensors(self) -> list[Tensor]:
        return self.vit.tensors()

    def embedding_tables(self) -> list[str]:
        return self.vit.embedding_tables()

    def buffers(self) -> list[Buffer]:
        tower = self.vit
        rows = (tower.hidden_size // tower.num_attention_heads // 2 + 1) // 2
        return [*tower.buffers(), *(Buffer(f"{tower.prefix}encoder.rotary_pos_emb.{which}", (rows,), "float32", False)
                                    for which in ("inv_freq", "original_inv_freq"))]


_vit = vit(PADDLEOCR)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> PaddleOCRTower:
    tower = _vit(prefix + "vision_model.", {k: v for k, v in vision.items() if k not in ("head_dim", "vision_use_head")},
                 where)
    return PaddleOCRTower(tower, positive(vision, "spatial_merge_size", where))


PADDLEOCR_DEFAULTS = {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27, "num_attention_heads": 16,
                      "num_channels": 3, "image_size": 384, "patch_size": 14, "spatial_merge_size": 2}
"""transformers 5.24.0 models/paddleocr_vl/configuration_paddleocr_vl.py (PaddleOCRVisionConfig)."""

# PaddleOCRVLConfig.__post_init__ reads an old checkpoint's vision_config model_type "paddleocr_vl" as its tower.
TOWERS = {"paddleocr_vl_vision": TowerKind(PADDLEOCR_DEFAULTS, make),
          "paddleocr_vl": TowerKind(PADDLEOCR_DEFAULTS, make)}


def paddleocr_vl(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    d = vision.hidden_size
    merged = d * vision.spatial_merge_size ** 2
    return [("pre_norm.weight", (d,)), ("pre_norm.bias", (d,)), ("linear_1.weight", (merged, merged)),
            ("linear_1.bias", (merged,)), ("linear_2.weight", (hidden, merged)), ("linear_2.bias", (hidden,))]
