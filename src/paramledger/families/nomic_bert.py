"""NomicBERT, Jina Embeddings v3 and GTE (transformers 5.24.0 models/nomic_bert, jina_embeddings_v3, gte): BERT's
post-LN encoder (families/bert.py) with RoPE in place of a position table and Llama's projection names. Each only in the
masked-LM mapping: the reference is its ForMaskedLM class."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..naming import LLAMA
from ._family import derived_from, same
from .bert import BERT

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
KEYS = same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
            "max_position_embeddings", "tie_word_embeddings", "hidden_act", "type_vocab_size", "head_dim")
NOMIC_LAYER = ("post_attention_layernorm", "mlp", "self_attn", "post_mlp_layernorm")  # NomicBertLayer.__init__

# identical to bert except: NomicBertModel under "nomic_bert" with its layers at nomic_bert.layers.{i}, RoPE (no
# position table; nomic_bert.rotary_emb), Llama's q/k/v/o_proj and a gated FFN (gate/up/down_proj), none biased,
# every projection q, k and v num_attention_heads × head_dim (no KV heads), the two LayerNorms after attention and
# after the FFN, the head transform's LayerNorm as layer_norm, NomicBertConfig's defaults
NOMIC_BERT = derived_from(
    BERT, model_type="nomic_bert", causal_lm_class="NomicBertForMaskedLM", source=TF.format("nomic_bert"),
    naming=dataclasses.replace(
        BERT.naming, embed="nomic_bert.embeddings.word_embeddings", positions=LLAMA.positions,
        token_types="nomic_bert.embeddings.token_type_embeddings", embed_norm="nomic_bert.embeddings.LayerNorm",
        layer="nomic_bert.layers.{i}", q=LLAMA.q, k=LLAMA.k, v=LLAMA.v, o=LLAMA.o,
        attn_post_norm="post_attention_layernorm", gate=LLAMA.gate, up=LLAMA.up, down=LLAMA.down,
        ffn_post_norm="post_mlp_layernorm", lm_head_norm="cls.predictions.transform.layer_norm",
        rotary="nomic_bert.rotary_emb", layer_order=NOMIC_LAYER,
        model_buffers=(("nomic_bert.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),
                       ("nomic_bert.embeddings.token_type_ids", (1, "max_position_embeddings"), "int64", False)),
        model_order=("nomic_bert.embeddings", "nomic_bert.layers", "cls.predictions.bias",
                     "cls.predictions.transform")),
    keys=KEYS,
    defaults={"vocab_size": 30528, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
              "intermediate_size": 3072, "hidden_act": "silu", "max_position_embeddings": 2048,
              "type_vocab_size": 2, "tie_word_embeddings": True, "head_dim": None},
    switches={**BERT.switches, "mlp_gated": True, "position_embedding_type": "rope", "attention_bias": False,
              "attention_output_bias": False, "mlp_bias": False},
    requires={}, expects={}, explain=())



# identical to nomic_bert except: JinaEmbeddingsV3Model under "roberta" and the head registered before it
# (JinaEmbeddingsV3LMHead: lm_head.bias, dense, layer_norm, decoder; a tied table is named lm_head.decoder.weight, the
# embedding its alias, as XLM-RoBERTa's), an ungated FFN (mlp.fc1, mlp.fc2) and the attention, all biased,
# JinaEmbeddingsV3Config's defaults (XLM-RoBERTa large's sizes, 8194 positions)
JINA_EMBEDDINGS_V3 = derived_from(
    NOMIC_BERT, model_type="jina_embeddings_v3", causal_lm_class="JinaEmbeddingsV3ForMaskedLM",
    source=TF.format("jina_embeddings_v3"),
    naming=dataclasses.replace(
        NOMIC_BERT.naming, embed="roberta.embeddings.word_embeddings",
        token_types="roberta.embeddings.token_type_embeddings", embed_norm="roberta.embeddings.LayerNorm",
        layer="roberta.layers.{i}", up="mlp.fc1", down="mlp.fc2", rotary="roberta.rotary_emb",
        lm_head="lm_head.decoder", lm_head_bias="lm_head.bias", lm_head_dense="lm_head.dense",
        lm_head_norm="lm_head.layer_norm", tied_table_in_head=True,
        model_buffers=(("roberta.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),
                       ("roberta.embeddings.token_type_ids", (1, "max_position_embeddings"), "int64", False)),
        model_order=("lm_head.bias", "lm_head.dense", "lm_head.layer_norm", "lm_head.decoder", "roberta.embeddings",
                     "roberta.layers")),
    defaults={**NOMIC_BERT.defaults, "vocab_size": 250002, "hidden_size": 1024, "num_hidden_layers": 24,
              "num_attention_heads": 16, "intermediate_size": 4096, "hidden_act": "gelu",
              "max_position_embeddings": 8194, "type_vocab_size": 1},
    switches={**NOMIC_BERT.switches, "mlp_gated": False, "mlp_bias": True, "attention_bias": True,
              "attention_output_bias": True})


def token_types_unless_zero(config: Mapping[str, Any]) -> dict[str, Any]:
    """GteEmbeddings builds no token-type table when type_vocab_size is 0 (modeling_gte.py lines 53-56)."""
    return {"type_vocab_size": config.get("type_vocab_size") or None}


# identical to nomic_bert except: GteModel under "gte" (no buffers in its embeddings), biases on q, k, v, o_proj and
# on down_proj alone (GteMLP), no token-type table when type_vocab_size is 0, GteLMHead (lm_head.dense,
# lm_head.layer_norm, lm_head.decoder with its own bias), GteConfig's defaults
GTE = derived_from(
    NOMIC_BERT, model_type="gte", causal_lm_class="GteForMaskedLM", source=TF.format("gte"),
    naming=dataclasses.replace(
        NOMIC_BERT.naming, embed="gte.embeddings.word_embeddings", token_types="gte.embeddings.token_type_embeddings",
        embed_norm="gte.embeddings.LayerNorm", layer="gte.layers.{i}", rotary="gte.rotary_emb",
        lm_head="lm_head.decoder", lm_head_bias=None, lm_head_dense="lm_head.dense", lm_head_norm="lm_head.layer_norm",
        model_buffers=(), model_order=("gte.embeddings", "gte.layers", "lm_head")),
    defaults={**NOMIC_BERT.defaults, "vocab_size": 250048, "hidden_act": "gelu", "max_position_embeddings": 8192,
              "type_vocab_size": 1},
    switches={**NOMIC_BERT.switches, "attention_bias": True, "attention_output_bias": True, "mlp_down_bias": True},
    derive=(token_types_unless_zero,))
MASKED_LM_ONLY = [NOMIC_BERT, JINA_EMBEDDINGS_V3, GTE]
FAMILIES = MASKED_LM_ONLY
