"""ViT and DeiT as AutoModel builds them (ViTModel, DeiTModel): the image encoder of a VisionEncoderDecoderModel
(microsoft/trocr-*, nlpconnect/vit-gpt2-image-captioning), read from its config.encoder (families/
vision_encoder_decoder.py), the component "vision".

transformers 5.24.0 models/vit/modeling_vit.py: ViTModel registers embeddings (ViTEmbeddings: cls_token (1, 1, d),
position_embeddings (1, patches + 1, d), both nn.Parameter, then patch_embeddings.projection, an nn.Conv2d
(d, channels, patch, patch) with its bias; lines 42-85), layers.{i} (ViTLayer: attention.q_proj, k_proj, v_proj
biased by qkv_bias, o_proj always biased, layernorm_before, layernorm_after, mlp.fc1, mlp.fc2; lines 192-262),
layernorm, and pooler.dense (pooler_output_size, d) with its bias (ViTPooler, add_pooling_layer=True in AutoModel;
ViTConfig.__post_init__ makes a null pooler_output_size hidden_size).  No buffers.  head_dim is
getattr(config, "head_dim", hidden_size // heads) (ViTAttention).
models/deit/modeling_deit.py: DeiTModel identical except: a distillation_token (1, 1, d) registered after the
positions, which hold patches + 2 rows (DeiTEmbeddings, lines 78-92)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..design.layers import Layer
from ..inventory import Tensor
from ..limits import MAX_INTEGER
from ..naming import Naming
from ..parts.attention import Attention
from ..parts.ffn import DenseFFN
from ..parts.norms import BlockNorms
from ._kind import stamped

_new = tuple.__new__
NAMING = Naming(layer="layers.{i}", q="attention.q_proj", k="attention.k_proj", v="attention.v_proj",
                o="attention.o_proj", up="mlp.fc1", down="mlp.fc2", attn_pre_norm="layernorm_before",
                ffn_pre_norm="layernorm_after", layer_order=("attention", "layernorm_before", "layernorm_after", "mlp"))
"""ViTLayer's names, relative to the model (modeling_vit.py lines 257-262)."""

VIT_DEFAULTS = {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
                "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True, "pooler_output_size": None}
"""transformers 5.24.0 models/vit/configuration_vit.py (ViTConfig, lines 50-65)."""
DEIT_DEFAULTS = VIT_DEFAULTS
"""transformers 5.24.0 models/deit/configuration_deit.py (DeiTConfig): ViTConfig's sizes."""
SIZES = ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "num_channels")


class ViT(NamedTuple):
    """One ViTModel (or DeiTModel) under ``prefix``: tensors() in registration order, no buffers."""
    prefix: str  # "encoder."
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    num_channels: int
    patch: tuple[int, int]  # patch_size (height, width)
    patches: int  # (image height // patch height) × (image width // patch width)
    head_dim: int
    qkv_bias: bool
    pooler_output_size: int
    distilled: bool = False  # DeiT's distillation_token (one more position row)

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def buffers(self) -> list[Any]:
        return []

    def embedding_tables(self) -> list[str]:
        return []  # (its positions are an nn.Parameter, no nn.Embedding)

    def listed(self) -> tuple[Tensor, ...]:
        p, d = self.prefix, self.hidden_size
        out = [_new(Tensor, (f"{p}embeddings.cls_token", (1, 1, d), "vision", None, False, 0)),
               _new(Tensor, (f"{p}embeddings.position_embeddings", (1, self.patches + 1 + self.distilled, d),
                             "vision", None, False, 0))]
        if self.distilled:
            out.append(_new(Tensor, (f"{p}embeddings.distillation_token", (1, 1, d), "vision", None, False, 0)))
        out += [_new(Tensor, (f"{p}embeddings.patch_embeddings.projection.weight",
                              (d, self.num_channels, *self.patch), "vision", None, False, 0)),
                _new(Tensor, (f"{p}embeddings.patch_embeddings.projection.bias", (d,), "vision", None, False, 0))]
        heads = self.num_attention_heads
        attention = _new(Attention, (d, heads, heads, self.head_dim, self.head_dim, self.qkv_bias, True, "none", True,
                                     "none", False, False, False, False, 0, False, False))
        ffn = _new(DenseFFN, (d, self.intermediate_size, False, True, False, False, False))
        block = _new(Layer, ((attention, ffn, _new(BlockNorms, (d, "pre", True, True, True))),)).tensors(
            NAMING, "layernorm")
        from ..inventory import _position_in

        block = tuple(sorted(block, key=_position_in(NAMING.layer_order)))
        out += stamped([f"{p}layers.{i}." for i in range(self.num_hidden_layers)], [(t.name, t.shape) for t in block])
        pooled = self.pooler_output_size
        out += [_new(Tensor, (f"{p}layernorm.weight", (d,), "vision", None, False, 0)),
                _new(Tensor, (f"{p}layernorm.bias", (d,), "vision", None, False, 0)),
                _new(Tensor, (f"{p}pooler.dense.weight", (pooled, d), "vision", None, False, 0)),
                _new(Tensor, (f"{p}pooler.dense.bias", (pooled,), "vision", None, False, 0))]
        return tuple(out)


