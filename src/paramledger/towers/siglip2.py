"""SigLIP 2's NaFlex vision tower (LFM2-VL's): SigLIP's layers, head and order, but the patches are embedded by
a Linear over the flattened num_channels × patch_size × patch_size pixels and the learned position table has
num_patches rows (resized per image, so no position_ids buffer and no image_size).  transformers 5.24.0
models/siglip2/modeling_siglip2.py (Siglip2VisionEmbeddings, Siglip2VisionTransformer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .projectors import flag
from .vision import SIGLIP, VisionTower, vit

_new = tuple.__new__


class Siglip2Tower(NamedTuple):
    """A SigLIP 2 tower: a SigLIP VisionTower whose patch and position tables Siglip2VisionEmbeddings shapes."""
    vit: VisionTower  # its image_size is patch_size: SigLIP 2 has none, the table is num_patches rows
    num_patches: int  # vision_config num_patches

    @property
    def hidden_size(self) -> int:
        return self.vit.hidden_size

    def tensors(self) -> list[Tensor]:
        tower, d, p = self.vit, self.vit.hidden_size, self.vit.prefix
        shapes = {p + "embeddings.patch_embedding.weight": (d, tower.num_channels * tower.patch_size ** 2),
                  p + "embeddings.position_embedding.weight": (self.num_patches, d)}
        return [_new(Tensor, (t.name, shapes[t.name], *t[2:])) if t.name in shapes else t for t in tower.tensors()]

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        """Its position table, an nn.Embedding of num_patches rows."""
        return self.vit.embedding_tables()


_vit = vit(SIGLIP)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Siglip2Tower:
    patches = vision.get("num_patches")
    if type(patches) is not int or patches <= 0:
        raise ArchitectureError("vision_config.num_patches", f"must be a positive whole number, got {patches!r}",
                                where)
    return Siglip2Tower(_vit(prefix, {**vision, "image_size": vision.get("patch_size")}, where), patches)


SIGLIP2_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 12,
                    "num_channels": 3, "patch_size": 16, "vision_use_head": True, "num_patches": 256}
"""transformers 5.24.0 models/siglip2/configuration_siglip2.py (Siglip2VisionConfig)."""

TOWERS = {"siglip2_vision_model": TowerKind(SIGLIP2_DEFAULTS, make)}


def lfm2_vl(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Lfm2VlMultiModalProjector (models/lfm2_vl/modeling_lfm2_vl.py): the pixel unshuffle folds
    downsample_factor² patches into one, a LayerNorm over them (projector_use_layernorm), then two Linears
    through projector_hidden_size, biased by projector_bias (Lfm2VlConfig: 2, True, 2560, True)."""
    factor, width = config.get("downsample_factor", 2), config.get("projector_hidden_size", 2560)
    for key, value in (("downsample_factor", factor), ("projector_hidden_size", width)):
        if type(value) is not int or value <= 0:
            raise ArchitectureError(key, f"must be a positive whole number, got {value!r}")
    wide, bias = vision.hidden_size * factor * factor, flag(config, "projector_bias", True)
    out = []
    if flag(config, "projector_use_layernorm", True):
        out += [("layer_norm.weight", (wide,)), ("layer_norm.bias", (wide,))]
    for name, shape in (("linear_1", (width, wide)), ("linear_2", (hidden, width))):
        out.append((f"{name}.weight", shape))
        if bias:
            out.append((f"{name}.bias", (shape[0],)))
    return out
