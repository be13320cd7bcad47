"""ESM (transformers 5.24.0 models/esm): ESM-1b/ESM-2's masked-LM protein encoder, XLM-RoBERTa-XL's pre-LN layers
(families/roberta.py) under "esm" with a contact head over every attention map. Only in the masked-LM mapping: the
reference is EsmForMaskedLM."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import derived_from, same
from .bert import reading_cross_attention
from .roberta import XLM_ROBERTA_XL, roberta_naming

POSITIONS = {"absolute": "learned", "rotary": "rope"}


def esm_positions(config: Mapping[str, Any]) -> dict[str, Any]:
    """EsmEmbeddings' position table only for "absolute"; EsmModel's rotary_embeddings (one persistent inv_freq)
    for "rotary" (modeling_esm.py lines 204-212, 627-630); other values build neither and are refused. Its
    layer_norm only with emb_layer_norm_before (lines 198-199)."""
    kind = config.get("position_embedding_type") or "absolute"
    if kind not in POSITIONS:
        raise ArchitectureError("position_embedding_type", f"{kind!r} is not supported for esm (EsmModel builds "
                                "'absolute' or 'rotary')")
    return {"position_embedding_type": POSITIONS[kind],
            "layernorm_embedding": bool(config.get("emb_layer_norm_before"))}


# identical to xlm-roberta-xl except: EsmModel under "esm", the attention's norm as attention.LayerNorm, the final
# norm esm.encoder.emb_layer_norm_after, no token-type table, EsmContactPredictionHead (esm.contact_head.regression:
# layers × heads -> 1 with a bias), EsmLMHead's decoder without a bias of its own (lm_head.bias is the only one),
# positions by esm_positions, GELU hard-coded (EsmIntermediate), EsmConfig's defaults (configuration_esm.py:
# vocab_size None, which transformers cannot build: required); esm.embeddings.layer_norm only with
# emb_layer_norm_before
ESM = derived_from(
    XLM_ROBERTA_XL, model_type="esm", causal_lm_class="EsmForMaskedLM",
    source="transformers 5.24.0 models/esm/configuration_esm.py",
    naming=roberta_naming(
        "esm", embed_norm="esm.embeddings.layer_norm", token_types=XLM_ROBERTA_XL.naming.token_types,
        attn_pre_norm="attention.LayerNorm",
        ffn_pre_norm="LayerNorm", final_norm="esm.encoder.emb_layer_norm_after",
        contact_head="esm.contact_head.regression", lm_head_linear_bias=False, rotary=None,
        # with add_cross_attention (and is_decoder) each layer's crossattention, another EsmAttention (its LayerNorm
        # before it, pre-LN; modeling_esm.py lines 403-409, 465-468), after its attention
        cross_attn_norm="crossattention.LayerNorm",
        layer_order=("attention.self", "attention.output", "attention.LayerNorm", "crossattention.self",
                     "crossattention.output", "crossattention.LayerNorm", "intermediate", "output", "LayerNorm"),
        model_buffers=(("esm.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),
                       ("esm.rotary_embeddings.inv_freq", ("rotary_half",), "float32", True, "is_rope")),
        model_order=("esm.embeddings.word_embeddings", "esm.embeddings.layer_norm",
                     "esm.embeddings.position_embeddings", "esm.encoder.layer",
                     "esm.encoder.emb_layer_norm_after", "esm.contact_head", "lm_head.bias", "lm_head.dense",
                     "lm_head.layer_norm", "lm_head.decoder")),
    keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
              "max_position_embeddings", "tie_word_embeddings"),
    defaults={"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,  # (vocab_size: None)
              "intermediate_size": 3072, "max_position_embeddings": 1026, "tie_word_embeddings": True,
              "position_embedding_type": "absolute"},
    switches={**{key: value for key, value in XLM_ROBERTA_XL.switches.items() if key != "position_embedding_type"},
              "hidden_act": "gelu"},
    count_neutral=XLM_ROBERTA_XL.count_neutral | {"mask_token_id", "token_dropout", "is_folding_model",
                                                   "esmfold_config", "vocab_list", "position_embedding_type",
                                                   "emb_layer_norm_before"},
    requires={}, expects={},
    derive=(rules.must_be_set("vocab_size"), esm_positions))
MASKED_LM_ONLY = [reading_cross_attention(ESM)]  # add_cross_attention read, with is_decoder (EsmLayer refuses it
# without: "should be used as a decoder model if cross attention is added", modeling_esm.py line 467)  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
