"""Molmo 2's vision tower and adapter (transformers 5.24.0 models/molmo2/modeling_molmo2.py).

Molmo2VisionModel (lines 520-538) is SigLIP 2's encoder (towers/siglip2.py: a Linear over each patch's flattened
pixels, LayerNorm pre-norm layers, a plain fc1/fc2 MLP) except: its learned positions are a bare Parameter
(num_position_embeddings, hidden) registered first, no nn.Embedding; its attention (Molmo2VisionAttention) has
num_key_value_heads and head_dim of its own and names its output o_proj, every projection biased by attention_bias;
and there is no final norm and no head.  Molmo2VisionConfig reads the remote code's spellings too
(image_default_input_size, image_patch_size, image_num_pos).

Molmo2Adapter (lines 557-590), the projector: image_pooling_2d, a Molmo2VisionAttention over the concatenated
features of the len(vision_feature_layer) tower layers it reads (its q, k and v hidden_size × that many wide), and
image_projector, a gated MLP (gate and up biased by mlp_bias) down to text_hidden_size, both read from the whole
config's adapter_config (Molmo2AdapterConfig), not from the decoder's width.  The remote code's layout (vit_config,
allenai's releases) is read as Molmo2Config rewrites it (``rewritten``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, flag, positive, section, stamped

_new = tuple.__new__

# transformers 5.24.0 models/molmo2/configuration_molmo2.py (Molmo2VisionConfig; image_size [378, 378] when unset)
VISION_DEFAULTS = {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 25, "num_attention_heads": 16,
                   "num_key_value_heads": 16, "head_dim": 72, "image_size": None, "patch_size": 14,
                   "num_position_embeddings": None, "num_channels": 3, "attention_bias": True}
# the same file (Molmo2AdapterConfig; vision_feature_layer [24, 18] when unset)
ADAPTER_DEFAULTS = {"vision_feature_layer": None, "hidden_size": 1152, "num_attention_heads": 16,
                    "num_key_value_heads": 16, "head_dim": 72, "attention_bias": True, "intermediate_size": 18944,
                    "text_hidden_size": 3584, "mlp_bias": False}
_SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
          "head_dim", "patch_size", "num_channels")


def attention(name: str, width: int, heads: int, kv_heads: int, head_dim: int, out: int,
              bias: bool) -> list[tuple[str, tuple[int, ...]]]:
    """Molmo2VisionAttention's q, k, v and o_proj (``width`` in, ``out`` back), each biased by ``bias``."""
    shapes = []
    for proj, rows, cols in (("q_proj", heads * head_dim, width), ("k_proj", kv_heads * head_dim, width),
                             ("v_proj", kv_heads * head_dim, width), ("o_proj", out, heads * head_dim)):
        shapes.append((f"{name}.{proj}.weight", (rows, cols)))
        if bias:
            shapes.append((f"{name}.{proj}.bias", (rows,)))
    return shapes


class Molmo2Tower(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    patch_size: int
    num_channels: int
    num_position_embeddings: int
    attention_bias: bool

    def tensors(self) -> list[Tensor]:
        d, p, width = self.hidden_size, self.prefix, self.intermediate_size
        out = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("positional_embedding", (self.num_position_embeddings, d)),
            ("patch_embedding.weight", (d, self.patch_size * self.patch_size * self.num_channels)),
            ("patch_embedding.bias", (d,)))]
        block = [("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,)),
                 *attention("self_attn", d, self.num_attention_heads, self.num_key_value_heads, self.head_dim, d,
                            self.attention_bias),
                 ("layer_norm2.weight", (d,)), ("layer_norm2.bias", (d,)),
                 ("mlp.fc1.weight", (width, d)), ("mlp.fc1.bias", (width,)),
                 ("mlp.fc2.weight", (d, width)), ("mlp.fc2.bias", (d,))]
        return out + stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], block)

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return []  # its positions are a bare Parameter: Hugging Face's non-embedding count keeps them


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Molmo2Tower:
    # Molmo2VisionConfig.__post_init__ takes the remote code's spellings over its own
    vision = {**vision, **{new: vision[old] for old, new in (("image_default_input_size", "image_size"),
                                                             ("image_patch_size", "patch_size"),
                                                             ("image_num_pos", "num_position_embeddings"))
                           if old in vision}}
    sizes = {key: positive(vision, key, "vision_config", where) for key in _SIZES}
    rows = vision.get("num_position_embeddings")
    if rows is None:  # (image_size[0] // patch_size) * (image_size[1] // patch_size)
        image = vision.get("image_size")
        image = [378, 378] if image is None else image
        if not (isinstance(image, (list, tuple)) and len(image) == 2
                and all(type(side) is int and side > 0 for side in image)):
            raise ArchitectureError("vision_config.image_size", f"must be [height, width], got {image!r}"[:200],
                                    where)
        rows = (image[0] // sizes["patch_size"]) * (image[1] // sizes["patch_size"])
        if rows == 0:
            raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than image_size="
                                    f"{list(image)}", where)
    else:
        rows = positive(vision, "num_position_embeddings", "vision_config", where)
    return Molmo2Tower(prefix, **sizes, num_position_embeddings=rows,
                       attention_bias=flag(vision, "attention_bias", "vision_config", where))


