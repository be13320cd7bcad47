"""Llama 3.2 Vision's tower (MllamaVisionModel) and its projector, as MllamaForConditionalGeneration builds them
(transformers 5.24.0 models/mllama/modeling_mllama.py).

The image is cut into at most max_num_tiles tiles of image_size² pixels; each tile's patches are embedded by a conv
without bias, a class token is prepended, and three learned tables add positions: the gated position embedding (a
raw Parameter, one row per patch and the class token, its gate, and an nn.Embedding of one row per aspect ratio
holding every tile's positions at once), and the aspect-ratio (tile) embeddings before and after the local
transformer (an nn.Embedding each, max_num_tiles × hidden_size wide, each with its gate).  Then LayerNorms before
and after the local transformer (num_hidden_layers layers) and a global transformer (num_global_layers layers, each
with two tanh gates).  A layer is a pre-norm ViT layer: attention without biases, a biased GELU MLP (fc1, fc2),
LayerNorms with biases.  Nothing is registered as a buffer.  The tower's output is its last state concatenated with
the local transformer's states at intermediate_layers_indices: hidden_size × (1 + len(indices)) wide, the
vision_output_dim the projector (one biased Linear to the decoder's width) reads."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, OptionError
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ._kind import TowerKind, positive, stamped, whole_number

_new = tuple.__new__
SECTION = "vision_config"

DEFAULTS = {"hidden_size": 1280, "num_hidden_layers": 32, "num_global_layers": 8, "attention_heads": 16,
            "num_channels": 3, "intermediate_size": 5120, "vision_output_dim": 7680, "image_size": 448,
            "patch_size": 14, "max_num_tiles": 4, "intermediate_layers_indices": None, "supported_aspect_ratios": None}
"""transformers 5.24.0 models/mllama/configuration_mllama.py (MllamaVisionConfig; attribute_map: num_attention_heads
is attention_heads)."""

ASPECT_RATIOS = [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [3, 1], [4, 1]]
"""MllamaVisionConfig.__post_init__: the supported aspect ratios when none are given (valid for 4 tiles only)."""
INTERMEDIATE_LAYERS = [3, 7, 15, 23, 30]
"""MllamaVisionConfig.__post_init__: intermediate_layers_indices when none are given."""

_BLOCK = ("self_attn.q_proj.weight", "self_attn.k_proj.weight", "self_attn.v_proj.weight", "self_attn.o_proj.weight",
          "mlp.fc1.weight", "mlp.fc1.bias", "mlp.fc2.weight", "mlp.fc2.bias", "input_layernorm.weight",
          "input_layernorm.bias", "post_attention_layernorm.weight", "post_attention_layernorm.bias")


class MllamaTower(NamedTuple):
    """An MllamaVisionModel as its vision_config gives it, under its module path ("model.vision_model.")."""
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int  # the local transformer's layers
    num_global_layers: int  # the global transformer's (gated) layers
    num_attention_heads: int  # attention_heads
    num_channels: int
    image_size: int
    patch_size: int
    max_num_tiles: int
    aspect_ratios: int  # len(supported_aspect_ratios): max_aspect_ratio_id
    vision_output_dim: int

    @property
    def patches(self) -> int:
        """One tile's positions: (image_size // patch_size)² patches and the class token (MllamaVisionModel's
        num_patches)."""
        return (self.image_size // self.patch_size) ** 2 + 1

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        p, d, tiles, rows = self.prefix, self.hidden_size, self.max_num_tiles, self.aspect_ratios + 1
        inner = self.num_attention_heads * (d // self.num_attention_heads)  # heads × head_dim

        def made(name: str, shape: tuple[int, ...]) -> Tensor:
            return _new(Tensor, (p + name, shape, "vision", None, False, 0))

        position = "gated_positional_embedding."
        head = [made("class_embedding", (d,)),
                made("patch_embedding.weight", (d, self.num_channels, self.patch_size, self.patch_size)),
                made(position + "gate", (1,)),  # the module's own Parameters before its nn.Embedding
                made(position + "embedding", (self.patches, d)),
                made(position + "tile_embedding.weight", (rows, tiles * self.patches * d))]
        for tile in ("pre_tile_positional_embedding.", "post_tile_positional_embedding."):
            head += [made(tile + "gate", (1,)), made(tile + "embedding.weight", (rows, tiles * d))]
        for norm in ("layernorm_pre.", "layernorm_post."):
            head += [made(norm + "weight", (d,)), made(norm + "bias", (d,))]
        shapes = ((inner, d), (inner, d), (inner, d), (d, inner), (self.intermediate_size, d),
                  (self.intermediate_size,), (d, self.intermediate_size), (d,), (d,), (d,), (d,), (d,))
        block = list(zip(_BLOCK, shapes))
        local = stamped([f"{p}transformer.layers.{i}." for i in range(self.num_hidden_layers)], block)
        # MllamaVisionEncoderLayer(is_gated=True): gate_attn and gate_ffn, its own Parameters, first
        glob = stamped([f"{p}global_transformer.layers.{i}." for i in range(self.num_global_layers)],
                       [("gate_attn", (1,)), ("gate_ffn", (1,)), *block])
        return (*head, *local, *glob)

    def embedding_tables(self) -> list[str]:
        """Its nn.Embedding tables (the per-patch position rows are a raw Parameter, not one)."""
        return [self.prefix + name for name in ("gated_positional_embedding.tile_embedding.weight",
                                                "pre_tile_positional_embedding.embedding.weight",
                                                "post_tile_positional_embedding.embedding.weight")]

    def buffers(self) -> list[Buffer]:
        return []


@lru_cache(maxsize=64)
def _listed(tower: MllamaTower) -> tuple[Tensor, ...]:
    return tower.listed()


def _listed_value(vision: Mapping[str, Any], key: str, default: list[Any], where: str | None) -> list[Any]:
    value = vision.get(key)
    if value is None:
        return default
    if not isinstance(value, list):
        raise ArchitectureError(f"{SECTION}.{key}", f"must be a list, got {value!r}"[:200], where)
    return value


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> MllamaTower:
    """The tower, each size refused in one line naming its key where MllamaVisionModel could not be built from it or
    run on an image."""
    def size(key: str) -> int:
        return positive(vision, key, SECTION, where)

    heads_key = "num_attention_heads" if "num_attention_heads" in vision else "attention_heads"
    hidden, heads = size("hidden_size"), size(heads_key)
    if hidden % heads:
        raise ArchitectureError(f"{SECTION}.{heads_key}", f"{heads} heads do not divide hidden_size={hidden}", where)
    image, patch = size("image_size"), size("patch_size")
    if image % patch:  # the tile's patches: (image_size // patch_size)², the rest of the tile dropped
        raise ArchitectureError(f"{SECTION}.patch_size", f"{patch} does not divide image_size={image}: the patches "
                                "would not tile the image", where)
    layers, tiles = size("num_hidden_layers"), size("max_num_tiles")
    try:
        global_layers = whole_number(vision, "num_global_layers", SECTION, 0)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    ratios = _listed_value(vision, "supported_aspect_ratios", ASPECT_RATIOS, where)
    if not all(isinstance(ratio, list) and all(type(n) is int for n in ratio) for ratio in ratios):
        raise ArchitectureError(f"{SECTION}.supported_aspect_ratios", "must be a list of [width, height] tile "
                                f"counts, got {ratios!r}"[:200], where)
    if ratios == ASPECT_RATIOS and tiles != 4:  # MllamaVisionConfig.validate_architecture
        raise ArchitectureError(f"{SECTION}.max_num_tiles", f"must be 4 with the default supported_aspect_ratios, got "
                                f"{tiles} (MllamaVisionConfig.validate_architecture)", where)
    indices = _listed_value(vision, "intermediate_layers_indices", INTERMEDIATE_LAYERS, where)
    for index in indices:  # the local transformer's states, read as output.hidden_states[index]
        if type(index) is not int or not -layers <= index < layers:
            raise ArchitectureError(f"{SECTION}.intermediate_layers_indices", f"{index!r} is not a layer of the "
                                    f"{layers} of num_hidden_layers", where)
    output = size("vision_output_dim")
    if output != hidden * (1 + len(indices)):
        raise ArchitectureError(f"{SECTION}.vision_output_dim", f"{output} is not hidden_size × (1 + "
                                f"{len(indices)} intermediate_layers_indices) = {hidden * (1 + len(indices)):,}, the "
                                "width of the tower's output the projector reads", where)
    tower = MllamaTower(prefix, hidden, size("intermediate_size"), layers, global_layers, heads,
                        size("num_channels"), image, patch, tiles, len(ratios), output)
    if tiles * tower.patches * hidden > MAX_INTEGER:
        raise ArchitectureError(f"{SECTION}.max_num_tiles", f"the tile position table would be {tiles:,} × "
                                f"{tower.patches:,} × {hidden:,} wide, beyond the bound of {MAX_INTEGER:,} "
                                "(docs/limits.md)", where)
    return tower


TOWERS = {"mllama_vision_model": TowerKind(DEFAULTS, make)}


def mllama(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """MllamaModel.multi_modal_projector: nn.Linear(vision_output_dim, text hidden_size, bias=True)."""
    return [("weight", (hidden, vision.vision_output_dim)), ("bias", (hidden,))]


class CrossAttended(NamedTuple):
    """Whole.image_tokens' rule for Llama 3.2 Vision: an image costs the decoder's context no token.  Its vision
    states (max_num_tiles × num_patches per image: MllamaForConditionalGeneration._prepare_static_cache's
    cross_attention_cache_len) are the keys and values the cross-attention layers cache, sized by --encoder-length,
    so memory --images is refused in one line with the figure to give it."""
    tokens_per_image: int

    def __call__(self, size: Any) -> int:
        raise OptionError("--images", f"mllama: an image joins no decoder context; its {self.tokens_per_image:,} "
                          "vision states (max_num_tiles × patches and class token) are the cross-attention layers' "
                          f"keys and values: give --encoder-length {self.tokens_per_image} per image instead")


def image_tokens(config: Mapping[str, Any], tower: MllamaTower) -> CrossAttended:
    return CrossAttended(tower.max_num_tiles * tower.patches)
