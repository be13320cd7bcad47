"""BertGeneration (transformers 5.24.0 models/bert_generation): BERT's encoder layer as a decoder: learned positions
and a LayerNorm on the embeddings, a LayerNorm after each sublayer, biases everywhere, an ungated FFN, no final norm,
and a head whose bias is its own parameter beside its Linear's (modeling_bert_generation.py, lines 46-409, 594-623).  Naming.lm_head_bias names
that bias (the builder aliases the Linear's own to it when tied).  With add_cross_attention and is_decoder, each layer
also holds a crossattention block (parts/cross_attention.py under BERT's names), after its attention."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ._family import Family, same


def cross_attention(config: Any) -> dict:
    """add_cross_attention adds a crossattention block (BertGenerationAttention: query, key, value, output.dense and
    its LayerNorm, lines 302-313) to every layer, which transformers builds only in a decoder (is_decoder)."""
    if config.get("add_cross_attention") and not config.get("is_decoder"):
        raise ArchitectureError("add_cross_attention", "needs is_decoder true (transformers refuses cross-attention "
                                "in an encoder: \"should be used as a decoder model if cross attention is added\")")
    return {}


FAMILIES = [
    Family(
        model_type="bert-generation",
        causal_lm_class="BertGenerationDecoder",
        source="transformers 5.24.0 models/bert_generation/configuration_bert_generation.py",
        # BertGenerationEmbeddings' position_ids, (1, max_position_embeddings), int64, not in the checkpoint
        naming=Naming(embed="bert.embeddings.word_embeddings", positions="bert.embeddings.position_embeddings",
                      embed_norm="bert.embeddings.LayerNorm", layer="bert.encoder.layer.{i}",
                      q="attention.self.query", k="attention.self.key", v="attention.self.value",
                      o="attention.output.dense", attn_post_norm="attention.output.LayerNorm",
                      up="intermediate.dense", down="output.dense", ffn_post_norm="output.LayerNorm",
                      lm_head="lm_head.decoder", lm_head_bias="lm_head.bias", rotary=None,
                      model_buffers=(("bert.embeddings.position_ids", (1, "max_position_embeddings"), "int64",
                                      False),),
                      cross_q="crossattention.self.query", cross_k="crossattention.self.key",
                      cross_v="crossattention.self.value", cross_o="crossattention.output.dense",
                      cross_attn_norm="crossattention.output.LayerNorm",
                      layer_order=("attention", "crossattention", "intermediate", "output.dense", "output.LayerNorm")),
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                  "max_position_embeddings", "tie_word_embeddings", "hidden_act", "add_cross_attention"),
        defaults={"vocab_size": 50358, "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
                  "intermediate_size": 4096, "hidden_act": "gelu", "max_position_embeddings": 512,
                  "tie_word_embeddings": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "post",
                  "position_embedding_type": "learned", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True, "final_norm": False, "lm_head_bias": True},
        count_neutral=frozenset({"hidden_dropout_prob", "attention_probs_dropout_prob"}),
        derive=(cross_attention,),
    ),
]
