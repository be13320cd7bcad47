"""ELECTRA's generator (transformers 5.24.0 models/electra): BERT's encoder (families/bert.py) under "electra" with
factorized embeddings: the tables and their LayerNorm embedding_size wide, electra.embeddings_project (a Linear to
hidden_size, only when the two differ), and a head at that width (ElectraGeneratorPredictions: dense hidden ->
embedding_size and a LayerNorm registered before it; generator_lm_head, its own bias, tied to the token table).

Identical to bert except: those names and widths, the head's bias the Linear's own, ElectraConfig's defaults."""

from __future__ import annotations

from ._family import derived_from
from .bert import BERT, reading_cross_attention
from .bert_variants import renamed

ELECTRA = derived_from(
    BERT, model_type="electra", causal_lm_class="ElectraForCausalLM",
    source="transformers 5.24.0 models/electra/configuration_electra.py",
    naming=renamed(BERT.naming, "electra", embed_project="electra.embeddings_project", lm_head="generator_lm_head",
                   lm_head_bias=None, lm_head_dense="generator_predictions.dense",
                   lm_head_norm="generator_predictions.LayerNorm",
                   model_order=("electra.embeddings", "electra.embeddings_project", "electra.encoder.layer",
                                "generator_predictions.LayerNorm", "generator_predictions.dense",
                                "generator_lm_head")),
    keys={**BERT.keys, "embedding_size": "embedding_size"},
    defaults={**BERT.defaults, "embedding_size": 128, "hidden_size": 256, "num_attention_heads": 4,
              "intermediate_size": 1024},
    count_neutral=BERT.count_neutral | {"summary_last_dropout"}, explain=())
FAMILIES = [reading_cross_attention(ELECTRA)]  # ElectraLayer's crossattention is BERT's
