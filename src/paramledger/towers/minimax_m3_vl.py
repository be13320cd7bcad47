"""MiniMax-M3's vision tower and projector.  The tower (MiniMaxM3VLVisionModel, "CLIP-like"): a Conv3d patch embedding
without bias (Qwen2.5-VL's: num_channels in, temporal_patch_size × patch_size × patch_size), CLIP's pre_layrnorm, then
num_hidden_layers layers of biased k, v, q, out_proj attention (each hidden_size square), layer_norm1, a biased
fc1/fc2 MLP and layer_norm2, and no norm after them (no learned positions: a 3-D axial RoPE, whose inv_freq pair is
its buffers).  The projector (MiniMaxM3VLMultiModalProjector): a biased GELU MLP from the tower's width through
projector_hidden_size to the decoder's, then another from spatial_merge_size² of those folded together
(merged_hidden_size, which MiniMaxM3VLConfig.__post_init__ sets from the decoder's width whatever a config says) back
to it.  transformers 5.24.0 models/minimax_m3_vl/modeling_minimax_m3_vl.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, positive, stamped

_new = tuple.__new__


class MiniMaxM3Tower(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int  # vision_config hidden_size
    intermediate_size: int  # vision_config intermediate_size
    num_hidden_layers: int  # vision_config num_hidden_layers
    patch: tuple[int, int, int, int]  # num_channels, temporal_patch_size, patch_size, patch_size
    spatial_merge_size: int  # vision_config spatial_merge_size (the projector folds its square)
    rotary_width: int  # the axial RoPE's inv_freq length

    def tensors(self) -> list[Tensor]:
        p, d, inner = self.prefix, self.hidden_size, self.intermediate_size
        out = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("embeddings.proj.weight", (d, *self.patch)), ("pre_layrnorm.weight", (d,)), ("pre_layrnorm.bias", (d,)))]
        block = [(f"self_attn.{name}.{kind}", (d, d) if kind == "weight" else (d,))
                 for name in ("k_proj", "v_proj", "q_proj", "out_proj") for kind in ("weight", "bias")]
        block += [("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,)), ("mlp.fc1.weight", (inner, d)),
                  ("mlp.fc1.bias", (inner,)), ("mlp.fc2.weight", (d, inner)), ("mlp.fc2.bias", (d,)),
                  ("layer_norm2.weight", (d,)), ("layer_norm2.bias", (d,))]
        return out + stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"{self.prefix}rotary_emb.{which}", (self.rotary_width,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> MiniMaxM3Tower:
    sizes = {key: positive(vision, key, "vision_config", where) for key in (
        "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_channels",
        "temporal_patch_size", "patch_size", "spatial_merge_size")}
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    if width % heads:  # MiniMaxM3VLVisionAttention's ValueError
        raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads do not divide "
                                f"hidden_size={width}", where)
    rope = vision.get("rope_parameters") or {}
    if not isinstance(rope, Mapping) or rope.get("rope_type", "axial") != "axial":
        # MiniMaxM3VLVisionRotaryEmbedding raises on any other
        raise ArchitectureError("vision_config.rope_parameters", f"its rope_type must be 'axial', got {rope!r}"[:200],
                                where)
    # compute_axial_rope_parameters: arange(0, 2 * ((head_dim // 3) // 2), 2), head_dim a config's own if it gives
    # one (the attention reads hidden_size // num_attention_heads)
    head = vision.get("head_dim") or width // heads
    if type(head) is not int or head <= 0:
        raise ArchitectureError("vision_config.head_dim", f"must be a positive whole number, got {head!r}", where)
    return MiniMaxM3Tower(prefix, sizes["hidden_size"], sizes["intermediate_size"], sizes["num_hidden_layers"],
                          (sizes["num_channels"], sizes["temporal_patch_size"], sizes["patch_size"],
                           sizes["patch_size"]), sizes["spatial_merge_size"], head // 3 // 2)


MINIMAX_M3_VL_DEFAULTS = {"hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32,
                          "num_attention_heads": 16, "num_channels": 3, "image_size": 2016, "patch_size": 14,
                          "temporal_patch_size": 2, "spatial_merge_size": 2}
"""transformers 5.24.0 models/minimax_m3_vl/configuration_minimax_m3_vl.py (MiniMaxM3VLVisionConfig)."""

TOWERS = {"minimax_m3_vl_vision": TowerKind(MINIMAX_M3_VL_DEFAULTS, make)}


def minimax_m3_vl(config: Mapping[str, Any], vision: MiniMaxM3Tower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """MiniMaxM3VLMultiModalProjector: linear_1, linear_2 (tower width -> projector_hidden_size -> decoder width),
    then merge_linear_1, merge_linear_2 (spatial_merge_size² decoder widths -> projector_hidden_size -> decoder
    width), every one biased (MiniMaxM3VLConfig: projector_hidden_size 6144)."""
    width = positive({"projector_hidden_size": config.get("projector_hidden_size", 6144)}, "projector_hidden_size", "")
    merged = hidden * vision.spatial_merge_size ** 2
    out = []
    for name, shape in (("linear_1", (width, vision.hidden_size)), ("linear_2", (hidden, width)),
                        ("merge_linear_1", (width, merged)), ("merge_linear_2", (hidden, width))):
        out += [(f"{name}.weight", shape), (f"{name}.bias", (shape[0],))]
    return out
