"""MPNet (transformers 5.24.0 models/mpnet): RoBERTa's layers and head (families/roberta.py) under "mpnet", its
attention as attention.attn.q/k/v/o, no token-type table, and one relative-position bias table for the whole encoder
(MPNetEncoder.relative_attention_bias, relative_attention_num_buckets × heads, registered after the layers).

Identical to roberta except: those names, no token types, the encoder's bias table, MPNetConfig's defaults;
MPNetForMaskedLM is the only head class with an LM head (no CausalLM class)."""

from __future__ import annotations

import dataclasses

from ._family import derived_from
from .roberta import ROBERTA, roberta_naming

MPNET = derived_from(
    ROBERTA, model_type="mpnet", causal_lm_class="MPNetForMaskedLM",
    source="transformers 5.24.0 models/mpnet/configuration_mpnet.py",
    naming=dataclasses.replace(
        roberta_naming("mpnet"), q="attention.attn.q", k="attention.attn.k", v="attention.attn.v",
        o="attention.attn.o", attn_post_norm="attention.LayerNorm",
        relative_attention_bias="mpnet.encoder.relative_attention_bias",
        model_buffers=(("mpnet.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),),
        model_order=("mpnet.embeddings.word_embeddings", "mpnet.embeddings.position_embeddings",
                     "mpnet.embeddings.LayerNorm", "mpnet.encoder.layer", "mpnet.encoder.relative_attention_bias",
                     "lm_head.bias", "lm_head.dense", "lm_head.layer_norm", "lm_head.decoder")),
    keys={**{k: v for k, v in ROBERTA.keys.items() if k != "type_vocab_size"},
          "relative_attention_num_buckets": "relative_attention_num_buckets"},
    defaults={**{k: v for k, v in ROBERTA.defaults.items() if k != "type_vocab_size"}, "vocab_size": 30527,
              "relative_attention_num_buckets": 32},
    requires={}, expects={})
MASKED_LM_ONLY = [MPNET]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