TOWERS = {"molmo2_vision": TowerKind(VISION_DEFAULTS, make)}


def feature_layers(adapter: Mapping[str, Any], depth: int | None) -> list[int]:
    """adapter_config's vision_feature_layer (or vit_layers): tower layers, each in -depth..depth - 1
    (Molmo2Config.validate_architecture; ``depth`` None: any, as the remote code's layout takes them modulo)."""
    layers = adapter.get("vit_layers", adapter.get("vision_feature_layer"))
    layers = [24, 18] if layers is None else layers
    if not isinstance(layers, (list, tuple)) or not layers or any(type(i) is not int for i in layers):
        raise ArchitectureError("adapter_config.vision_feature_layer", f"must be a list of tower layers, got "
                                f"{layers!r}"[:200])
    wrong = None if depth is None else next((i for i in layers if not -depth <= i < depth), None)
    if wrong is not None:
        raise ArchitectureError("adapter_config.vision_feature_layer", f"{wrong} is not one of the {depth} layers of "
                                "vision_config (Molmo2Config.validate_architecture)")
    return list(layers)


def rewritten(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """Molmo2Config.__post_init__ given the remote code's vit_config (allenai's releases): it is the vision_config
    where none is given, and then the adapter's layers are taken modulo the tower's depth and the tower is cut to the
    deepest one read (max + 1 layers)."""
    legacy = config.get("vit_config")
    if legacy is None:
        return config
    vision = config.get("vision_config")
    vision = legacy if vision is None else vision
    if not isinstance(vision, Mapping):
        raise ArchitectureError("vit_config", "must be a JSON object")
    depth = positive({**VISION_DEFAULTS, **vision}, "num_hidden_layers", "vision_config")
    given = section(config, "adapter_config", {})
    layers = [layer % depth for layer in feature_layers(given, None)]
    given = {key: value for key, value in given.items() if key != "vit_layers"}
    return {**config, "vision_config": {**vision, "num_hidden_layers": max(layers) + 1},
            "adapter_config": {**given, "vision_feature_layer": layers}}


def adapter(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Molmo2Adapter: image_pooling_2d over the read layers' features, then image_projector."""
    given = section(config, "adapter_config", ADAPTER_DEFAULTS)
    layers = feature_layers(given, vision.num_hidden_layers)
    sizes = {key: positive(given, key, "adapter_config") for key in (
        "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim", "intermediate_size",
        "text_hidden_size")}
    width, inner, bias = sizes["hidden_size"], sizes["intermediate_size"], flag(given, "mlp_bias", "adapter_config")
    out = attention("image_pooling_2d", width * len(layers), sizes["num_attention_heads"],
                    sizes["num_key_value_heads"], sizes["head_dim"], width,
                    flag(given, "attention_bias", "adapter_config"))
    for name, shape in (("gate_proj", (inner, width)), ("up_proj", (inner, width))):
        out.append((f"image_projector.{name}.weight", shape))
        if bias:
            out.append((f"image_projector.{name}.bias", (inner,)))
    out.append(("image_projector.down_proj.weight", (sizes["text_hidden_size"], inner)))
    return out
