"""LFM3-VL's vision tower and projector.  The tower (Lfm3VlVisionModel) is an LFM2 decoder over patches, not a ViT: a
Linear patch embedding over in_channels × temporal_patch_size × patch_size² pixels and an RMSNorm, then layers that
are each, by layer_types, a gated depthwise Conv2d (in_proj to three widths, spatial_conv conv_kernel_size² per
channel, out_proj) or bidirectional grouped-query attention with RMSNorm q/k heads (q, k, v, out_proj, no biases),
then LFM2's gated FFN (w1, w3, w2) and two RMSNorms (operator_norm, ffn_norm); no norm after the last layer.  Its
buffers: the 2-D axial RoPE's inv_freq pair.  The projector (Lfm3VlMultiModalProjector): a LayerNorm over the tower's
width (before the spatial_merge_size² patches are folded together, unlike LFM2-VL's over the folded width), then two
Linears through projector_hidden_size, biased by projector_bias.  transformers 5.24.0
models/lfm3_vl/modeling_lfm3_vl.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, positive, stamped
from .projectors import flag

_new = tuple.__new__
CONV, ATTENTION = "conv", "full_attention"  # Lfm3VlVisionLayer: any type but "conv" is attention


class Lfm3VlTower(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int  # vision_config hidden_size
    intermediate_size: int  # vision_config intermediate_size
    num_attention_heads: int  # vision_config num_attention_heads
    num_key_value_heads: int  # vision_config num_key_value_heads
    patch_width: int  # in_channels × temporal_patch_size × patch_size²
    conv_kernel_size: int  # vision_config conv_kernel_size
    spatial_merge_size: int  # vision_config spatial_merge_size (the projector folds its square)
    layer_types: tuple[str, ...]  # vision_config layer_types
    rotary_width: int  # the axial RoPE's inv_freq length

    def _block(self, kind: str) -> list[tuple[str, tuple[int, ...]]]:
        d, head = self.hidden_size, self.hidden_size // self.num_attention_heads
        if kind == CONV:
            mixer = [("conv.in_proj.weight", (3 * d, d)),
                     ("conv.spatial_conv.weight", (d, 1, self.conv_kernel_size, self.conv_kernel_size)),
                     ("conv.out_proj.weight", (d, d))]
        else:
            q, kv = self.num_attention_heads * head, self.num_key_value_heads * head
            mixer = [("self_attn.q_proj.weight", (q, d)), ("self_attn.k_proj.weight", (kv, d)),
                     ("self_attn.v_proj.weight", (kv, d)), ("self_attn.out_proj.weight", (d, q)),
                     ("self_attn.q_norm.weight", (head,)), ("self_attn.k_norm.weight", (head,))]
        inner = self.intermediate_size
        return [*mixer, ("feed_forward.w1.weight", (inner, d)), ("feed_forward.w3.weight", (inner, d)),
                ("feed_forward.w2.weight", (d, inner)), ("operator_norm.weight", (d,)), ("ffn_norm.weight", (d,))]

    def tensors(self) -> list[Tensor]:
        p, d = self.prefix, self.hidden_size
        out = [_new(Tensor, (p + "patch_embed.weight", (d, self.patch_width), "vision", None, False, 0)),
               _new(Tensor, (p + "embedding_norm.weight", (d,), "vision", None, False, 0))]
        blocks = {kind: self._block(kind) for kind in set(self.layer_types)}
        for i, kind in enumerate(self.layer_types):
            out += stamped((f"{p}layers.{i}.",), blocks[kind])
        return out

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"{self.prefix}rotary_pos_emb.{which}", (self.rotary_width,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Lfm3VlTower:
    sizes = {key: positive(vision, key, "vision_config", where) for key in (
        "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
        "in_channels", "temporal_patch_size", "patch_size", "conv_kernel_size", "spatial_merge_size")}
    d, heads, depth = sizes["hidden_size"], sizes["num_attention_heads"], sizes["num_hidden_layers"]
    if heads > d:
        raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads of hidden_size={d} would be "
                                "0 wide", where)
    rope = vision.get("rope_parameters") or {}
    if not isinstance(rope, Mapping) or rope.get("rope_type", "axial") != "axial":
        # Lfm3VlVisionRotaryEmbedding raises on any other
        raise ArchitectureError("vision_config.rope_parameters", f"its rope_type must be 'axial', got {rope!r}"[:200],
                                where)
    types = vision.get("layer_types")
    if types is None:  # Lfm3VlVisionConfig.__post_init__
        types = [CONV if i < 2 or i % 2 else ATTENTION for i in range(depth)]
    if (not isinstance(types, (list, tuple)) or len(types) != depth
            or any(kind not in (CONV, ATTENTION) for kind in types)):
        raise ArchitectureError("vision_config.layer_types", f"must list {depth} of 'conv' and 'full_attention' "
                                f"(num_hidden_layers), got {types!r}"[:200], where)
    # Lfm3VlVisionRotaryEmbedding.compute_axial_rope_parameters: arange(0, head_dim // 2, 2), head_dim a config's
    # own head_dim if it gives one (the attention itself reads hidden_size // num_attention_heads)
    head = vision.get("head_dim") or d // heads
    if type(head) is not int or head <= 0:
        raise ArchitectureError("vision_config.head_dim", f"must be a positive whole number, got {head!r}", where)
    if "head_dim" in vision and head % 2:  # its validate_rope checks a given head_dim (not the width's quotient)
        raise ArchitectureError("vision_config.head_dim", f"{head} is odd: the RoPE rotates pairs", where)
    patch = sizes["in_channels"] * sizes["temporal_patch_size"] * sizes["patch_size"] ** 2
    return Lfm3VlTower(prefix, d, sizes["intermediate_size"], heads, sizes["num_key_value_heads"], patch,
                       sizes["conv_kernel_size"], sizes["spatial_merge_size"], tuple(types), (head // 2 + 1) // 2)


LFM3_VL_DEFAULTS = {"hidden_size": 1024, "intermediate_size": 2560, "num_hidden_layers": 14, "num_attention_heads": 16,
                    "num_key_value_heads": 8, "conv_kernel_size": 3, "in_channels": 3, "patch_size": 16,
                    "temporal_patch_size": 2, "spatial_merge_size": 2}
"""transformers 5.24.0 models/lfm3_vl/configuration_lfm3_vl.py (Lfm3VlVisionConfig; in_channels, patch_size,
temporal_patch_size and spatial_merge_size are Qwen3VLVisionConfig's, its parent)."""

TOWERS = {"lfm3_vl_vision": TowerKind(LFM3_VL_DEFAULTS, make)}


def lfm3_vl(config: Mapping[str, Any], vision: Lfm3VlTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Lfm3VlMultiModalProjector: a LayerNorm over the tower's width, then linear_1 from spatial_merge_size² patches
    folded together to projector_hidden_size and linear_2 to the decoder's width, biased by projector_bias
    (Lfm3VlConfig: 4096, True)."""
    width = config.get("projector_hidden_size", 4096)
    if type(width) is not int or width <= 0:
        raise ArchitectureError("projector_hidden_size", f"must be a positive whole number, got {width!r}")
    d, bias = vision.hidden_size, flag(config, "projector_bias", True)
    out = [("layer_norm.weight", (d,)), ("layer_norm.bias", (d,))]
    for name, shape in (("linear_1", (width, d * vision.spatial_merge_size ** 2)), ("linear_2", (hidden, width))):
        out.append((f"{name}.weight", shape))
        if bias:
            out.append((f"{name}.bias", (shape[0],)))
    return out
