"""Unlimited-OCR's vision tower (transformers 5.24.0 models/unlimited_ocr/modeling_unlimited_ocr.py
UnlimitedOcrVisionModel, lines 901-930): DeepSeek-OCR 2's two encoders in one module, each read from its own section
of vision_config.

- sam_encoder (sam_config, UnlimitedOcrSamVisionEncoder): GOT-OCR 2.0's SAM ViT and neck (towers/got_ocr2.py)
  except: two 3×3 convs without bias after the neck (proj.conv1, output_channels -> downsample_channels[0], and
  proj.conv2, -> downsample_channels[1]);
- vision_encoder (encoder_config, UnlimitedOcrVisionEncoder): CLIP's vision transformer (towers/vision.py CLIP)
  except: no patch embedding (the SAM feature map is its patches) and no post_layernorm.

The projector is one biased Linear from the two encoders' features concatenated (downsample_channels[-1] +
encoder_config.hidden_size) to the decoder's width; the whole model holds two hidden-wide vectors of its own
(view_separator, image_newline), listed before its towers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from . import got_ocr2
from ._kind import TowerKind, section
from .vision import CLIP, CLIP_DEFAULTS, VisionTower, vit

_new = tuple.__new__

# transformers 5.24.0 models/unlimited_ocr/configuration_unlimited_ocr.py (UnlimitedOcrSamVisionConfig: GOT-OCR 2.0's
# and downsample_channels; UnlimitedOcrVisionEncoderConfig: CLIPVisionConfig's, 24 layers of 1024 over 14-pixel patches)
SAM_DEFAULTS = {**got_ocr2.GOT_OCR2_DEFAULTS, "downsample_channels": [512, 1024]}
ENCODER_DEFAULTS = {**CLIP_DEFAULTS, "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
                    "num_attention_heads": 16, "patch_size": 14}
_ENCODER = vit(CLIP._replace(post_norm=None))


class UnlimitedOcrTower(NamedTuple):
    sam: got_ocr2.SamTower
    downsample_channels: tuple[int, int, int]  # [0], [1] and [-1] (the projector's share of its input)
    encoder: VisionTower

    @property
    def features(self) -> int:
        """The projector's input: the SAM branch's last downsampled channels and the encoder's width."""
        return self.downsample_channels[2] + self.encoder.hidden_size

    def tensors(self) -> list[Tensor]:
        first, second, _ = self.downsample_channels
        p = self.sam.prefix
        proj = [_new(Tensor, (p + name, shape, "vision", None, False, 0)) for name, shape in (
            ("proj.conv1.weight", (first, self.sam.output_channels, 3, 3)),
            ("proj.conv2.weight", (second, first, 3, 3)))]
        patch = self.encoder.prefix + self.encoder.layout.patch + ".weight"
        return [*self.sam.tensors(), *proj, *(t for t in self.encoder.tensors() if t.name != patch)]

    def buffers(self) -> list[Buffer]:
        return self.encoder.buffers()

    def embedding_tables(self) -> list[str]:
        return self.encoder.embedding_tables()


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> UnlimitedOcrTower:
    try:
        sam_config = section(vision, "sam_config", SAM_DEFAULTS)
        encoder_config = section(vision, "encoder_config", ENCODER_DEFAULTS)
    except ArchitectureError as error:
        raise ArchitectureError(f"vision_config.{error.key}", error.message, where) from None
    channels = sam_config.get("downsample_channels")
    if not (isinstance(channels, (list, tuple)) and len(channels) >= 2
            and all(type(c) is int and c > 0 for c in channels)):
        raise ArchitectureError("vision_config.sam_config.downsample_channels", f"must list at least two positive "
                                f"channel counts, got {channels!r}"[:200], where)
    sam = _under("sam_config", lambda: got_ocr2.make(prefix + "sam_encoder.", sam_config, where))
    encoder = _under("encoder_config", lambda: _ENCODER(prefix + "vision_encoder.", encoder_config, where))
    return UnlimitedOcrTower(sam, (channels[0], channels[1], channels[-1]), encoder)


def _under(key: str, made: Any) -> Any:
    """A sub-config's tower, its refusals named under vision_config.<key>."""
    try:
        return made()
    except ArchitectureError as error:
        raise ArchitectureError(error.key.replace("vision_config.", f"vision_config.{key}.", 1), error.message,
                                error.where) from None


TOWERS = {"unlimited_ocr_vision": TowerKind({"sam_config": None, "encoder_config": None}, make)}


def unlimited_ocr(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """UnlimitedOcrModel's own (under the prefix "model."): multi_modal_projector, one biased Linear to the
    decoder's width, and the two learned separators, view_separator and image_newline (hidden,)."""
    return [("multi_modal_projector.weight", (hidden, vision.features)), ("multi_modal_projector.bias", (hidden,)),
            ("view_separator", (hidden,)), ("image_newline", (hidden,))]
