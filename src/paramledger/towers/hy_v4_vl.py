"""HY-V4-VL's vision tower and its patch merger.  transformers 5.24.0 models/hy_v4_vl/modeling_hy_v4_vl.py
(HYV4VLVisionModel, HYV4VLVisionPatchEmbed, HYV4VLVisionBlock, HYV4VLVisionPatchMerger).

Identical to HunYuan-VL's tower (towers/hunyuan_vl.py: the biased patch Conv2d, the (max_image_size // patch_size)²
+ 1 learned positions, LayerNorm blocks with biased q, k, v, o_proj and fc1/fc2) except: each head is head_dim wide
where the vision_config gives one (HYV4VLVisionAttention reads ``getattr(config, "head_dim", hidden // heads)``), and
the merger ("the key difference", its modeling file says) projects straight to out_hidden_size, the vision config's
own key: the newline row at that width, a spatial_merge_size conv to hidden × merge² (biased), a biased 1×1 conv to
out_hidden_size, an RMSNorm before (the vision width); no begin, end or separator rows, no Linear, no RMSNorm after.
No buffers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._kind import TowerKind, positive
from .hunyuan_vl import HunYuanVLTower
from .hunyuan_vl import make as hunyuan_vl_make


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> HunYuanVLTower:
    head_dim = vision.get("head_dim")
    tower = hunyuan_vl_make(prefix, vision, where, head_dim is not None)
    if head_dim is None:  # absent from HYV4VLVisionConfig: the getattr's default
        return tower
    return tower._replace(head_dim=positive(vision, "head_dim", "vision_config", where))


def merger(config: Mapping[str, Any], vision: HunYuanVLTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """HYV4VLVisionPatchMerger's tensors, in registration order (the newline Parameter before its modules'): its
    output is vision_config's out_hidden_size, whatever the decoder's width (transformers builds either)."""
    section = config.get("vision_config") or {}
    if not isinstance(section, Mapping):
        raise ArchitectureError("vision_config", "must be a JSON object")
    out = positive({**HY_V4_VL_VISION_DEFAULTS, **section}, "out_hidden_size", "vision_config")
    d, merge = vision.hidden_size, vision.spatial_merge_size
    wide = d * merge * merge
    return [("image_newline", (out,)), ("proj_conv.weight", (wide, d, merge, merge)), ("proj_conv.bias", (wide,)),
            ("proj_out.weight", (out, wide, 1, 1)), ("proj_out.bias", (out,)), ("before_rms.weight", (d,))]


HY_V4_VL_VISION_DEFAULTS = {"hidden_size": 1536, "intermediate_size": 6144, "num_hidden_layers": 40,
                            "num_attention_heads": 16, "num_channels": 3, "patch_size": 16, "max_image_size": 2048,
                            "spatial_merge_size": 2, "out_hidden_size": 6144}
"""transformers 5.24.0 models/hy_v4_vl/configuration_hy_v4_vl.py (HYV4VLVisionConfig)."""

TOWERS = {"hy_v4_vl_vision": TowerKind(HY_V4_VL_VISION_DEFAULTS, make)}
