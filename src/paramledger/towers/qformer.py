"""BLIP-2's vision tower and its Q-Former (issue #16): the bridge from the tower to the language model.

The tower (Blip2VisionModel under "vision_model."): a class token and a learned position per patch plus one, both
raw Parameters (1, 1, d) and (1, patches + 1, d), not nn.Embeddings; a biased patch Conv2d (3 channels in, fixed);
num_hidden_layers pre-norm layers of one fused qkv Linear without bias of its own, given a (3d,) bias (q's and v's,
k's zeros) where qkv_bias, a biased projection, layer_norm1, a biased fc1/fc2 MLP and layer_norm2; a final
post_layernorm.  transformers 5.24.0 models/blip_2/modeling_blip_2.py (Blip2VisionEmbeddings, Blip2Attention,
Blip2EncoderLayer, Blip2VisionModel).

The Q-Former is the projector component (it and the query tokens carry the tower's features to the decoder, as a
projector does; it reads the whole config: num_query_tokens, qformer_config, the tower's width):
``query_tokens`` (1, num_query_tokens, q), a Parameter of the whole model and so listed before every child; the
Q-Former (Blip2QFormerModel under "qformer.": a LayerNorm, then BERT-style layers: self-attention query, key, value
and output dense + LayerNorm; cross-attention every ``cross_attention_frequency`` layers (layer_idx % frequency == 0)
whose key and value read the tower's width (Blip2Config.__post_init__ sets encoder_hidden_size to it, whatever
qformer_config says); the text path's intermediate/output where use_qformer_text_input; then intermediate_query and
output_query); ``language_projection`` (q to the decoder's width, biased).  Blip2QFormerMultiHeadAttention,
Blip2QFormerLayer, Blip2QFormerModel, Blip2ForConditionalGeneration.  InstructBLIP's Q-Former also embeds the
instruction's tokens (InstructBlipQFormerEmbeddings: word and position nn.Embeddings and a LayerNorm, where BLIP-2's
has its bare LayerNorm; a position_ids buffer) and always holds the text path: ``instructblip``."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, stamped
from ._kind import section as config_section

_new = tuple.__new__

VISION_DEFAULTS = {"hidden_size": 1408, "intermediate_size": 6144, "num_hidden_layers": 39, "num_attention_heads": 16,
                   "image_size": 224, "patch_size": 14, "qkv_bias": True}
"""transformers 5.24.0 models/blip_2/configuration_blip_2.py (Blip2VisionConfig); InstructBlipVisionConfig and
InstructBlipVideoVisionConfig hold the same."""
QFORMER_DEFAULTS = {"vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
                    "intermediate_size": 3072, "max_position_embeddings": 512, "cross_attention_frequency": 2,
                    "use_qformer_text_input": False}
"""Blip2QFormerConfig (InstructBlipQFormerConfig: the same without use_qformer_text_input)."""
VISION_SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "image_size",
                "patch_size")


def _size(section: str, config: Mapping[str, Any], key: str, lowest: int = 1) -> int:
    """A size, a whole number from ``lowest`` (else refused, its key named under ``section``: "" the top)."""
    value = config.get(key)
    if type(value) is not int or value < lowest:
        raise ArchitectureError(f"{section}.{key}" if section else key,
                                f"must be a whole number from {lowest}, got {value!r}")
    return value


def _flag(section: str, config: Mapping[str, Any], key: str, default: bool) -> bool:
    value = config.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ArchitectureError(f"{section}.{key}", f"must be true or false, got {value!r}")
    return value


class BlipVisionTower(NamedTuple):
    """A BLIP-2 (InstructBLIP) vision tower as its vision_config gives it, under its module path."""
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    image_size: int
    patch_size: int
    qkv_bias: bool
    # nn.Embedding tables held elsewhere that num_parameters(exclude_embeddings) drops: InstructBLIP's Q-Former
    # embeddings (a projector's tensors declare none; the tower answers for them, as Ovis2's does)
    tables: tuple[str, ...] = ()

    @property
    def patches(self) -> int:
        """(image_size // patch_size)², as Blip2VisionEmbeddings floors it."""
        return (self.image_size // self.patch_size) ** 2

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return list(self.tables)

    def listed(self) -> tuple[Tensor, ...]:
        p, d, width = self.prefix, self.hidden_size, self.intermediate_size

        def one(name: str, shape: tuple[int, ...]) -> Tensor:
            return _new(Tensor, (p + name, shape, "vision", None, False, 0))

        out = [one("embeddings.class_embedding", (1, 1, d)),
               one("embeddings.position_embedding", (1, self.patches + 1, d)),
               one("embeddings.patch_embedding.weight", (d, 3, self.patch_size, self.patch_size)),
               one("embeddings.patch_embedding.bias", (d,))]
        block = [("self_attn.qkv.weight", (3 * d, d))]  # (3d, d)
        if self.qkv_bias:
            block.append(("self_attn.qkv.bias", (3 * d,)))  # cat(q_bias, zeros, v_bias)
        block += [("self_attn.projection.weight", (d, d)), ("self_attn.projection.bias", (d,)),
                  ("layer_norm1.weight", (d,)), ("layer_norm1.bias", (d,)),
                  ("mlp.fc1.weight", (width, d)), ("mlp.fc1.bias", (width,)),
                  ("mlp.fc2.weight", (d, width)), ("mlp.fc2.bias", (d,)),
                  ("layer_norm2.weight", (d,)), ("layer_norm2.bias", (d,))]
        out += stamped([f"{p}encoder.layers.{i}." for i in range(self.num_hidden_layers)], block)
        out += [one("post_layernorm.weight", (d,)), one("post_layernorm.bias", (d,))]
        return tuple(out)


@lru_cache(maxsize=64)
def _listed(tower: BlipVisionTower) -> tuple[Tensor, ...]:
    return tower.listed()


def vision(prefix: str, config: Mapping[str, Any], where: str | None,
           tables: tuple[str, ...] = ()) -> BlipVisionTower:
    """The tower of a vision_config over Blip2VisionConfig's defaults, its sizes checked in one line each."""
    try:
        sizes = {key: _size("vision_config", config, key) for key in VISION_SIZES}
        qkv_bias = _flag("vision_config", config, "qkv_bias", True)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    if sizes["hidden_size"] % sizes["num_attention_heads"]:  # Blip2Attention refuses it
        raise ArchitectureError("vision_config.num_attention_heads", f"{sizes['num_attention_heads']} heads do not "
                                f"divide hidden_size={sizes['hidden_size']}", where)
    return BlipVisionTower(prefix, **sizes, qkv_bias=qkv_bias, tables=tables)


def _attention(name: str, hidden: int, keys_from: int) -> list[tuple[str, tuple[int, ...]]]:
    """One Blip2QFormerAttention: query, key and value (key and value read ``keys_from`` wide), output dense and
    LayerNorm, each biased."""
    out = [(f"{name}.attention.query.weight", (hidden, hidden)), (f"{name}.attention.query.bias", (hidden,))]
    for kind in ("key", "value"):
        out += [(f"{name}.attention.{kind}.weight", (hidden, keys_from)), (f"{name}.attention.{kind}.bias", (hidden,))]
    return out + [(f"{name}.output.dense.weight", (hidden, hidden)), (f"{name}.output.dense.bias", (hidden,)),
                  (f"{name}.output.LayerNorm.weight", (hidden,)), (f"{name}.output.LayerNorm.bias", (hidden,))]


def _ffn(intermediate: str, output: str, hidden: int, width: int) -> list[tuple[str, tuple[int, ...]]]:
    """Blip2QFormerIntermediate and Blip2QFormerOutput: dense up, dense down, LayerNorm, each biased."""
    return [(f"{intermediate}.dense.weight", (width, hidden)), (f"{intermediate}.dense.bias", (width,)),
            (f"{output}.dense.weight", (hidden, width)), (f"{output}.dense.bias", (hidden,)),
            (f"{output}.LayerNorm.weight", (hidden,)), (f"{output}.LayerNorm.bias", (hidden,))]


def qformer_model(section: Mapping[str, Any], key: str, keys_from: int,
                  instruct: bool = False) -> tuple[int, list[tuple[str, tuple[int, ...]]]]:
    """A Blip2QFormerModel of the qformer_config ``section`` (its sizes refused under ``key``), its cross-attention's
    keys and values ``keys_from`` wide: its width and its tensors under "qformer."; ``instruct``: InstructBLIP's (its
    embeddings, the text path in every layer)."""
    width = _size(key, section, "hidden_size")
    heads = _size(key, section, "num_attention_heads")
    layers = _size(key, section, "num_hidden_layers", 0)
    inner = _size(key, section, "intermediate_size")
    every = _size(key, section, "cross_attention_frequency")  # layer_idx % it: 0 would divide by zero
    text_path = instruct or _flag(key, section, "use_qformer_text_input", False)
    if width % heads:  # Blip2QFormerMultiHeadAttention refuses it
        raise ArchitectureError(f"{key}.num_attention_heads", f"{heads} heads do not divide hidden_size={width}")
    if instruct:  # InstructBlipQFormerEmbeddings
        out = [("qformer.embeddings.word_embeddings.weight", (_size(key, section, "vocab_size"), width)),
               ("qformer.embeddings.position_embeddings.weight", (_size(key, section, "max_position_embeddings"),
                                                                  width)),
               ("qformer.embeddings.layernorm.weight", (width,)), ("qformer.embeddings.layernorm.bias", (width,))]
    else:
        out = [("qformer.layernorm.weight", (width,)), ("qformer.layernorm.bias", (width,))]
    plain = _attention("attention", width, width)
    cross = _attention("crossattention", width, keys_from)
    ffns = (_ffn("intermediate", "output", width, inner) if text_path else []) + _ffn(
        "intermediate_query", "output_query", width, inner)
    for i in range(layers):
        block = plain + (cross if i % every == 0 else []) + ffns
        out += [(f"qformer.encoder.layer.{i}.{name}", shape) for name, shape in block]
    return width, out


def qformer(config: Mapping[str, Any], tower: BlipVisionTower, hidden: int,
            instruct: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """The query tokens, the Q-Former and the language projection (names from the whole model's top), as
    Blip2ForConditionalGeneration registers them; ``instruct``: InstructBLIP's Q-Former (its embeddings, the text
    path in every layer)."""
    section = config_section(config, "qformer_config", QFORMER_DEFAULTS)
    width, layers = qformer_model(section, "qformer_config", tower.hidden_size, instruct)
    queries = _size("", config, "num_query_tokens", 0) if "num_query_tokens" in config else 32
    return [("query_tokens", (1, queries, width)), *layers, ("language_projection.weight", (hidden, width)),
            ("language_projection.bias", (hidden,))]


def instructblip(config: Mapping[str, Any], tower: BlipVisionTower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """InstructBLIP's query tokens, Q-Former (its embeddings, the text path in every layer) and projection."""
    return qformer(config, tower, hidden, instruct=True)


def query_positions(config: Mapping[str, Any], hidden: int) -> list[tuple[str, tuple[int, ...], str, bool]]:
    """InstructBlipQFormerEmbeddings' position_ids buffer (int64, non-persistent), under the projector's prefix
    (its size checked by ``instructblip``, which reads the config first)."""
    given = config.get("qformer_config") or {}
    rows = given.get("max_position_embeddings", QFORMER_DEFAULTS["max_position_embeddings"])
    return [("qformer.embeddings.position_ids", (1, rows), "int64", False)]


QUERY_TABLES = ("qformer.embeddings.word_embeddings.weight", "qformer.embeddings.position_embeddings.weight")
BLIP_VISION_DEFAULTS = {**VISION_DEFAULTS, "hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
                        "num_attention_heads": 12, "image_size": 384, "patch_size": 16}
"""transformers 5.24.0 models/blip/configuration_blip.py (BlipVisionConfig: BLIP's tower is BLIP-2's layout,
modeling_blip.py BlipVisionModel; its qkv always biased)."""
TOWERS = {"blip_2_vision_model": TowerKind(VISION_DEFAULTS, vision),
          # (BlipAttention's qkv is always biased: a qkv_bias key is no BlipVisionConfig field)
          "blip_vision_model": TowerKind(BLIP_VISION_DEFAULTS, lambda prefix, config, where: vision(
              prefix, {**config, "qkv_bias": True}, where)),
          "instructblip_vision_model": TowerKind(
              VISION_DEFAULTS, lambda prefix, config, where: vision(prefix, config, where, QUERY_TABLES))}
