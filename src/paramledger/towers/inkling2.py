"""Inkling 2's vision tower (transformers 5.24.0 models/inkling2/modeling_inkling2.py: Inkling2VisionModel, lines
1540-1551, and its modules), registered after the text decoder under ``model.vision_tower``:

- embeddings: class_embedding and cls_position_embedding (hidden,) (its own parameters, first), patch_embedding a
  bias-free Linear (channels × patch², hidden), position_embedding an nn.Embedding of posemb_grid_size² rows;
- pre_layernorm (a LayerNorm, biased); the axial rotary's inv_freq and original_inv_freq buffers, float32, not
  persistent, ceil(head_dim / 4) each (compute_axial_rope_parameters: arange(0, head_dim // 2, 2));
- num_hidden_layers encoder layers: lambda_1 and lambda_2 (hidden,) first, then k, v, q and out_proj (biased, in
  that order), mlp fc1/fc2 (biased; intermediate_size, else int(hidden × mlp_ratio)), layernorm_before and _after;
- merger (the projection into the decoder, inside the tower): linear_1 (merge² × hidden -> projection_hidden_dim),
  linear_2 (-> text_hidden_size), biased by projector_bias.

text_hidden_size is the tower's own key: Inkling2Config.validate_architecture refuses one that is not the decoder's
hidden_size (the family's projector rule says so in one line)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_REPEAT, big
from ._kind import TowerKind, flag, positive, stamped

_new = tuple.__new__

# configuration_inkling2.py Inkling2VisionConfig
VISION = {"model_type": "inkling2_vision", "hidden_size": 1024, "intermediate_size": None, "num_hidden_layers": 23,
          "num_attention_heads": 16, "num_channels": 3, "patch_size": 20, "mlp_ratio": 4.0, "spatial_merge_size": 2,
          "posemb_grid_size": 32, "projection_hidden_dim": 4096, "projector_bias": False, "text_hidden_size": 4608}


class Inkling2Vision(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_channels: int
    patch_size: int
    spatial_merge_size: int
    posemb_grid_size: int
    projection_hidden_dim: int
    projector_bias: bool
    text_hidden_size: int

    def tensors(self) -> list[Tensor]:
        p, d, ffn = self.prefix, self.hidden_size, self.intermediate_size
        head = [(p + "embeddings.class_embedding", (d,)), (p + "embeddings.cls_position_embedding", (d,)),
                (p + "embeddings.patch_embedding.weight", (d, self.num_channels * self.patch_size ** 2)),
                (p + "embeddings.position_embedding.weight", (self.posemb_grid_size ** 2, d)),
                (p + "pre_layernorm.weight", (d,)), (p + "pre_layernorm.bias", (d,))]
        block = [("lambda_1", (d,)), ("lambda_2", (d,))]
        for name in ("k_proj", "v_proj", "q_proj", "out_proj"):
            block += [(f"self_attn.{name}.weight", (d, d)), (f"self_attn.{name}.bias", (d,))]
        block += [("mlp.fc1.weight", (ffn, d)), ("mlp.fc1.bias", (ffn,)), ("mlp.fc2.weight", (d, ffn)),
                  ("mlp.fc2.bias", (d,))]
        for name in ("layernorm_before", "layernorm_after"):
            block += [(name + ".weight", (d,)), (name + ".bias", (d,))]
        merged, inner, out = self.spatial_merge_size ** 2 * d, self.projection_hidden_dim, self.text_hidden_size
        tail = [(p + "merger.linear_1.weight", (inner, merged))]
        tail += [(p + "merger.linear_1.bias", (inner,))] if self.projector_bias else []
        tail += [(p + "merger.linear_2.weight", (out, inner))]
        tail += [(p + "merger.linear_2.bias", (out,))] if self.projector_bias else []
        return ([_new(Tensor, (name, shape, "vision", None, False, 0)) for name, shape in head]
                + stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)
                + [_new(Tensor, (name, shape, "vision", None, False, 0)) for name, shape in tail])

    def buffers(self) -> list[Buffer]:
        rows = (self.hidden_size // self.num_attention_heads // 2 + 1) // 2
        return [Buffer(self.prefix + "rotary_emb." + name, (rows,), "float32", False)
                for name in ("inv_freq", "original_inv_freq")]

    def embedding_tables(self) -> list[str]:
        return [self.prefix + "embeddings.position_embedding.weight"]


def vision(prefix: str, config: Mapping[str, Any], where: str | None) -> Inkling2Vision:
    s = "vision_config"
    # Inkling2VisionConfig.attribute_map: native_patch_size and adapter_merge_size are other spellings
    config = {**config, **{own: config[alias] for alias, own in (("native_patch_size", "patch_size"),
                                                                  ("adapter_merge_size", "spatial_merge_size"))
                           if alias in config}}
    sizes = {key: positive(config, key, s, where) for key in (
        "hidden_size", "num_hidden_layers", "num_attention_heads", "num_channels", "patch_size", "spatial_merge_size",
        "posemb_grid_size", "projection_hidden_dim", "text_hidden_size")}
    if sizes["num_hidden_layers"] > MAX_REPEAT:
        raise ArchitectureError(f"{s}.num_hidden_layers", f"gives {big(sizes['num_hidden_layers'])} layers, beyond "
                                f"the bound of {MAX_REPEAT:,} (docs/limits.md)", where)
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    if width % heads:  # Inkling2VisionAttention splits the width into whole heads
        raise ArchitectureError(f"{s}.num_attention_heads", f"{heads} heads do not divide hidden_size={width}", where)
    ffn = config.get("intermediate_size")
    if ffn is None:  # Inkling2VisionConfig.__post_init__
        ratio = config.get("mlp_ratio")
        if type(ratio) not in (int, float) or ratio <= 0:
            raise ArchitectureError(f"{s}.mlp_ratio", f"must be a positive number, got {ratio!r}"[:200], where)
        ffn = int(width * ratio)
    ffn = positive({"intermediate_size": ffn}, "intermediate_size", s, where)
    return Inkling2Vision(prefix, width, ffn, sizes["num_hidden_layers"], heads, sizes["num_channels"],
                          sizes["patch_size"], sizes["spatial_merge_size"], sizes["posemb_grid_size"],
                          sizes["projection_hidden_dim"], flag(config, "projector_bias", s, where),
                          sizes["text_hidden_size"])


def width_matches(config: Mapping[str, Any], tower: Any, hidden: int) -> list:
    """No projector beside the tower (its merger is inside it); Inkling2Config.validate_architecture's refusal."""
    if tower is not None and tower.text_hidden_size != hidden:
        raise ArchitectureError("vision_config.text_hidden_size", f"{tower.text_hidden_size} is not the text "
                                f"hidden_size={hidden} (Inkling2Config.validate_architecture)")
    return []


TOWERS = {"inkling2_vision": TowerKind(VISION, vision)}
