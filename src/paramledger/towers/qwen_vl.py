"""Qwen2-VL's vision tower and its descendants (Qwen2.5-VL, Qwen3-VL, GLM-4.1V): a ViT over 3-D patches
(temporal_patch_size × patch_size², a Conv3d), rotated by a 2-D axial RoPE (no learned table, except Qwen3-VL's
and GLM-4.1V's interpolated one), with a fused qkv, and ending in a patch merger that folds spatial_merge_size²
neighbouring patches into one token of the decoder's width.  The merger sits inside the tower ("model.visual.merger")
and is its "projector" component; Qwen3-VL adds one more merger per deepstack layer ("deepstack_merger_list").

What differs between the towers is data (``Layout``); the sizes are their vision_config's keys, HF names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, stamped

_new = tuple.__new__


class Layout(NamedTuple):
    """How one tower family builds what its vision_config does not say (its modeling file)."""
    width_key: str  # the tower's own width: "embed_dim" (Qwen2-VL) or "hidden_size"
    out_key: str  # the merger's output width: "hidden_size" (Qwen2-VL) or "out_hidden_size"
    patch_bias: bool  # the Conv3d's bias
    norm_type: str  # the blocks' norms: "layernorm" (weight and bias) or "rmsnorm" (weight)
    mlp: tuple[str, ...]  # the block FFN's Linears: two (fc1, fc2) or three (gate, up, down)
    mlp_width: str  # "mlp_ratio" (width × mlp_ratio) or the vision_config key of the FFN's width
    mlp_bias: bool
    qkv_bias_key: str | None  # the vision_config key biasing qkv (GLM-4.1V's attention_bias); None: always
    proj_bias: bool
    merger: str  # "qwen2" (ln_q, mlp.0, mlp.2), "qwen3" (norm, linear_fc1, linear_fc2) or "glm4v"
    merger_norm: str  # the merger's norm over the tower width: "layernorm" or "rmsnorm"
    positions: str | None = None  # Qwen3-VL's learned table, num_position_embeddings rows


QWEN2_VL = Layout("embed_dim", "hidden_size", False, "layernorm", ("fc1", "fc2"), "mlp_ratio", True, None, True,
                  "qwen2", "layernorm")
"""transformers 5.24.0 models/qwen2_vl/modeling_qwen2_vl.py (Qwen2VisionTransformerPretrainedModel, PatchMerger)."""
QWEN2_5_VL = Layout("hidden_size", "out_hidden_size", False, "rmsnorm", ("gate_proj", "up_proj", "down_proj"),
                    "intermediate_size", True, None, True, "qwen2", "rmsnorm")
"""transformers 5.24.0 models/qwen2_5_vl/modeling_qwen2_5_vl.py (Qwen2_5_VisionTransformerPretrainedModel)."""
QWEN3_VL = Layout("hidden_size", "out_hidden_size", True, "layernorm", ("linear_fc1", "linear_fc2"),
                  "intermediate_size", True, None, True, "qwen3", "layernorm", positions="pos_embed")
"""transformers 5.24.0 models/qwen3_vl/modeling_qwen3_vl.py (Qwen3VLVisionModel, Qwen3VLVisionPatchMerger)."""
GLM4V = Layout("hidden_size", "out_hidden_size", True, "rmsnorm", ("gate_proj", "up_proj", "down_proj"),
               "out_hidden_size", False, "attention_bias", False, "glm4v", "rmsnorm")
"""transformers 5.24.0 models/glm4v/modeling_glm4v.py (Glm4vVisionModel, Glm4vVisionPatchMerger)."""


class WindowedTower(NamedTuple):
    """One tower as its vision_config gives it, under its module path ("model.visual.")."""
    prefix: str
    layout: Layout
    width: int  # embed_dim or hidden_size
    depth: int
    num_heads: int
    in_channels: int
    patch_size: int
    temporal_patch_size: int
    spatial_merge_size: int
    mlp_width: int
    out_width: int  # the merged tokens' width
    qkv_bias: bool
    positions: int  # rows of the learned position table (0: none)
    deepstack: int  # Qwen3-VL's deepstack mergers (len(deepstack_visual_indexes))
    intermediate_size: int  # GLM-4.1V's merger FFN width

    @property
    def hidden_size(self) -> int:
        """The width a projector reads (towers.projectors' protocol): the merged tokens' width."""
        return self.out_width

    def tensors(self) -> list[Tensor]:
        """Every tensor of the tower, full names, in transformers' registration order."""
        lay, d, p = self.layout, self.width, self.prefix
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...], component: str = "vision") -> None:
            out.append(_new(Tensor, (p + name, shape, component, None, False, 0)))

        def norm(name: str, size: int, kind: str, component: str = "vision") -> None:
            add(name + ".weight", (size,), component)
            if kind == "layernorm":
                add(name + ".bias", (size,), component)

        def linear(name: str, rows: int, cols: int, bias: bool, component: str = "vision") -> None:
            add(name + ".weight", (rows, cols), component)
            if bias:
                add(name + ".bias", (rows,), component)

        if lay.merger == "glm4v":  # Glm4vVisionEmbeddings: (image_size / patch_size)² learned rows, first
            add("embeddings.position_embedding.weight", (self.positions, d))
        add("patch_embed.proj.weight", (d, self.in_channels, self.temporal_patch_size, self.patch_size,
                                        self.patch_size))
        if lay.patch_bias:
            add("patch_embed.proj.bias", (d,))
        if lay.positions is not None:
            add(lay.positions + ".weight", (self.positions, d))
        start = len(out)
        norm("norm1", d, lay.norm_type)
        norm("norm2", d, lay.norm_type)
        linear("attn.qkv", 3 * d, d, self.qkv_bias)
        linear("attn.proj", d, d, lay.proj_bias)
        *inward, down = lay.mlp
        for name in inward:
            linear("mlp." + name, self.mlp_width, d, lay.mlp_bias)
        linear("mlp." + down, d, self.mlp_width, lay.mlp_bias)
        block = [(t.name.removeprefix(p), t.shape) for t in out[start:]]
        del out[start:]
        out += stamped([f"{p}blocks.{i}." for i in range(self.depth)], block)
        merged = d * self.spatial_merge_size ** 2
        if lay.merger == "qwen2":  # PatchMerger: ln_q over the tower width, then Linear, GELU, Linear
            norm("merger.ln_q", d, lay.merger_norm, "projector")
            linear("merger.mlp.0", merged, merged, True, "projector")
            linear("merger.mlp.2", self.out_width, merged, True, "projector")
        elif lay.merger == "qwen3":  # the merger's norm over the tower width; each deepstack one's after the shuffle
            for name, size in (("merger", d), *((f"deepstack_merger_list.{i}", merged) for i in range(self.deepstack))):
                norm(name + ".norm", size, "layernorm", "projector")
                linear(name + ".linear_fc1", merged, merged, True, "projector")
                linear(name + ".linear_fc2", self.out_width, merged, True, "projector")
        else:  # Glm4vVisionPatchMerger, then the model's post-conv norm, the downsampling conv and the post norm
            o = self.out_width
            linear("merger.proj", o, o, False, "projector")
            norm("merger.post_projection_norm", o, "layernorm", "projector")
            linear("merger.gate_proj", self.intermediate_size, o, False, "projector")
            linear("merger.up_proj", self.intermediate_size, o, False, "projector")
            linear("merger.down_proj", o, self.intermediate_size, False, "projector")
            norm("post_conv_layernorm", d, "rmsnorm")
            add("downsample.weight", (o, d, self.spatial_merge_size, self.spatial_merge_size))
            add("downsample.bias", (o,))
            norm("post_layernorm", d, "rmsnorm")
        return out

    def embedding_tables(self) -> list[str]:
        """Its nn.Embedding tables (towers.embedding_tables): the learned positions, where it has them."""
        if self.layout.merger == "glm4v":
            return [self.prefix + "embeddings.position_embedding.weight"]
        return [] if self.layout.positions is None else [self.prefix + self.layout.positions + ".weight"]

    def buffers(self) -> list[Buffer]:
        """The axial RoPE's inv_freq pair: arange(0, head_dim // 2, 2) frequencies, float32, non-persistent."""
        spatial = self.width // self.num_heads // 2
        rows = (spatial + 1) // 2
        return [Buffer(f"{self.prefix}rotary_pos_emb.{which}", (rows,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


def _size(vision: Mapping[str, Any], key: str, where: str | None) -> int:
    value = vision.get(key)
    if type(value) is not int or value <= 0:
        raise ArchitectureError(f"vision_config.{key}", f"must be a positive whole number, got {value!r}", where)
    return value


def windowed(layout: Layout) -> Any:
    """The maker of a tower of ``layout`` (towers.TowerKind.make): its sizes checked, one line each."""
    def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> WindowedTower:
        width = _size(vision, layout.width_key, where)
        heads = _size(vision, "num_heads", where)
        if width % heads:
            raise ArchitectureError("vision_config.num_heads", f"{heads} heads do not divide "
                                    f"{layout.width_key}={width}", where)
        sizes = {key: _size(vision, key, where) for key in ("depth", "in_channels", "patch_size",
                                                              "temporal_patch_size", "spatial_merge_size")}
        if layout.mlp_width == "mlp_ratio":
            ratio = vision.get("mlp_ratio")
            if type(ratio) not in (int, float) or int(width * ratio) <= 0:
                raise ArchitectureError("vision_config.mlp_ratio", f"must be a positive number, got {ratio!r}", where)
            mlp_width = int(width * ratio)
        else:
            mlp_width = _size(vision, layout.mlp_width, where)
        positions = 0
        if layout.positions is not None:
            positions = _size(vision, "num_position_embeddings", where)
        elif layout.merger == "glm4v":
            image, patch = _size(vision, "image_size", where), sizes["patch_size"]
            if image < patch:
                raise ArchitectureError("vision_config.patch_size", f"{patch} is larger than image_size={image}", where)
            positions = (image // patch) ** 2
        deepstack = 0
        if layout.merger == "qwen3":
            indexes = vision.get("deepstack_visual_indexes")
            if not isinstance(indexes, (list, tuple)):
                raise ArchitectureError("vision_config.deepstack_visual_indexes",
                                        f"must be a list of layer indexes, got {indexes!r}", where)
            deepstack = len(indexes)
        inner = _size(vision, "intermediate_size", where) if layout.merger == "glm4v" else 0
        qkv_bias = True if layout.qkv_bias_key is None else bool(vision.get(layout.qkv_bias_key))
        return WindowedTower(prefix, layout, width, num_heads=heads, **sizes, mlp_width=mlp_width,
                             out_width=_size(vision, layout.out_key, where), qkv_bias=qkv_bias, positions=positions,
                             deepstack=deepstack, intermediate_size=inner)
    return make


def none(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """No projector beside the tower: its patch merger is inside it (model.visual.merger)."""
    return []


# The vision config classes' defaults (what a vision_config that omits a key gets), each by its model_type and
# the older spelling transformers still reads as it (Qwen2VLConfig.__post_init__: "qwen2_vl" -> "qwen2_vl_vision").
QWEN2_VL_DEFAULTS = {"depth": 32, "embed_dim": 1280, "hidden_size": 3584, "mlp_ratio": 4, "num_heads": 16,
                     "in_channels": 3, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}
"""transformers 5.24.0 models/qwen2_vl/configuration_qwen2_vl.py (Qwen2VLVisionConfig)."""
QWEN2_5_VL_DEFAULTS = {"depth": 32, "hidden_size": 3584, "intermediate_size": 3420, "num_heads": 16,
                       "in_channels": 3, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                       "out_hidden_size": 3584}
"""transformers 5.24.0 models/qwen2_5_vl/configuration_qwen2_5_vl.py (Qwen2_5_VLVisionConfig)."""
QWEN3_VL_DEFAULTS = {"depth": 27, "hidden_size": 1152, "intermediate_size": 4304, "num_heads": 16, "in_channels": 3,
                     "patch_size": 16, "spatial_merge_size": 2, "temporal_patch_size": 2, "out_hidden_size": 3584,
                     "num_position_embeddings": 2304, "deepstack_visual_indexes": [8, 16, 24]}
"""transformers 5.24.0 models/qwen3_vl/configuration_qwen3_vl.py (Qwen3VLVisionConfig; Qwen3VLMoeVisionConfig's
are the same, models/qwen3_vl_moe/configuration_qwen3_vl_moe.py)."""
GLM4V_DEFAULTS = {"depth": 24, "hidden_size": 1536, "attention_bias": False, "num_heads": 12, "in_channels": 3,
                  "image_size": 336, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                  "out_hidden_size": 4096, "intermediate_size": 13696}
"""transformers 5.24.0 models/glm4v/configuration_glm4v.py (Glm4vVisionConfig)."""

_QWEN2 = TowerKind(QWEN2_VL_DEFAULTS, windowed(QWEN2_VL))
_QWEN2_5 = TowerKind(QWEN2_5_VL_DEFAULTS, windowed(QWEN2_5_VL))
_QWEN3 = TowerKind(QWEN3_VL_DEFAULTS, windowed(QWEN3_VL))
TOWERS = {"qwen2_vl_vision": _QWEN2, "qwen2_vl": _QWEN2, "qwen2_5_vl_vision": _QWEN2_5, "qwen2_5_vl": _QWEN2_5,
          "qwen3_vl_vision": _QWEN3, "qwen3_vl": _QWEN3, "qwen3_vl_moe_vision": _QWEN3, "qwen3_vl_moe": _QWEN3,
          "glm4v_vision": TowerKind(GLM4V_DEFAULTS, windowed(GLM4V))}
