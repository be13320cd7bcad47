"""Qianfan-OCR's vision tower: InternViT (towers/internvl.py) with its layers at "layers.{i}" and its final LayerNorm
(where use_mean_pooling is false) registered before them; q/k/v biased by default.  Its projector is InternVL's.
transformers 5.24.0 models/qianfan_ocr/modeling_qianfan_ocr.py (QianfanOCRVisionModel, QianfanOCRMultiModalProjector)."""

from __future__ import annotations

from functools import partial

from ._kind import TowerKind
from .internvl import INTERNVL_DEFAULTS, make

QIANFAN_OCR_DEFAULTS = {**INTERNVL_DEFAULTS, "attention_bias": True}
"""transformers 5.24.0 models/qianfan_ocr/configuration_qianfan_ocr.py (QianfanOCRVisionConfig): InternVL's but for
attention_bias."""

TOWERS = {"qianfan_ocr_vision": TowerKind(QIANFAN_OCR_DEFAULTS, partial(make, layer="layers.{i}", norm_first=True))}
