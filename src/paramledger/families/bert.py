"""BERT's masked-LM model (transformers 5.24.0 models/bert, BertForMaskedLM; BertLMHeadModel, the CausalLM head the
mapping registers, holds the same tensors): BertGeneration's encoder (families/bert_generation.py) under its own
head, with a token-type table, and the hub checkpoint's pretraining heads said apart (issue #17).

Identical to bert-generation except: a token-type table (type_vocab_size rows, BertEmbeddings.token_type_embeddings,
and its token_type_ids buffer), the MLM prediction head (BertOnlyMLMHead: cls.predictions.transform's dense and
LayerNorm before the tied decoder, whose bias is cls.predictions.bias, registered first), BertConfig's defaults."""

from __future__ import annotations

import dataclasses
from typing import Any

from ._family import Family, derived_from
from .bert_generation import FAMILIES as GENERATION, cross_attention

BERT_GENERATION = GENERATION[0]


def pretraining_heads(arch: Any) -> str | None:
    """BERT's hub checkpoints are BertForPreTraining's: the pooler and the next-sentence head beside the MLM head.
    None for a decoder's config (add_cross_attention: bert2bert's decoder, EncoderDecoderModel's, whose checkpoint
    is no BertForPreTraining)."""
    if arch.add_cross_attention:
        return None
    d = arch.hidden_size
    pooler, nsp = d * d + d, 2 * d + 2
    return (f"counted as BertForMaskedLM builds it; the released checkpoint (BertForPreTraining) also holds the "
            f"pooler ({pooler:,}) and the next-sentence head ({nsp:,}): {pooler + nsp:,} more, which a hub size label "
            "counts")

BERT = derived_from(
    BERT_GENERATION, model_type="bert", causal_lm_class="BertLMHeadModel",
    source="transformers 5.24.0 models/bert/configuration_bert.py (BertConfig; BertForMaskedLM's tensors)",
    naming=dataclasses.replace(
        BERT_GENERATION.naming, token_types="bert.embeddings.token_type_embeddings",
        lm_head="cls.predictions.decoder", lm_head_bias="cls.predictions.bias",
        lm_head_dense="cls.predictions.transform.dense", lm_head_norm="cls.predictions.transform.LayerNorm",
        model_buffers=(("bert.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),
                       ("bert.embeddings.token_type_ids", (1, "max_position_embeddings"), "int64", False)),
        model_order=("bert.embeddings", "bert.encoder.layer", "cls.predictions.bias", "cls.predictions.transform")),
    keys={**{key: field for key, field in BERT_GENERATION.keys.items() if key != "add_cross_attention"},
          "type_vocab_size": "type_vocab_size"},
    defaults={"vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
              "intermediate_size": 3072, "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 2,
              "tie_word_embeddings": True},
    switches={**BERT_GENERATION.switches, "lm_head_transform": True, "lm_head_transform_bias": True},
    count_neutral=BERT_GENERATION.count_neutral | {"classifier_dropout", "is_decoder", "use_cache",
                                                   "gradient_checkpointing"},
    # transformers 5.24.0 reads no position_embedding_type; "relative_key" checkpoints hold tables it does not build
    expects={"position_embedding_type": "absolute"},
    explain=(pretraining_heads,),
    # The table every BERT-code family derives from (roberta.py, bert_variants.py, ...) refuses add_cross_attention:
    # a derivative's own crossattention block is named and placed by its own code (Megatron-BERT's crossattention.ln,
    # RoBERTa-PreLayerNorm's crossattention.LayerNorm, none in MPNet, I-BERT, MRA or YOSO), so each reads the key
    # only once its table is checked against transformers (docs/notes/cross-attention-j.md).
    requires={"add_cross_attention": False}, derive=(),
)


def reading_cross_attention(family: Family) -> Family:
    """``family`` (a BERT-code table) identical except: add_cross_attention read, with is_decoder
    (BertLayer.crossattention, modeling_bert.py lines 356-372: query, key, value, output.dense and its LayerNorm after
    the layer's attention), for a family whose own layer builds that block under those names (checked against
    transformers)."""
    return derived_from(family, keys={**family.keys, "add_cross_attention": "add_cross_attention"},
                        requires={key: value for key, value in family.requires.items() if key != "add_cross_attention"},
                        derive=(*family.derive, cross_attention))


FAMILIES = [reading_cross_attention(BERT)]
