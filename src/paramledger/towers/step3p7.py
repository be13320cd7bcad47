"""Step-3.7's vision tower and projector (transformers 5.24.0 models/step3p7/modeling_step3p7.py, Step3p7VisionModel).

SigLIP's embeddings with a bias-free patch Conv2d and a learned position row per patch ((image_size // patch_size)²,
their position_ids a non-persistent buffer), a pre_layernorm, then num_hidden_layers layers: two layer scales
(lambda_1, lambda_2, the layer's own Parameters, so listed first), CLIP's biased k, v, q, out_proj attention under a
2-D RoPE (Kimi-K2.5's: its inv_freq pair of (head_dim // 2 + 1) // 2 rows), a biased fc1/fc2 MLP, layernorm_before
and layernorm_after; no norm after them.  Two stride-2 3×3 convolutions (downsampler1, downsampler2, biased) double
the width twice.  Step3p7VisionConfig.__post_init__ sets intermediate_size to int(hidden_size × mlp_ratio) whatever a
config says, and reads the legacy width, layers, heads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, positive, stamped

_new = tuple.__new__
# Step3p7VisionConfig.__post_init__: the legacy names it pops into the SigLIP ones
_LEGACY = {"width": "hidden_size", "layers": "num_hidden_layers", "heads": "num_attention_heads"}


class Step3p7Tower(NamedTuple):
    prefix: str  # "model.vision_model."
    hidden_size: int  # vision_config hidden_size (width)
    intermediate_size: int  # int(hidden_size * mlp_ratio)
    num_hidden_layers: int  # vision_config num_hidden_layers (layers)
    num_channels: int  # vision_config num_channels
    patch_size: int  # vision_config patch_size
    patches: int  # (image_size // patch_size)², the learned positions
    rotary_width: int  # the 2-D RoPE's inv_freq length

    def tensors(self) -> list[Tensor]:
        p, d, inner = self.prefix, self.hidden_size, self.intermediate_size
        out = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("embeddings.patch_embedding.weight", (d, self.num_channels, self.patch_size, self.patch_size)),
            ("embeddings.position_embedding.weight", (self.patches, d)),
            ("pre_layernorm.weight", (d,)), ("pre_layernorm.bias", (d,)))]
        block = [("lambda_1", (d,)), ("lambda_2", (d,))]
        block += [(f"self_attn.{name}.{kind}", (d, d) if kind == "weight" else (d,))
                  for name in ("k_proj", "v_proj", "q_proj", "out_proj") for kind in ("weight", "bias")]
        block += [("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)), ("mlp.fc2.weight", (d, inner)),
                  ("mlp.fc2.bias", (d,)), ("layernorm_before.weight", (d,)), ("layernorm_before.bias", (d,)),
                  ("layernorm_after.weight", (d,)), ("layernorm_after.bias", (d,))]
        out += stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)
        out += [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("downsampler1.weight", (2 * d, d, 3, 3)), ("downsampler1.bias", (2 * d,)),
            ("downsampler2.weight", (4 * d, 2 * d, 3, 3)), ("downsampler2.bias", (4 * d,)))]
        return out

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"{self.prefix}embeddings.position_ids", (1, self.patches), "int64", False),
                *(Buffer(f"{self.prefix}rotary_emb.{which}", (self.rotary_width,), "float32", False)
                  for which in ("inv_freq", "original_inv_freq"))]

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "embeddings.position_embedding.weight"]


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Step3p7Tower:
    vision = {**vision, **{field: vision[legacy] for legacy, field in _LEGACY.items() if legacy in vision}}
    sizes = {key: positive(vision, key, "vision_config", where) for key in (
        "hidden_size", "num_hidden_layers", "num_attention_heads", "num_channels", "image_size", "patch_size")}
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    ratio = vision.get("mlp_ratio", 8960 / 1536)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or int(width * ratio) <= 0:
        raise ArchitectureError("vision_config.mlp_ratio", f"must be a number making a positive "
                                f"intermediate_size of hidden_size={width}, got {ratio!r}", where)
    if width % heads:  # CLIPAttention's ValueError
        raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads do not divide "
                                f"hidden_size={width}", where)
    rope = vision.get("rope_parameters") or {}
    if not isinstance(rope, Mapping) or rope.get("rope_type", "axial") != "axial":
        # Step3p7VisionRotaryEmbedding (Kimi-K2.5's) reads the axial rule only
        raise ArchitectureError("vision_config.rope_parameters", f"its rope_type must be 'axial', got {rope!r}"[:200],
                                where)
    patches = (sizes["image_size"] // sizes["patch_size"]) ** 2
    if not patches:  # an nn.Embedding of no rows, and no image to embed
        raise ArchitectureError("vision_config.image_size", f"{sizes['image_size']} is smaller than patch_size="
                                f"{sizes['patch_size']}", where)
    return Step3p7Tower(prefix, width, int(width * ratio), sizes["num_hidden_layers"], sizes["num_channels"],
                        sizes["patch_size"], patches, (width // heads // 2 + 1) // 2)


STEP3P7_DEFAULTS = {"hidden_size": 1536, "num_hidden_layers": 47, "num_attention_heads": 16, "num_channels": 3,
                    "image_size": 728, "patch_size": 14, "mlp_ratio": 8960 / 1536}
"""transformers 5.24.0 models/step3p7/configuration_step3p7.py (Step3p7VisionConfig)."""

TOWERS = {"step3p5_vision": TowerKind(STEP3P7_DEFAULTS, make)}


def step3p7(config: Mapping[str, Any], vision: Step3p7Tower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Step3p7Model.multi_modal_projector: one Linear from the downsampled width (4 × the tower's) to the decoder's,
    biased by projector_bias (False)."""
    bias = config.get("projector_bias", False)
    if not isinstance(bias, bool):
        raise ArchitectureError("projector_bias", f"must be true or false, got {bias!r}")
    return [("weight", (hidden, 4 * vision.hidden_size))] + ([("bias", (hidden,))] if bias else [])
