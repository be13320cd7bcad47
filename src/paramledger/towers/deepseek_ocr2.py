"""DeepSeek-OCR 2's vision tower (transformers 5.24.0 models/deepseek_ocr2/modeling_deepseek_ocr2.py
DeepseekOcr2VisionModel, lines 929-940): two encoders and two learned query tables in one module, each encoder read
from its own section of vision_config.  Unlimited-OCR's (towers/unlimited_ocr.py) is derived from it, with the
encoder swapped:

- sam_encoder (sam_config, DeepseekOcr2SamVisionEncoder, lines 528-560): Unlimited-OCR's SAM (GOT-OCR 2.0's ViT and
  neck, then proj.conv1 and proj.conv2 without bias to downsample_channels [512, 896]); mlp_dim, when not given, is
  int(hidden_size * mlp_ratio) (DeepseekOcr2SamVisionConfig.__post_init__);
- vision_encoder (encoder_config, DeepseekOcr2VisionEncoder, lines 861-880): a Qwen2 decoder stack without its
  token table: per layer q, k, v (biased) and o (not) at head_dim hidden_size // heads (getattr: a given head_dim
  wins), a gated MLP without bias, input_layernorm and post_attention_layernorm (RMSNorm), then norm; its rotary's
  inv_freq pair (float32, not persistent);
- query_768_resolution (144, d) and query_1024_resolution (256, d): nn.Embeddings at the encoder's width."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import MAX_REPEAT
from . import got_ocr2
from ._kind import TowerKind, section, stamped

_new = tuple.__new__

SAM_DEFAULTS = {**got_ocr2.GOT_OCR2_DEFAULTS, "mlp_dim": None, "mlp_ratio": 4.0, "downsample_channels": [512, 896]}
"""DeepseekOcr2SamVisionConfig (configuration_deepseek_ocr2.py lines 45-73)."""
ENCODER_DEFAULTS = {"hidden_size": 4096, "intermediate_size": 22016, "num_hidden_layers": 32,
                    "num_attention_heads": 32, "num_key_value_heads": 32}
"""DeepseekOcr2VisionEncoderConfig (lines 89-146; its vocab_size builds no table)."""
QUERY_ROWS = (("query_768_resolution", 144), ("query_1024_resolution", 256))


class QwenEncoder(NamedTuple):
    """DeepseekOcr2VisionEncoder under its prefix."""
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int

    def tensors(self) -> list[Tensor]:
        d, inner, heads, kv, hd = (self.hidden_size, self.intermediate_size, self.num_attention_heads,
                                   self.num_key_value_heads, self.head_dim)
        block = [("self_attn.q_proj.weight", (heads * hd, d)), ("self_attn.q_proj.bias", (heads * hd,)),
                 ("self_attn.k_proj.weight", (kv * hd, d)), ("self_attn.k_proj.bias", (kv * hd,)),
                 ("self_attn.v_proj.weight", (kv * hd, d)), ("self_attn.v_proj.bias", (kv * hd,)),
                 ("self_attn.o_proj.weight", (d, heads * hd)),
                 ("mlp.gate_proj.weight", (inner, d)), ("mlp.up_proj.weight", (inner, d)),
                 ("mlp.down_proj.weight", (d, inner)),
                 ("input_layernorm.weight", (d,)), ("post_attention_layernorm.weight", (d,))]
        out = stamped([f"{self.prefix}layers.{i}." for i in range(self.num_hidden_layers)], block)
        return [*out, _new(Tensor, (self.prefix + "norm.weight", (d,), "vision", None, False, 0))]

    def buffers(self) -> list[Buffer]:
        width = (self.head_dim + 1) // 2  # torch.arange(0, head_dim, 2)
        return [Buffer(f"{self.prefix}rotary_emb.{which}", (width,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


class DeepseekOcr2Tower(NamedTuple):
    sam: got_ocr2.SamTower
    downsample_channels: tuple[int, int]
    encoder: QwenEncoder
    prefix: str

    @property
    def hidden_size(self) -> int:
        """The projector's input: the encoder's width."""
        return self.encoder.hidden_size

    def tensors(self) -> list[Tensor]:
        first, second = self.downsample_channels
        p, d = self.sam.prefix, self.encoder.hidden_size
        proj = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("proj.conv1.weight", (first, self.sam.output_channels, 3, 3)),
            ("proj.conv2.weight", (second, first, 3, 3)))]
        queries = [_new(Tensor, (f"{self.prefix}{name}.weight", (rows, d), "vision", None, False, 0))
                   for name, rows in QUERY_ROWS]
        return [*self.sam.tensors(), *proj, *self.encoder.tensors(), *queries]

    def buffers(self) -> list[Buffer]:
        return self.encoder.buffers()

    def embedding_tables(self) -> list[str]:
        return [f"{self.prefix}{name}.weight" for name, _ in QUERY_ROWS]


def _size(config: Mapping[str, Any], key: str, where: str | None) -> int:
    value = config.get(key)
    if type(value) is not int or not 0 < value <= (MAX_REPEAT if key == "num_hidden_layers" else 2**31):
        raise ArchitectureError(f"vision_config.encoder_config.{key}", f"must be a positive whole number, got "
                                f"{value!r}", where)
    return value


def _encoder(prefix: str, config: Mapping[str, Any], where: str | None) -> QwenEncoder:
    # (DeepseekOcr2VisionAttention builds k and v at num_key_value_heads whether or not they divide the heads)
    if config.get("num_key_value_heads") is None:  # DeepseekOcr2VisionEncoderConfig.__post_init__
        config = {**config, "num_key_value_heads": config.get("num_attention_heads")}
    d, inner, layers, heads, kv = (_size(config, key, where) for key in (
        "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads"))
    head_dim = config.get("head_dim") or d // heads
    if type(head_dim) is not int or head_dim <= 0:
        raise ArchitectureError("vision_config.encoder_config.head_dim", f"must be a positive whole number (or "
                                f"hidden_size at least num_attention_heads), got {head_dim!r}", where)
    return QwenEncoder(prefix, d, inner, layers, heads, kv, head_dim)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> DeepseekOcr2Tower:
    try:
        sam_config = section(vision, "sam_config", SAM_DEFAULTS)
        encoder_config = section(vision, "encoder_config", ENCODER_DEFAULTS)
    except ArchitectureError as error:
        raise ArchitectureError(f"vision_config.{error.key}", error.message, where) from None
    channels = sam_config.get("downsample_channels")
    if not (isinstance(channels, (list, tuple)) and len(channels) >= 2
            and all(type(c) is int and c > 0 for c in channels[:2])):
        raise ArchitectureError("vision_config.sam_config.downsample_channels", f"must list two positive channel "
                                f"counts, got {channels!r}"[:200], where)
    if sam_config.get("mlp_dim") is None:
        hidden, ratio = sam_config.get("hidden_size"), sam_config.get("mlp_ratio", 4.0)
        if type(hidden) is not int or not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or ratio <= 0:
            raise ArchitectureError("vision_config.sam_config.mlp_ratio", f"must be a positive number, got "
                                    f"{ratio!r}", where)
        sam_config = {**sam_config, "mlp_dim": int(hidden * ratio)}
    try:
        sam = got_ocr2.make(prefix + "sam_encoder.", sam_config, where)
    except ArchitectureError as error:
        raise ArchitectureError(error.key.replace("vision_config.", "vision_config.sam_config.", 1), error.message,
                                error.where) from None
    encoder = _encoder(prefix + "vision_encoder.", encoder_config, where)
    return DeepseekOcr2Tower(sam, (channels[0], channels[1]), encoder, prefix)


TOWERS = {"deepseek_ocr2_vision": TowerKind({"sam_config": None, "encoder_config": None}, make)}


def deepseek_ocr2(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """DeepseekOcr2Model's own (under the prefix "model."): view_separator (hidden,), then multi_modal_projector,
    one biased Linear from the encoder's width to the decoder's."""
    return [("view_separator", (hidden,)), ("multi_modal_projector.weight", (hidden, vision.hidden_size)),
            ("multi_modal_projector.bias", (hidden,))]
