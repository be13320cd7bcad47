"""DeBERTa-v2 (transformers 5.24.0 models/deberta_v2): DebertaV2ForMaskedLM's legacy head (cls.predictions, BERT's)
over BERT's post-LN encoder (families/bert.py) with its own projection names. Only in the masked-LM mapping: the
reference is DebertaV2ForMaskedLM.

Counted without relative attention (the class default). relative_attention adds the encoder's rel_embeddings
((position_buckets or max_relative_positions) × 2 rows, hidden wide, after the layers) and, without share_att_key,
pos_key_proj / pos_query_proj in every attention; conv_kernel_size adds a ConvLayer after the encoder; an
embedding_size apart from hidden_size adds embed_proj without a bias; legacy false a head with no decoder Linear.
Each is refused in one line (docs/notes/encoders-k.md has the shared change that counts the relative table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import derived_from, same
from .bert import BERT
from .bert_variants import renamed


def deberta_tables(config: Mapping[str, Any]) -> dict[str, Any]:
    """DebertaV2Embeddings (modeling_deberta_v2.py lines 486-505): a position table only with position_biased_input,
    a token-type table only for type_vocab_size > 0; DebertaV2Encoder's LayerNorm (lines 581-584, after the layers)
    whenever norm_rel_ebd names layer_norm, with relative attention or without."""
    width = config.get("embedding_size")
    if width is not None and width != config["hidden_size"]:
        raise ArchitectureError("embedding_size", f"{width} apart from hidden_size is not supported for deberta-v2 "
                                "(its embed_proj carries no bias; paramledger counts only equal widths)")
    norms = [name.strip() for name in str(config.get("norm_rel_ebd") or "none").lower().split("|")]
    return {"position_embedding_type": "learned" if config.get("position_biased_input", True) else "none",
            "type_vocab_size": config.get("type_vocab_size") or None, "final_norm": "layer_norm" in norms}


# identical to bert except: DebertaV2Model under "deberta" (query_proj, key_proj, value_proj; the attention head size
# as attention_head_size), no token_type_ids buffer, the tables by deberta_tables, DebertaV2Config's defaults
# (configuration_deberta_v2.py); relative attention, the conv layer, factorized embeddings and the new head refused
DEBERTA_V2 = derived_from(
    BERT, model_type="deberta-v2", causal_lm_class="DebertaV2ForMaskedLM",
    source="transformers 5.24.0 models/deberta_v2/configuration_deberta_v2.py",
    naming=renamed(BERT.naming, "deberta", q="attention.self.query_proj", k="attention.self.key_proj",
                   v="attention.self.value_proj", final_norm="deberta.encoder.LayerNorm",
                   model_buffers=(("deberta.embeddings.position_ids", (1, "max_position_embeddings"), "int64",
                                   False),),
                   model_order=("deberta.embeddings", "deberta.encoder.layer", "deberta.encoder.LayerNorm",
                                "cls.predictions.bias", "cls.predictions.transform")),
    keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                 "max_position_embeddings", "tie_word_embeddings", "hidden_act"), "attention_head_size": "head_dim"},
    defaults={"vocab_size": 128100, "hidden_size": 1536, "num_hidden_layers": 24, "num_attention_heads": 24,
              "intermediate_size": 6144, "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 0,
              "tie_word_embeddings": True, "position_biased_input": True, "relative_attention": False},
    count_neutral=BERT.count_neutral | {"type_vocab_size", "position_biased_input", "norm_rel_ebd", "embedding_size",
                                        "pooler_dropout", "pooler_hidden_act", "pooler_hidden_size",
                                        "max_relative_positions", "position_buckets", "pos_att_type",
                                        "share_att_key", "conv_groups", "conv_act", "cls_dropout"},
    switches={key: value for key, value in BERT.switches.items()
              if key not in ("position_embedding_type", "final_norm")},
    requires={"relative_attention": False, "conv_kernel_size": 0, "legacy": True}, expects={},
    derive=(deberta_tables, rules.heads_fill_hidden("DebertaV2SelfOutput's dense is hidden × hidden")), explain=())
MASKED_LM_ONLY = [DEBERTA_V2]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
