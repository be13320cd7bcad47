"""ModernBERT's decoder (transformers 5.24.0 models/modernbert_decoder): LayerNorms (biased by norm_bias) on the
embeddings, before attention (except in layer 0) and before a gated FFN fused in Wi, a final norm, and a prediction
head (a dense and a norm) before the decoder table (modeling_modernbert_decoder.py, lines 49-88, 215-344, 420-521).  Layer 0's missing
norm is layers_without_attn_pre_norm; the prediction head is lm_head_transform."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same


def modernbert_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """ModernBertDecoderConfig.__post_init__: layer i full when i % global_attn_every_n_layers == 0, else sliding
    within local_attention // 2 (layer_types as given otherwise); the norms' bias and the head's by their keys."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    sliding = ([t == rules.SLIDING for t in types] if isinstance(types, (list, tuple)) else
               [bool(i % config.get("global_attn_every_n_layers", 3)) for i in range(layers)])
    local = config.get("local_attention")
    out = rules.layer_pattern(local // 2 if local else None, sliding, keep=True)
    out.update(norm_type="layernorm" if config.get("norm_bias") else "layernorm_nobias",
               lm_head_transform_bias=bool(config.get("classifier_bias")),
               lm_head_bias=bool(config.get("decoder_bias", True)))
    return out


FAMILIES = [
    Family(
        model_type="modernbert-decoder",
        causal_lm_class="ModernBertDecoderForCausalLM",
        source="transformers 5.24.0 models/modernbert_decoder/configuration_modernbert_decoder.py",
        naming=Naming(embed="model.embeddings.tok_embeddings", embed_norm="model.embeddings.norm",
                      q="attn.q_proj", k="attn.k_proj", v="attn.v_proj", o="attn.Wo", attn_pre_norm="attn_norm",
                      ffn_pre_norm="mlp_norm", gate_up="mlp.Wi", down="mlp.Wo", final_norm="model.final_norm",
                      lm_head="decoder", rotary_per_layer_type=True,
                      layer_order=("attn_norm", "attn", "mlp_norm", "mlp"),
                      model_order=("model.embeddings", "model.layers", "model.final_norm", "lm_head", "decoder")),
        keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                     "max_position_embeddings", "tie_word_embeddings", "attention_bias", "mlp_bias"),
              "hidden_activation": "hidden_act"},
        defaults={"vocab_size": 50368, "hidden_size": 768, "intermediate_size": 1152, "num_hidden_layers": 22,
                  "num_attention_heads": 12, "hidden_activation": "gelu", "max_position_embeddings": 8192,
                  "norm_bias": False, "attention_bias": False, "mlp_bias": False, "decoder_bias": True,
                  "classifier_bias": False, "tie_word_embeddings": True, "local_attention": 128},
        # Wo is hidden × hidden (line 243) and the attention heads_dim = hidden // heads: only heads dividing the
        # width run.  attention_bias biases Wo too.
        switches={"mlp_gated": True, "norm_placement": "pre", "position_embedding_type": "rope",
                  "layers_without_attn_pre_norm": (0,), "lm_head_transform": True},
        count_neutral=frozenset({"norm_bias", "decoder_bias", "classifier_bias", "classifier_activation",
                                 "local_attention", "global_attn_every_n_layers", "embedding_dropout",
                                 "mlp_dropout", "initializer_cutoff_factor", "cls_token_id", "global_rope_theta",
                                 "local_rope_theta"}),
        derive=(rules.output_bias_follows("attention_bias"), modernbert_layers,
                rules.heads_fill_hidden("ModernBertDecoderAttention's Wo is hidden × hidden")),
    ),
]
