"""LayoutLM (transformers 5.24.0 models/layoutlm): BERT (families/bert.py) under "layoutlm" with four box-coordinate
tables beside its position table and the pooler LayoutLMModel always builds. Only in the masked-LM mapping: the
reference is LayoutLMForMaskedLM."""

from __future__ import annotations

from ._family import derived_from
from .bert import BERT
from .bert_variants import renamed

EMBEDDINGS = "layoutlm.embeddings"

# identical to bert except: LayoutLMModel under "layoutlm", the x, y, h and w tables (max_2d_position_embeddings
# rows each, registered after the position table), its pooler (layoutlm.pooler.dense, after the layers), no
# token_type_ids buffer, LayoutLMConfig's max_2d_position_embeddings (configuration_layoutlm.py)
LAYOUTLM = derived_from(
    BERT, model_type="layoutlm", causal_lm_class="LayoutLMForMaskedLM",
    source="transformers 5.24.0 models/layoutlm/configuration_layoutlm.py",
    naming=renamed(BERT.naming, "layoutlm", box_positions=f"{EMBEDDINGS}.{{p}}_position_embeddings",
                   pooler="layoutlm.pooler.dense",
                   model_buffers=((f"{EMBEDDINGS}.position_ids", (1, "max_position_embeddings"), "int64", False),),
                   model_order=(f"{EMBEDDINGS}.word_embeddings", f"{EMBEDDINGS}.position_embeddings",
                                *(f"{EMBEDDINGS}.{p}_position_embeddings" for p in "xyhw"),
                                f"{EMBEDDINGS}.token_type_embeddings", f"{EMBEDDINGS}.LayerNorm",
                                "layoutlm.encoder.layer",
                                "layoutlm.pooler", "cls.predictions.bias", "cls.predictions.transform")),
    keys={**BERT.keys, "max_2d_position_embeddings": "max_2d_position_embeddings"},
    defaults={**BERT.defaults, "max_2d_position_embeddings": 1024}, expects={}, explain=(),
    # add_cross_attention builds nothing: LayoutLMLayer has no crossattention (modeling_layoutlm.py), so BERT's
    # refusal is dropped and the key is count-neutral (docs/notes/requires-req2.md)
    requires={key: value for key, value in BERT.requires.items() if key != "add_cross_attention"})
MASKED_LM_ONLY = [LAYOUTLM]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
