"""VideoLLaMA 3's vision tower and projector.  The tower: SigLIP's layers, names and order (towers/vision.py) with a
biased Conv2d patch embedding, no learned positions (a 2-D axial RoPE, whose inv_freq pair is its only state), no
image_size (patches of any grid) and a final post_layernorm.  The projector: "readout", two biased Linears into the
decoder's width.  transformers 5.24.0 models/video_llama_3/modeling_video_llama_3.py (VideoLlama3VisionModel,
VideoLlama3VisionRotaryEmbedding, VideoLlama3Projector)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..inventory import Buffer
from ._kind import TowerKind
from .vision import SIGLIP, VisionLayout, VisionTower, vit

VIDEO_LLAMA_3 = VisionLayout(naming=SIGLIP.naming, positions=None, head=None)


class VideoLlama3Tower(VisionTower):
    """VisionTower's tensors; its buffers are the axial RoPE's inv_freq pair (head_dim // 4 frequencies, rounded
    up, as Qwen2-VL's: compute_axial_rope_parameters)."""

    def buffers(self) -> list[Buffer]:
        rows = (self.hidden_size // self.num_attention_heads // 2 + 1) // 2
        return [Buffer(f"{self.prefix}rotary_pos_emb.{which}", (rows,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


_vit = vit(VIDEO_LLAMA_3)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> VideoLlama3Tower:
    # No image_size: the tower embeds patches of any grid (vit reads image_size only for a position table).
    patch = vision.get("patch_size")
    if type(patch) is not int or patch <= 0:
        raise ArchitectureError("vision_config.patch_size", f"must be a positive whole number, got {patch!r}", where)
    given = {k: v for k, v in vision.items() if k not in ("head_dim", "vision_use_head")}
    return VideoLlama3Tower(*_vit(prefix, {**given, "image_size": patch}, where))


VIDEO_LLAMA_3_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                          "num_attention_heads": 12, "num_channels": 3, "patch_size": 16}
"""transformers 5.24.0 models/video_llama_3/configuration_video_llama_3.py (VideoLlama3VisionConfig)."""

TOWERS = {"video_llama_3_vision": TowerKind(VIDEO_LLAMA_3_DEFAULTS, make)}


def video_llama_3(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    return [("readout.0.weight", (hidden, vision.hidden_size)), ("readout.0.bias", (hidden,)),
            ("readout.2.weight", (hidden, hidden)), ("readout.2.bias", (hidden,))]
