"""GIT's vision tower and projector (transformers 5.24.0 models/git/modeling_git.py).

The tower, GitVisionModel under git.image_encoder, is CLIP's vision transformer (towers/vision.py's CLIP layout:
GitVisionEmbeddings, GitVisionEncoderLayer and GitVisionTransformer are "Copied from" CLIP's or AltCLIP's, the
class token, a bias-free patch conv, pre_layrnorm, k/v/q/out_proj, layer_norm1, mlp, layer_norm2, post_layernorm) at
GitVisionConfig's defaults, patch_size 16 where CLIP's is 32.  GitConfig builds a GitVisionConfig from whatever
vision_config gives, its model_type ignored (Whole.vision_kind).

The projector is what GitModel registers after the decoder's layers: GitProjection (a biased Linear from the vision
width to the decoder's, then a LayerNorm over the decoder's width, an nn.Sequential: indices 0 and 1), then
img_temporal_embedding, one (1, 1, vision width) Parameter per frame of a video model where num_image_with_embedding
is set (an nn.ParameterList: GitModel.__init__)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_REPEAT, big
from ._kind import TowerKind
from .images import fixed
from .vision import CLIP, vit

GIT_VISION_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                       "num_attention_heads": 12, "num_channels": 3, "image_size": 224, "patch_size": 16}
"""transformers 5.24.0 models/git/configuration_git.py (GitVisionConfig)."""


def frames(config: Mapping[str, Any]) -> int:
    """num_image_with_embedding: the temporal embeddings a video model holds (null, GitConfig's default: none)."""
    value = config.get("num_image_with_embedding")
    if value is None:
        return 0
    if type(value) is not int or value < 0:
        raise ArchitectureError("num_image_with_embedding", f"must be null or a whole number from 0, got {value!r}")
    if value > MAX_REPEAT:  # one tensor each, enumerated (docs/limits.md)
        raise ArchitectureError("num_image_with_embedding", f"{big(value)} is beyond the bound of {MAX_REPEAT:,} "
                                "(docs/limits.md)")
    return value


def git(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """GitProjection's Linear and LayerNorm, then the temporal embeddings (under the projector prefix "git.")."""
    width = vision.hidden_size
    named = [("visual_projection.visual_projection.0.weight", (hidden, width)),
             ("visual_projection.visual_projection.0.bias", (hidden,)),
             ("visual_projection.visual_projection.1.weight", (hidden,)),
             ("visual_projection.visual_projection.1.bias", (hidden,))]
    return named + [(f"img_temporal_embedding.{i}", (1, 1, width)) for i in range(frames(config))]


# An image is the tower's output, its patch grid and the class token, prepended to the text (GitModel.forward
# concatenates the projected features before the token embeddings); a video model's frames each cost as much.
IMAGE_TOKENS = fixed(lambda config, tower: tower.patches + 1)

_CLIP = vit(CLIP)


def tower(prefix: str, vision: Mapping[str, Any], where: str | None) -> Any:
    """CLIP's tower; a head_dim in vision_config is dropped: GitVisionAttention's heads are hidden_size // heads wide
    whatever it says (GitVisionConfig keeps an unknown key as an attribute nobody reads)."""
    return _CLIP(prefix, {key: value for key, value in vision.items() if key != "head_dim"}, where)


TOWERS = {"git_vision_model": TowerKind(GIT_VISION_DEFAULTS, tower)}
