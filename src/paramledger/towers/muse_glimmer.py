"""Muse Glimmer's vision tower and its projector.  transformers 5.24.0 models/muse_glimmer/modeling_muse_glimmer.py
(MuseGlimmerVisionModel, MuseGlimmerVisionPatchEmbedder, MuseGlimmerVisionEncoderLayer, MuseGlimmerVisionAttention,
MuseGlimmerVisionRotaryEmbedding, MuseGlimmerVisionAdapter, MuseGlimmerModel).

The tower (``model.vision_tower``): a bias-free Linear over patch_temporal × 3 × patch_size² pixels, a learned position
table of pos_emb_height × pos_emb_width rows, ln_pre; layers of norm1 and norm2 (LayerNorms, registered first), the
attention (its biased output ``proj`` registered before the biased q, k and v, each hidden × hidden) and a biased
fc1/fc2 MLP; ln_post; an axial rotary buffer pair of (head_dim // 2) / 2 entries rounded up (head_dim: the config's,
else hidden // heads), float32.  The projector, registered after the language model: vision_adapter (fc1 from the
whole config's out_hidden_size to projector_hidden_size, fc2 at it, both bias-free) and vision_projection (bias-free,
into the decoder's width); perception_emb_norm has no weight."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, head_width, positive, stamped

_new = tuple.__new__
KEY = "vision_config"
SIZES = ("patch_size", "pos_emb_height", "pos_emb_width", "num_attention_heads", "hidden_size", "intermediate_size",
         "patch_temporal")
MUSE_GLIMMER_VISION_DEFAULTS = {"patch_size": 14, "pos_emb_height": 32, "pos_emb_width": 32, "num_attention_heads": 16,
                                "num_hidden_layers": 50, "hidden_size": 1536, "intermediate_size": 8960,
                                "patch_temporal": 2, "rope_parameters": None}
"""transformers 5.24.0 models/muse_glimmer/configuration_muse_glimmer.py (MuseGlimmerVisionConfig)."""
PROJECTOR_DEFAULTS = {"out_hidden_size": 6144, "projector_hidden_size": 4096}
"""The same file (MuseGlimmerConfig)."""


class MuseGlimmerTower(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    pixels: int  # patch_temporal × 3 × patch_size²
    positions: int  # pos_emb_height × pos_emb_width
    rotary: int  # the axial rotary's inv_freq entries

    def tensors(self) -> list[Tensor]:
        d, inner, p = self.hidden_size, self.intermediate_size, self.prefix
        block = [("norm1.weight", (d,)), ("norm1.bias", (d,)), ("norm2.weight", (d,)), ("norm2.bias", (d,)),
                 ("attn.proj.weight", (d, d)), ("attn.proj.bias", (d,))]
        block += [(f"attn.{name}.{part}", (d, d) if part == "weight" else (d,)) for name in ("q_proj", "k_proj", "v_proj")
                  for part in ("weight", "bias")]
        block += [("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)), ("mlp.fc2.weight", (d, inner)),
                  ("mlp.fc2.bias", (d,))]
        head = [("patch_embedder.patch_embedding.weight", (d, self.pixels)),
                ("patch_embedder.position_embedding_table.weight", (self.positions, d)), ("ln_pre.weight", (d,)),
                ("ln_pre.bias", (d,))]
        return ([_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in head]
                + stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)
                + [_new(Tensor, (p + name, (d,), "vision", None, False, 0)) for name in ("ln_post.weight",
                                                                                       "ln_post.bias")])

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"{self.prefix}rotary_emb.{name}", (self.rotary,), "float32", False)
                for name in ("inv_freq", "original_inv_freq")]

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "patch_embedder.position_embedding_table.weight"]


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> MuseGlimmerTower:
    sizes = {key: positive(vision, key, KEY, where) for key in SIZES}
    layers = vision.get("num_hidden_layers")
    if type(layers) is not int or layers < 0:
        raise ArchitectureError(f"{KEY}.num_hidden_layers", f"must be a whole number from 0, got {layers!r}"[:200],
                                where)
    rope = vision.get("rope_parameters") or {}
    if not isinstance(rope, Mapping):
        raise ArchitectureError(f"{KEY}.rope_parameters", "must be a JSON object", where)
    if rope.get("rope_type", rope.get("type", "axial")) not in ("axial", "default"):  # default reads as axial
        raise ArchitectureError(f"{KEY}.rope_parameters.rope_type", f"{rope.get('rope_type', rope.get('type'))!r}: "
                                "MuseGlimmerVisionRotaryEmbedding supports only axial rope"[:200], where)
    d = sizes["hidden_size"]
    head_dim = head_width(d, sizes["num_attention_heads"], f"{KEY}.num_attention_heads", where) if (
        vision.get("head_dim") is None) else positive(vision, "head_dim", KEY, where)
    factor = rope.get("partial_rotary_factor", 1.0)
    if vision.get("head_dim") is not None and head_dim > 4 and head_dim % 2 and factor == 1.0:
        raise ArchitectureError(f"{KEY}.head_dim", f"{head_dim} with a full rotary: RoPE needs an even rotary "
                                "dimension (transformers' validate_rope refuses it)", where)
    return MuseGlimmerTower(prefix, d, sizes["intermediate_size"], layers,
                            sizes["patch_temporal"] * 3 * sizes["patch_size"] ** 2,
                            sizes["pos_emb_height"] * sizes["pos_emb_width"], (head_dim // 2 + 1) // 2)


def projector(config: Mapping[str, Any], vision: MuseGlimmerTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """vision_adapter (fc1, fc2) and vision_projection under "model.", bias-free, at the whole config's widths."""
    merged = {**PROJECTOR_DEFAULTS, **{key: config[key] for key in PROJECTOR_DEFAULTS if config.get(key) is not None}}
    out, inner = (positive(merged, key, "") for key in ("out_hidden_size", "projector_hidden_size"))
    return [("vision_adapter.fc1.weight", (inner, out)), ("vision_adapter.fc2.weight", (inner, inner)),
            ("vision_projection.weight", (hidden, inner))]


TOWERS = {"muse_glimmer_vision": TowerKind(MUSE_GLIMMER_VISION_DEFAULTS, make)}
