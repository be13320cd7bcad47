"""Longformer (transformers 5.24.0 models/longformer): RoBERTa (families/roberta.py) under "longformer" with the
global tokens' own query, key and value projections in every attention (parts/global_attention.py). Only in the
masked-LM mapping: the reference is LongformerForMaskedLM."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .roberta import ROBERTA, roberta_naming


def attention_windows(config: Mapping[str, Any], layers_key: str = "num_hidden_layers") -> dict[str, Any]:
    """Each layer's window even and positive (LongformerModel asserts it of one int, LongformerSelfAttention of each
    layer's, modeling_longformer.py lines 1300-1302, 470-476; LED's encoder the same, modeling_led.py lines
    113-119), and a list one window a layer, no more (lines 1305-1307; LED's 1275-1278): transformers builds nothing
    otherwise."""
    windows = config.get("attention_window", 512)
    layers = config[layers_key]
    if type(layers) is not int or layers <= 0:
        return {}  # refused under its own key by the size checks (LED's encoder_layers: towers/encoder.py)
    listed = windows if isinstance(windows, (list, tuple)) else [windows] * layers
    if len(listed) != layers or any(type(window) is not int or window <= 0 or window % 2 for window in listed[:layers]):
        raise ArchitectureError("attention_window", f"must be an even positive whole number (or one for each of the "
                                f"{layers} layers), got {windows!r}: transformers 5.24.0 cannot build it"[:300])
    return {}


# identical to roberta except: LongformerModel under "longformer", query_global, key_global and value_global after
# value in every attention (LongformerSelfAttention, modeling_longformer.py lines 458-465), no buffers,
# LongformerConfig's defaults (BERT's vocabulary); attention_window (each layer's local window) changes no tensor
LONGFORMER = derived_from(
    ROBERTA, model_type="longformer", causal_lm_class="LongformerForMaskedLM",
    source="transformers 5.24.0 models/longformer/configuration_longformer.py",
    naming=roberta_naming("longformer", model_buffers=(),
                          layer_order=("attention.self", "attention.output", "intermediate", "output.dense",
                                       "output.LayerNorm")),
    defaults={**ROBERTA.defaults, "vocab_size": 30522},
    switches={**ROBERTA.switches, "global_attention_projections": True},
    count_neutral=ROBERTA.count_neutral | {"attention_window", "onnx_export"}, requires={},
    derive=(*ROBERTA.derive, attention_windows))
MASKED_LM_ONLY = [LONGFORMER]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
