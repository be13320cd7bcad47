"""RemBERT (transformers 5.24.0 models/rembert): BERT (families/bert.py) with decoupled embeddings: tables
input_embedding_size wide, always mapped to hidden_size (RemBertEncoder.embedding_hidden_mapping_in), and a head
output_embedding_size wide. The reference is RemBertForCausalLM (the masked-LM class's tensors, checked in
tests/test_encoders_k.py)."""

from __future__ import annotations

import dataclasses

from ._family import derived_from
from .bert import BERT, reading_cross_attention
from .bert_variants import renamed

# identical to bert except: RemBertModel under "rembert"; the tables and their LayerNorm input_embedding_size wide,
# rembert.encoder.embedding_hidden_mapping_in (Linear to hidden_size, with bias) at any width; the head
# (RemBertLMPredictionHead: dense hidden -> output_embedding_size, the decoder, then LayerNorm, each biased, the
# decoder's bias its own) never tied (RemBertForMaskedLM declares no tied weights); RemBertConfig's defaults
REMBERT = derived_from(
    BERT, model_type="rembert", causal_lm_class="RemBertForCausalLM",
    source="transformers 5.24.0 models/rembert/configuration_rembert.py",
    naming=dataclasses.replace(
        renamed(BERT.naming, "rembert"), embed_project="rembert.encoder.embedding_hidden_mapping_in",
        embed_project_always=True, lm_head="cls.predictions.decoder", lm_head_bias=None,
        lm_head_dense="cls.predictions.dense", lm_head_norm="cls.predictions.LayerNorm",
        model_buffers=(("rembert.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),),
        model_order=("rembert.embeddings", "rembert.encoder.embedding_hidden_mapping_in", "rembert.encoder.layer",
                     "cls.predictions.dense", "cls.predictions.decoder", "cls.predictions.LayerNorm")),
    keys={**{key: name for key, name in BERT.keys.items() if key != "tie_word_embeddings"},
          "input_embedding_size": "embedding_size", "output_embedding_size": "output_embedding_size"},
    defaults={"vocab_size": 250300, "hidden_size": 1152, "num_hidden_layers": 32, "num_attention_heads": 18,
              "input_embedding_size": 256, "output_embedding_size": 1664, "intermediate_size": 4608,
              "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 2},
    switches={**BERT.switches, "tie_word_embeddings": False},
    count_neutral=BERT.count_neutral | {"classifier_dropout_prob", "tie_word_embeddings"},
    expects={}, explain=())
# add_cross_attention: RemBertLayer's crossattention is BERT's block under BERT's names (modeling_rembert.py
# RemBertLayer), hidden_size wide
FAMILIES = [reading_cross_attention(REMBERT)]
