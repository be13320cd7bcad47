"""Pix2Struct's vision encoder (transformers 5.24.0 models/pix2struct/modeling_pix2struct.py Pix2StructVisionModel),
the tower of the whole Pix2StructForConditionalGeneration under ``encoder.``.

Its input is a sequence of flattened patches, not an image: Pix2StructVisionEmbeddings holds a biased Linear from
patch_embed_hidden_size (the flattened patch and its row and column ids) to hidden_size, then row_embedder and
column_embedder, two nn.Embedding tables of seq_len rows.  Each Pix2StructVisionLayer (encoder.layer.{i}) holds T5's
attention (query, key, value: hidden_size -> num_attention_heads × d_kv, output back, no biases), the gated
feed-forward (mlp.wi_0, wi_1: hidden_size -> d_ff, wo back, no biases), then pre_mlp_layer_norm and
pre_attention_layer_norm (Pix2StructLayerNorm: T5's scale-only RMS norm), registered in that order; the model ends
in ``layernorm``.  No buffer."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Tensor
from ._kind import TowerKind, stamped

_new = tuple.__new__

PIX2STRUCT_VISION_DEFAULTS = {"hidden_size": 768, "patch_embed_hidden_size": 768, "d_ff": 2048, "d_kv": 64,
                              "num_hidden_layers": 12, "num_attention_heads": 12, "seq_len": 4096}
"""transformers 5.24.0 models/pix2struct/configuration_pix2struct.py (Pix2StructVisionConfig)."""

SIZES = tuple(PIX2STRUCT_VISION_DEFAULTS)


class Pix2StructVision(NamedTuple):
    """The tower as a vision_config gives it (its HF key names) under its module path."""
    prefix: str  # "encoder."
    hidden_size: int
    patch_embed_hidden_size: int
    d_ff: int
    d_kv: int
    num_hidden_layers: int
    num_attention_heads: int
    seq_len: int

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, inner = self.hidden_size, self.prefix, self.num_attention_heads * self.d_kv
        out = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("embeddings.patch_projection.weight", (d, self.patch_embed_hidden_size)),
            ("embeddings.patch_projection.bias", (d,)),
            ("embeddings.row_embedder.weight", (self.seq_len, d)),
            ("embeddings.column_embedder.weight", (self.seq_len, d)))]
        block = [("attention.query.weight", (inner, d)), ("attention.key.weight", (inner, d)),
                 ("attention.value.weight", (inner, d)), ("attention.output.weight", (d, inner)),
                 ("mlp.wi_0.weight", (self.d_ff, d)), ("mlp.wi_1.weight", (self.d_ff, d)),
                 ("mlp.wo.weight", (d, self.d_ff)), ("pre_mlp_layer_norm.weight", (d,)),
                 ("pre_attention_layer_norm.weight", (d,))]
        out += stamped([f"{p}encoder.layer.{i}." for i in range(self.num_hidden_layers)], block)
        out.append(_new(Tensor, (p + "layernorm.weight", (d,), "vision", None, False, 0)))
        return tuple(out)

    def embedding_tables(self) -> list[str]:
        """row_embedder and column_embedder (nn.Embedding: HF's non-embedding count drops them)."""
        return [self.prefix + "embeddings.row_embedder.weight", self.prefix + "embeddings.column_embedder.weight"]

    def buffers(self) -> list[Any]:
        return []


@lru_cache(maxsize=64)
def _listed(tower: Pix2StructVision) -> tuple[Tensor, ...]:
    return tower.listed()


def tower(prefix: str, vision: Mapping[str, Any], where: str | None) -> Pix2StructVision:
    """The encoder of ``vision`` (over Pix2StructVisionConfig's defaults), each size a positive whole number."""
    sizes = {}
    for key in SIZES:
        value = vision.get(key)
        if type(value) is not int or value <= 0:
            raise ArchitectureError(f"vision_config.{key}", f"must be a positive whole number, got {value!r}", where)
        sizes[key] = value
    return Pix2StructVision(prefix, **sizes)


TOWERS = {"pix2struct_vision_model": TowerKind(PIX2STRUCT_VISION_DEFAULTS, tower)}

KOSMOS2_5_VISION_DEFAULTS = {"hidden_size": 1536, "patch_embed_hidden_size": 768, "intermediate_size": 3968,
                             "head_dim": 64, "num_hidden_layers": 18, "num_attention_heads": 24,
                             "max_num_patches": 4096}
"""transformers 5.24.0 models/kosmos2_5/configuration_kosmos2_5.py (Kosmos2_5VisionConfig)."""
# Kosmos2_5VisionModel is Pix2Struct's encoder (modeling_kosmos2_5.py Kosmos2_5VisionEmbeddings, Kosmos2_5VisionLayer)
# under Kosmos-2.5's key names: intermediate_size for d_ff, head_dim for d_kv, max_num_patches for seq_len
KOSMOS2_5_KEYS = {"d_ff": "intermediate_size", "d_kv": "head_dim", "seq_len": "max_num_patches"}


def kosmos2_5_tower(prefix: str, vision: Mapping[str, Any], where: str | None) -> Pix2StructVision:
    """Kosmos-2.5's vision model: Pix2Struct's tower read under Kosmos2_5VisionConfig's keys, each refused under its
    own name."""
    try:
        return tower(prefix, {key: vision.get(KOSMOS2_5_KEYS.get(key, key)) for key in SIZES}, where)
    except ArchitectureError as error:
        inner = error.key.removeprefix("vision_config.")
        raise ArchitectureError(f"vision_config.{KOSMOS2_5_KEYS.get(inner, inner)}", error.message, where) from None


TOWERS["kosmos_2_5_vision_model"] = TowerKind(KOSMOS2_5_VISION_DEFAULTS, kosmos2_5_tower)
