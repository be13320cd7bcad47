"""GraniteDocling's vision model: the Idefics3 vision transformer with SigLIP's embeddings (a position_ids buffer)
and its connector inside it, then the density router the whole model registers after the decoder.
transformers 5.24.0 models/granite_docling/modeling_granite_docling.py (GraniteDoclingVisionModel,
GraniteDoclingConnector, GraniteDoclingConnectorPath, GraniteDoclingDeepStackMerger, GraniteDoclingDensityRouter).

The connector ("connector.", the projector component): ln_in over the vision width; a coarse path at scale_factor
and, where use_fine_route, a fine one at scale_factor // 2, each a projection (no bias) from the scale²-folded
patches to out_hidden_size, a fixed 2D sine-cosine table (a float32 buffer, (image_size // patch_size // scale)²
rows) and one DeepStack merger per deepstack_visual_indexes entry (LayerNorm, two biased Linears); then ln_mid,
mlp_fc2 (no bias) and ln_out at out_hidden_size."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .idefics import IDEFICS
from .projectors import flag
from .vision import VisionTower, vit

_new = tuple.__new__
_vit = vit(IDEFICS)


class GraniteDoclingTower(NamedTuple):
    """A GraniteDoclingVisionModel: the ViT (VisionTower, its position_ids buffer SigLIP's) and its connector."""
    vit: VisionTower
    out_hidden_size: int  # out_hidden_size: the decoder's width (GraniteDoclingConfig checks it)
    scale_factor: int  # scale_factor: the coarse path's pixel shuffle
    deepstack_mergers: int  # len(deepstack_visual_indexes): mergers per path
    use_fine_route: bool  # use_fine_route: a second path at scale_factor // 2

    @property
    def hidden_size(self) -> int:
        return self.vit.hidden_size

    def _scales(self) -> tuple[tuple[str, int], ...]:
        coarse = (("coarse", self.scale_factor),)
        return (*coarse, ("fine", self.scale_factor // 2)) if self.use_fine_route else coarse

    def tensors(self) -> list[Tensor]:
        d, out, p = self.vit.hidden_size, self.out_hidden_size, self.vit.prefix + "connector."
        named = [("ln_in.weight", (d,)), ("ln_in.bias", (d,))]
        for path, scale in self._scales():
            merged = d * scale * scale
            named.append((f"{path}.projection.weight", (out, merged)))
            for j in range(self.deepstack_mergers):
                merger = f"{path}.deepstack_mergers.{j}."
                named += [(merger + "layer_norm.weight", (merged,)), (merger + "layer_norm.bias", (merged,)),
                          (merger + "linear_1.weight", (out, merged)), (merger + "linear_1.bias", (out,)),
                          (merger + "linear_2.weight", (out, out)), (merger + "linear_2.bias", (out,))]
        named += [("ln_mid.weight", (out,)), ("ln_mid.bias", (out,)), ("mlp_fc2.weight", (out, out)),
                  ("ln_out.weight", (out,)), ("ln_out.bias", (out,))]
        return self.vit.tensors() + [_new(Tensor, (p + name, shape, "projector", None, False, 0))
                                     for name, shape in named]

    def buffers(self) -> list[Buffer]:
        """SigLIP's position_ids, and each path's sine-cosine table (GraniteDoclingPositionEmbedding.pos_embed,
        float32, non-persistent)."""
        side, p = self.vit.image_size // self.vit.patch_size, self.vit.prefix + "connector."
        return self.vit.buffers() + [Buffer(f"{p}{path}.pos_embed.pos_embed", ((side // scale) ** 2,
                                                                              self.out_hidden_size), "float32", False)
                                     for path, scale in self._scales()]

    def embedding_tables(self) -> list[str]:
        return self.vit.embedding_tables()


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> GraniteDoclingTower:
    tower = _vit(prefix, vision, where)
    sizes = {}
    for key in ("out_hidden_size", "scale_factor"):
        value = vision.get(key)
        if type(value) is not int or value <= 0:
            raise ArchitectureError(f"vision_config.{key}", f"must be a positive whole number, got {value!r}", where)
        sizes[key] = value
    if sizes["out_hidden_size"] % 4:  # build_2d_sinusoidal_position_embedding refuses it
        raise ArchitectureError("vision_config.out_hidden_size", f"{sizes['out_hidden_size']} is not a multiple of "
                                "4: the connector's sine-cosine table needs one", where)
    taps = vision.get("deepstack_visual_indexes")
    taps = [3, 7, 10] if taps is None else taps  # GraniteDoclingVisionConfig.__post_init__
    if not isinstance(taps, list) or not all(type(tap) is int for tap in taps):
        raise ArchitectureError("vision_config.deepstack_visual_indexes", f"must be a list of layer indexes, got "
                                f"{taps!r}", where)
    try:
        fine = flag(vision, "use_fine_route", True)
    except ArchitectureError as error:
        raise ArchitectureError(f"vision_config.{error.key}", error.message, where) from None
    if fine and sizes["scale_factor"] < 2:  # the fine path's scale_factor // 2 would be 0
        raise ArchitectureError("vision_config.scale_factor", f"{sizes['scale_factor']} leaves the fine route "
                                "(use_fine_route) no pixel shuffle: it takes half of it", where)
    return GraniteDoclingTower(tower, sizes["out_hidden_size"], sizes["scale_factor"], len(taps),
                               fine)


def density_router(config: Mapping[str, Any], vision: GraniteDoclingTower,
                   hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """GraniteDoclingDensityRouter, where density_router_hidden_size is set (GraniteDoclingConfig: None, no
    router): att, norm, fc1 and fc2 over the vision width, all biased.  GraniteDoclingConfig's own checks first:
    out_hidden_size is the decoder's width, and the router needs the fine route."""
    if vision.out_hidden_size != hidden:
        raise ArchitectureError("vision_config.out_hidden_size", f"{vision.out_hidden_size} must equal "
                                f"text_config.hidden_size={hidden}")
    width = config.get("density_router_hidden_size")
    if width is None:
        return []
    if type(width) is not int or width <= 0:
        raise ArchitectureError("density_router_hidden_size", f"must be a positive whole number or null, got "
                                f"{width!r}")
    if not vision.use_fine_route:
        raise ArchitectureError("density_router_hidden_size", "the density router selects the fine route: it needs "
                                "vision_config.use_fine_route true")
    d = vision.hidden_size
    return [("att.weight", (1, d)), ("att.bias", (1,)), ("norm.weight", (d,)), ("norm.bias", (d,)),
            ("fc1.weight", (width, d)), ("fc1.bias", (width,)), ("fc2.weight", (1, width)), ("fc2.bias", (1,))]


GRANITE_DOCLING_VISION_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                                   "num_attention_heads": 12, "num_channels": 3, "image_size": 512, "patch_size": 16,
                                   "out_hidden_size": 1024, "scale_factor": 4, "deepstack_visual_indexes": None,
                                   "use_fine_route": True}
"""transformers 5.24.0 models/granite_docling/configuration_granite_docling.py (GraniteDoclingVisionConfig)."""

TOWERS = {"granite_docling_vision": TowerKind(GRANITE_DOCLING_VISION_DEFAULTS, make)}
