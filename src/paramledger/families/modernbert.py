"""ModernBERT (transformers 5.24.0 models/modernbert): ModernBertForMaskedLM, the encoder ModernBERT's decoder
(families/modernbert_decoder.py) was made from. Only in the masked-LM mapping: the reference is that class."""

from __future__ import annotations

import dataclasses

from ._family import derived_from
from .modernbert_decoder import FAMILIES as DECODERS

MODERNBERT_DECODER = DECODERS[0]

# identical to modernbert-decoder except: q, k and v fused in one attn.Wqkv (3 × hidden rows, biased by
# attention_bias; modeling_modernbert.py lines 234-236), the prediction head as head.dense and head.norm, and the
# masked-LM config's keys that change no tensor (sparse prediction, the classifier's pooling, flash attention's
# determinism) (configuration_modernbert.py)
MODERNBERT = derived_from(
    MODERNBERT_DECODER, model_type="modernbert", causal_lm_class="ModernBertForMaskedLM",
    source="transformers 5.24.0 models/modernbert/configuration_modernbert.py",
    naming=dataclasses.replace(
        MODERNBERT_DECODER.naming, qkv="attn.Wqkv", lm_head_dense="head.dense", lm_head_norm="head.norm",
        model_order=("model.embeddings", "model.layers", "model.final_norm", "head", "decoder")),
    count_neutral=MODERNBERT_DECODER.count_neutral | {"sparse_prediction", "sparse_pred_ignore_index",
                                                      "classifier_pooling", "deterministic_flash_attn",
                                                      "reference_compile",
                                                      # in the released configs, read by no modernbert module
                                                      "gradient_checkpointing", "position_embedding_type"})
MASKED_LM_ONLY = [MODERNBERT]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
