"""NomicBERT and GTE (transformers 5.24.0 models/nomic_bert, models/gte): BERT's post-LN encoder (families/bert.py)
with RoPE in place of a position table and Llama's gated FFN and projection names. Each only in the masked-LM
mapping: the reference is NomicBertForMaskedLM / GteForMaskedLM."""

from __future__ import annotations

import dataclasses
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


MASKED_LM_ONLY = [NOMIC_BERT]
FAMILIES = MASKED_LM_ONLY