@lru_cache(maxsize=64)
def _listed(tower: ViT) -> tuple[Tensor, ...]:
    return tower.listed()


def _pair(config: Mapping[str, Any], key: str, section: str, where: str | None) -> tuple[int, int]:
    """image_size or patch_size: an int or [height, width] (ViTPatchEmbeddings reads either), each positive."""
    value = config.get(key)
    pair = tuple(value) if isinstance(value, (list, tuple)) else (value, value)
    if len(pair) != 2 or not all(type(size) is int and 0 < size <= MAX_INTEGER for size in pair):
        raise ArchitectureError(f"{section}.{key}", f"must be a positive whole number or two of them, got "
                                f"{quoted(value)}"[:200], where)
    return pair  # type: ignore[return-value]


def make(prefix: str, config: Mapping[str, Any], where: str | None, section: str = "encoder",
         distilled: bool = False) -> ViT:
    """The ViTModel (DeiTModel where ``distilled``) ``config`` builds (over its class defaults), each size
    checked, a bad one refused in one line under ``section``."""
    sizes = {}
    for key in SIZES:
        value = config.get(key)
        if type(value) is not int or not 0 < value <= MAX_INTEGER:
            raise ArchitectureError(f"{section}.{key}", f"must be a positive whole number, got {quoted(value)}"[:200],
                                    where)
        sizes[key] = value
    image, patch = _pair(config, "image_size", section, where), _pair(config, "patch_size", section, where)
    if patch[0] > image[0] or patch[1] > image[1]:
        raise ArchitectureError(f"{section}.patch_size", f"{quoted(config.get('patch_size'))} is larger than "
                                f"image_size={quoted(config.get('image_size'))}: no patch fits", where)
    head_dim = config.get("head_dim")
    if head_dim is None:
        if sizes["hidden_size"] % sizes["num_attention_heads"]:
            raise ArchitectureError(f"{section}.num_attention_heads", f"{sizes['num_attention_heads']} heads do not "
                                    f"divide hidden_size={sizes['hidden_size']}", where)
        head_dim = sizes["hidden_size"] // sizes["num_attention_heads"]
    elif type(head_dim) is not int or not 0 < head_dim <= MAX_INTEGER:
        raise ArchitectureError(f"{section}.head_dim", f"must be a positive whole number, got {quoted(head_dim)}",
                                where)
    qkv_bias = config.get("qkv_bias")
    if not isinstance(qkv_bias, bool):
        raise ArchitectureError(f"{section}.qkv_bias", f"must be true or false, got {quoted(qkv_bias)}"[:200], where)
    pooled = config.get("pooler_output_size") or sizes["hidden_size"]  # (ViTConfig.__post_init__: falsy -> width)
    if type(pooled) is not int or not 0 < pooled <= MAX_INTEGER:
        raise ArchitectureError(f"{section}.pooler_output_size", f"must be a positive whole number, got "
                                f"{quoted(pooled)}"[:200], where)
    return ViT(prefix, sizes["hidden_size"], sizes["num_hidden_layers"], sizes["num_attention_heads"],
               sizes["intermediate_size"], sizes["num_channels"], patch,
               (image[0] // patch[0]) * (image[1] // patch[1]), head_dim, qkv_bias, pooled, distilled)
