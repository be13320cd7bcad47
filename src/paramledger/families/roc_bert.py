"""RoC-BERT (transformers 5.24.0 models/roc_bert; RoCBertForCausalLM, the class the mapping registers, holds
RoCBertForMaskedLM's tensors): BERT (families/bert.py) with a pronunciation table and a glyph-shape table beside the
token table, and a Linear over the concatenated embeddings.

Identical to bert except (configuration_roc_bert.py, modeling_roc_bert.py lines 50-95): RoCBertModel under
"roc_bert"; pronunciation_embed (pronunciation_vocab_size × pronunciation_embed_dim) and shape_embed
(shape_vocab_size × shape_embed_dim), always built and registered after the token table; with concat_input,
map_inputs_layer (hidden_size plus the enabled tables' widths -> hidden_size, biased) before the LayerNorm;
RoCBertConfig's defaults (910 pronunciation rows 768 wide, 24,858 shape rows 512 wide)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._family import derived_from, same
from .bert import BERT, reading_cross_attention
from .bert_variants import renamed

PREFIX = "roc_bert.embeddings"


def concatenated(config: Mapping[str, Any]) -> dict[str, Any]:
    """RoCBertEmbeddings.map_inputs_layer's input: the token embedding and each enabled table's, concatenated."""
    if not config.get("concat_input"):
        return {"map_inputs_width": None}
    width = config["hidden_size"]
    if config.get("enable_pronunciation"):
        width += config["pronunciation_embed_dim"]
    if config.get("enable_shape"):
        width += config["shape_embed_dim"]
    return {"map_inputs_width": width}


ROC_BERT = derived_from(
    BERT, model_type="roc_bert", causal_lm_class="RoCBertForCausalLM",
    source="transformers 5.24.0 models/roc_bert/configuration_roc_bert.py",
    naming=renamed(BERT.naming, "roc_bert", pronunciation_embed=f"{PREFIX}.pronunciation_embed",
                   shape_embed=f"{PREFIX}.shape_embed", map_inputs=f"{PREFIX}.map_inputs_layer",
                   model_order=tuple(f"{PREFIX}.{name}" for name in (
                       "word_embeddings", "pronunciation_embed", "shape_embed", "position_embeddings",
                       "token_type_embeddings", "map_inputs_layer", "LayerNorm"))
                   + ("roc_bert.encoder.layer", "cls.predictions.bias", "cls.predictions.transform")),
    keys={**BERT.keys, **same("pronunciation_vocab_size", "pronunciation_embed_dim", "shape_vocab_size",
                              "shape_embed_dim")},
    defaults={**BERT.defaults, "pronunciation_vocab_size": 910, "pronunciation_embed_dim": 768,
              "shape_vocab_size": 24858, "shape_embed_dim": 512, "enable_pronunciation": True, "enable_shape": True,
              "concat_input": True},
    # read by concatenated(): which tables the map layer reads (both tables exist either way)
    count_neutral=BERT.count_neutral | {"enable_pronunciation", "enable_shape", "concat_input"},
    derive=(*BERT.derive, concatenated), explain=())

FAMILIES = [reading_cross_attention(ROC_BERT)]  # RoCBertLayer's crossattention is BERT's, under BERT's names
