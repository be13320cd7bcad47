"""MPNet (transformers 5.24.0 models/mpnet): RoBERTa's layers and head (families/roberta.py) under "mpnet", its
attention as attention.attn.q/k/v/o, no token-type table, and one relative-position bias table for the whole encoder
(MPNetEncoder.relative_attention_bias, relative_attention_num_buckets × heads, registered after the layers).

Identical to roberta except: those names, no token types, the encoder's bias table, MPNetConfig's defaults;
MPNetForMaskedLM is the only head class with an LM head (no CausalLM class)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .roberta import ROBERTA, roberta_naming


def padded_tables(config: Mapping[str, Any]) -> dict[str, Any]:
    """MPNetEmbeddings pads both its tables at row 1 whatever pad_token_id says (modeling_mpnet.py lines 60-63):
    nn.Embedding asserts the row is inside the table, so each needs 2 rows or more."""
    for key in ("vocab_size", "max_position_embeddings"):
        if type(config.get(key)) is int and config[key] < 2:
            raise ArchitectureError(key, f"{config[key]} leaves no row 1, which MPNetEmbeddings pads whatever "
                                         "pad_token_id says: transformers 5.24.0 cannot build it")
    return {}


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
    requires={}, expects={}, derive=(*ROBERTA.derive, padded_tables))
MASKED_LM_ONLY = [MPNET]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
