"""LUKE (transformers 5.24.0 models/luke, LukeForMaskedLM; only in the masked-LM mapping): RoBERTa
(families/roberta.py) with an entity vocabulary beside the tokens (entity_tables.py: LukeEntityEmbeddings before the
layers, EntityPredictionHead after the LM head) and the entity-aware queries in every attention.

Identical to roberta except (configuration_luke.py, modeling_luke.py lines 290-430, 715-760, 990-1030): the model
under "luke" with its pooler (LukeModel's default add_pooling_layer); the embeddings in BERT's order (word, position,
token type, LayerNorm); w2e_query, e2w_query and e2e_query (hidden -> hidden, biased) after value in each
self-attention with use_entity_aware_attention (Longformer's three extra projections, parts/global_attention.py,
under LUKE's names); the LM head's decoder its own whatever tie_word_embeddings (LukeForMaskedLM._tied_weights_keys
name no token table), which ties only lm_head.decoder.bias to lm_head.bias and the entity decoder to the entity
table; no buffers; LukeConfig's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .roberta import ROBERTA, roberta_naming


def entity_sizes(config: Mapping[str, Any]) -> dict[str, Any]:
    """LukeEntityEmbeddings sizes its table by entity_vocab_size and entity_emb_size: neither may be null."""
    for key in ("entity_vocab_size", "entity_emb_size"):
        if config.get(key) is None:
            raise ArchitectureError(key, "null: LukeEntityEmbeddings sizes its entity table by it")
    return {}


HEAD = ("lm_head.bias", "lm_head.dense", "lm_head.layer_norm", "lm_head.decoder", "entity_predictions.bias",
        "entity_predictions.transform", "entity_predictions.decoder")

LUKE = derived_from(
    ROBERTA, model_type="luke", causal_lm_class="LukeForMaskedLM",
    source="transformers 5.24.0 models/luke/configuration_luke.py",
    naming=roberta_naming("luke", model_buffers=(), pooler="luke.pooler.dense",
                          entity_embeddings="luke.entity_embeddings", lm_head_weight_untied=True,
                          global_q="attention.self.w2e_query", global_k="attention.self.e2w_query",
                          global_v="attention.self.e2e_query",
                          layer_order=("attention.self", "attention.output", "intermediate", "output.dense",
                                       "output.LayerNorm"),
                          model_order=("luke.embeddings", "luke.entity_embeddings", "luke.encoder.layer",
                                       "luke.pooler", *HEAD)),
    keys={**ROBERTA.keys, "entity_vocab_size": "entity_vocab_size", "entity_emb_size": "entity_emb_size",
          "use_entity_aware_attention": "global_attention_projections"},
    defaults={**ROBERTA.defaults, "vocab_size": 50267, "entity_vocab_size": 500000, "entity_emb_size": 256,
              "use_entity_aware_attention": True},
    # add_cross_attention builds nothing: LukeLayer has no crossattention (modeling_luke.py), so RoBERTa's refusal
    # is dropped and the key is count-neutral (docs/notes/requires-req2.md)
    requires={key: value for key, value in ROBERTA.requires.items() if key != "add_cross_attention"},
    derive=(*ROBERTA.derive, entity_sizes))

FAMILIES = [LUKE]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
