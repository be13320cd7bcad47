"""HunYuan-VL's vision tower and its patch merger.  transformers 5.24.0 models/hunyuan_vl/modeling_hunyuan_vl.py
(HunYuanVLVisionTransformer, HunYuanVLVisionPatchEmbed, HunYuanVLVisionBlock, HunYuanVLVisionPatchMerger).

The tower (``model.vision_tower``, registered after the decoder): a biased Conv2d; a learned position table of
(max_image_size // patch_size)² + 1 rows (an nn.Embedding; the first row the class token's); layers of LayerNorms, q, k,
v and o_proj all biased (heads × (hidden_size // heads) wide), an fc1/fc2 MLP, biased.  The merger
(``patch_merger``, the projector: it reads the decoder's width, text_hidden_size, which HunYuanVLConfig sets from
text_config): the newline row (4 × hidden_size), the begin, end and separator rows (the decoder's width), a
spatial_merge_size conv to twice the width, a 1×1 conv to four times, a Linear into the decoder, an RMSNorm before
(the vision width) and after (the decoder's).  No buffers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, head_width, stamped

_new = tuple.__new__
SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_channels", "patch_size",
         "max_image_size", "spatial_merge_size")


class HunYuanVLTower(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int  # hidden_size
    intermediate_size: int  # intermediate_size
    num_hidden_layers: int  # num_hidden_layers
    num_attention_heads: int  # num_attention_heads (attention_heads, its attribute_map)
    num_channels: int  # num_channels
    patch_size: int  # patch_size
    max_image_size: int  # max_image_size: the position grid's side is max_image_size // patch_size
    spatial_merge_size: int  # spatial_merge_size: the merger's conv kernel
    head_dim: int = 0  # each head's width; 0: hidden_size // heads (HunYuanVLVisionAttention's; HY-V4-VL reads head_dim)

    def tensors(self) -> list[Tensor]:
        d, inner, p = self.hidden_size, self.intermediate_size, self.prefix
        width = self.num_attention_heads * (self.head_dim or d // self.num_attention_heads)
        side = self.max_image_size // self.patch_size
        block = [("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,))]
        for name in ("q_proj", "k_proj", "v_proj"):
            block += [(f"self_attn.{name}.weight", (width, d)), (f"self_attn.{name}.bias", (width,))]
        block += [("self_attn.o_proj.weight", (d, width)), ("self_attn.o_proj.bias", (d,)),
                  ("layer_norm2.weight", (d,)), ("layer_norm2.bias", (d,)), ("mlp.fc1.weight", (inner, d)),
                  ("mlp.fc1.bias", (inner,)), ("mlp.fc2.weight", (d, inner)), ("mlp.fc2.bias", (d,))]
        out = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("embeddings.patch_embedding.weight", (d, self.num_channels, self.patch_size, self.patch_size)),
            ("embeddings.patch_embedding.bias", (d,)), ("embeddings.position_embedding.weight", (side * side + 1, d)))]
        return out + stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "embeddings.position_embedding.weight"]


def make(prefix: str, vision: Mapping[str, Any], where: str | None, reads_head_dim: bool = False) -> HunYuanVLTower:
    """The tower; ``reads_head_dim``: its head_dim is the config's (HY-V4-VL's), else hidden_size // heads, refused at 0."""
    sizes = {}
    for key in SIZES:
        value = vision.get("attention_heads", vision.get(key)) if key == "num_attention_heads" else vision.get(key)
        if type(value) is not int or value <= 0:
            raise ArchitectureError(f"vision_config.{key}", f"must be a positive whole number, got {value!r}", where)
        sizes[key] = value
    if sizes["max_image_size"] < sizes["patch_size"]:
        raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than max_image_size="
                                f"{sizes['max_image_size']}", where)
    if not reads_head_dim:
        head_width(sizes["hidden_size"], sizes["num_attention_heads"], "vision_config.num_attention_heads", where)
    return HunYuanVLTower(prefix, **sizes)


def merger(config: Mapping[str, Any], vision: HunYuanVLTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """HunYuanVLVisionPatchMerger's tensors at the decoder's width ``hidden``, in registration order."""
    d, merge = vision.hidden_size, vision.spatial_merge_size
    return [("image_newline", (4 * d,)), ("image_begin", (hidden,)), ("image_end", (hidden,)),
            ("image_sep", (hidden,)), ("proj_conv.weight", (2 * d, d, merge, merge)), ("proj_conv.bias", (2 * d,)),
            ("proj_out.weight", (4 * d, 2 * d, 1, 1)), ("proj_out.bias", (4 * d,)), ("mlp.weight", (hidden, 4 * d)),
            ("mlp.bias", (hidden,)), ("before_rms.weight", (d,)), ("after_rms.weight", (hidden,))]


HUNYUAN_VL_VISION_DEFAULTS = {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27,
                              "num_attention_heads": 16, "num_channels": 3, "patch_size": 16, "max_image_size": 2048,
                              "spatial_merge_size": 2}
"""transformers 5.24.0 models/hunyuan_vl/configuration_hunyuan_vl.py (HunYuanVLVisionConfig)."""

TOWERS = {"hunyuan_vl_vision": TowerKind(HUNYUAN_VL_VISION_DEFAULTS, make)}
