"""Ovis2's vision tower and its visual embedding table.  transformers 5.24.0 models/ovis2/modeling_ovis2.py.

Ovis2VisionModel: a ViT under "transformer." (Ovis2VisionEmbeddings: a biased Conv2d, a learned position per
patch, an RMSNorm; each layer's attention k, v, q, out_proj biased by qkv_bias, a gated FFN biased by mlp_bias,
rms_norm1 and rms_norm2 registered after them; a final RMSNorm), then the visual head: head_linear, no bias, from
the hidden_stride² folded patches to the visual vocabulary less its indicator tokens, and a LayerNorm over those.
Ovis2Model registers after the decoder an nn.Embedding of the visual vocabulary (vision_config's vocab_size) as
wide as the *whole* config's hidden_size (``visual_table``, the projector)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, stamped
from .projectors import flag

_new = tuple.__new__

VISUAL_TABLE = "model.visual_embeddings_table."
"""Ovis2Model.visual_embeddings_table (an Ovis2VisualEmbeddingTable, an nn.Embedding): the projector's prefix."""


class Ovis2Tower(NamedTuple):
    """An Ovis2VisionModel as its vision_config gives it (HF key names)."""
    prefix: str  # "model.vision_tower."
    hidden_size: int  # hidden_size
    intermediate_size: int  # intermediate_size
    num_hidden_layers: int  # num_hidden_layers
    num_channels: int  # num_channels
    image_size: int  # image_size
    patch_size: int  # patch_size
    qkv_bias: bool  # qkv_bias: k, v, q and out_proj
    mlp_bias: bool  # mlp_bias: gate, up and down_proj
    hidden_stride: int  # hidden_stride: hidden_stride² patches fold into one before the head
    vocab_size: int  # vocab_size: the visual vocabulary, the visual embedding table's rows
    num_visual_indicator_tokens: int  # num_visual_indicator_tokens: of the vocabulary, not the head's

    @property
    def visual_tokens(self) -> int:
        """The head's rows: the visual vocabulary less its indicator tokens."""
        return self.vocab_size - self.num_visual_indicator_tokens

    @property
    def patches(self) -> int:
        return (self.image_size // self.patch_size) ** 2

    def tensors(self) -> list[Tensor]:
        d, inner, p = self.hidden_size, self.intermediate_size, self.prefix

        def linear(name: str, out: int, into: int, bias: bool) -> list[tuple[str, tuple[int, ...]]]:
            return [(name + ".weight", (out, into))] + ([(name + ".bias", (out,))] if bias else [])

        block = [*(pair for name in ("k_proj", "v_proj", "q_proj", "out_proj")
                   for pair in linear("attention." + name, d, d, self.qkv_bias)),
                 *linear("ffn.gate_proj", inner, d, self.mlp_bias), *linear("ffn.up_proj", inner, d, self.mlp_bias),
                 *linear("ffn.down_proj", d, inner, self.mlp_bias),
                 ("rms_norm1.weight", (d,)), ("rms_norm2.weight", (d,))]
        embeddings = p + "transformer.embeddings."
        out = [_new(Tensor, (name, shape, "vision", None, False, 0)) for name, shape in (
            (embeddings + "patch_embedding.weight", (d, self.num_channels, self.patch_size, self.patch_size)),
            (embeddings + "patch_embedding.bias", (d,)),
            (embeddings + "position_embedding.weight", (self.patches, d)),
            (embeddings + "rms_norm.weight", (d,)))]
        out += stamped([f"{p}transformer.encoder.layers.{i}." for i in range(self.num_hidden_layers)], block)
        out += [_new(Tensor, (name, shape, "vision", None, False, 0)) for name, shape in (
            (p + "transformer.rms_norm.weight", (d,)),
            (p + "head_linear.weight", (self.visual_tokens, d * self.hidden_stride ** 2)),
            (p + "head_norm.weight", (self.visual_tokens,)), (p + "head_norm.bias", (self.visual_tokens,)))]
        return out

    def buffers(self) -> list[Buffer]:
        """Ovis2VisionEmbeddings.position_ids: int64, non-persistent, one per patch."""
        return [Buffer(self.prefix + "transformer.embeddings.position_ids", (1, self.patches), "int64", False)]

    def embedding_tables(self) -> list[str]:
        """Its nn.Embedding tables: the learned positions, and the visual embedding table the projector lists (a
        projector's tensors declare no tables; Ovis2Model holds one, an Ovis2VisualEmbeddingTable)."""
        return [self.prefix + "transformer.embeddings.position_embedding.weight", VISUAL_TABLE + "weight"]


def _size(vision: Mapping[str, Any], key: str, where: str | None, low: int = 1) -> int:
    value = vision.get(key)
    if type(value) is not int or value < low:
        what = "a positive whole number" if low == 1 else "a whole number from 0"
        raise ArchitectureError(f"vision_config.{key}", f"must be {what}, got {value!r}", where)
    return value


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Ovis2Tower:
    sizes = {key: _size(vision, key, where) for key in (
        "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_channels",
        "image_size", "patch_size", "hidden_stride", "vocab_size")}
    indicators = _size(vision, "num_visual_indicator_tokens", where, low=0)
    if sizes["hidden_size"] % sizes["num_attention_heads"]:  # Ovis2VisionAttention refuses it
        raise ArchitectureError("vision_config.num_attention_heads", f"{sizes['num_attention_heads']} heads do not "
                                f"divide hidden_size={sizes['hidden_size']}", where)
    if sizes["image_size"] < sizes["patch_size"]:
        raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than image_size="
                                f"{sizes['image_size']}", where)
    if indicators >= sizes["vocab_size"]:
        raise ArchitectureError("vision_config.num_visual_indicator_tokens", f"{indicators} leaves no visual token "
                                f"of vocab_size={sizes['vocab_size']} for the head", where)
    try:
        qkv_bias, mlp_bias = flag(vision, "qkv_bias", False), flag(vision, "mlp_bias", False)
    except ArchitectureError as error:
        raise ArchitectureError(f"vision_config.{error.key}", error.message, where) from None
    return Ovis2Tower(prefix, sizes["hidden_size"], sizes["intermediate_size"], sizes["num_hidden_layers"],
                      sizes["num_channels"], sizes["image_size"], sizes["patch_size"], qkv_bias, mlp_bias,
                      sizes["hidden_stride"], sizes["vocab_size"], indicators)


def visual_table(config: Mapping[str, Any], vision: Ovis2Tower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Ovis2Model.visual_embeddings_table: vision_config's vocab_size rows, the whole config's hidden_size wide
    (Ovis2Config: 1536, whatever text_config says)."""
    width = config.get("hidden_size", 1536)
    if type(width) is not int or width <= 0:
        raise ArchitectureError("hidden_size", f"must be a positive whole number, got {width!r}")
    return [("weight", (vision.vocab_size, width))]


OVIS2_VISION_DEFAULTS = {"hidden_size": 1024, "intermediate_size": 2816, "num_hidden_layers": 24,
                         "num_attention_heads": 8, "num_channels": 3, "image_size": 224, "patch_size": 14,
                         "qkv_bias": False, "mlp_bias": False, "vocab_size": 16384, "hidden_stride": 1,
                         "num_visual_indicator_tokens": 5}
"""transformers 5.24.0 models/ovis2/configuration_ovis2.py (Ovis2VisionConfig; Ovis2Config's init_kwargs give
num_visual_indicator_tokens 5, its own default)."""

TOWERS = {"ovis2_vision": TowerKind(OVIS2_VISION_DEFAULTS, make)}
