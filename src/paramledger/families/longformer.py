"""Longformer (transformers 5.24.0 models/longformer): RoBERTa (families/roberta.py) under "longformer" with the
global tokens' own query, key and value projections in every attention (parts/global_attention.py). Only in the
masked-LM mapping: the reference is LongformerForMaskedLM."""

from __future__ import annotations

from ._family import derived_from
from .roberta import ROBERTA, roberta_naming

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
    count_neutral=ROBERTA.count_neutral | {"attention_window", "onnx_export"}, requires={})
MASKED_LM_ONLY = [LONGFORMER]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
