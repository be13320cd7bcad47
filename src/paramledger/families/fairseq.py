"""Fairseq-style and early decoders: XGLM (sinusoidal positions), BioGPT (learned positions
with 2 extra rows), CTRL (sinusoidal positions, a biased LM head): LayerNorm before each
sublayer, biases everywhere, ungated fc1/fc2."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
BIASED = {"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre", "attention_bias": True,
          "attention_output_bias": True, "mlp_bias": True}
# XGLMDecoderLayer and BioGptDecoderLayer register k, v, q, out_proj, then the attention's norm, fc1, fc2.
FAIRSEQ_LAYER = dict(layer_order=("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj",
                                  "self_attn_layer_norm"),
                     o="self_attn.out_proj", up="fc1", down="fc2", attn_pre_norm="self_attn_layer_norm",
                     ffn_pre_norm="final_layer_norm")

FAMILIES = [
    Family(
        model_type="xglm",
        causal_lm_class="XGLMForCausalLM",
        source=TF.format("xglm"),
        # XGLMSinusoidalPositionalEmbedding: its (positions + 2, d_model) table, a buffer at the model dtype
        # add_cross_attention: XGLMDecoderLayer's encoder_attn (k, v, q, out_proj, biased, d_model wide) and its
        # encoder_attn_layer_norm, registered after self_attn and before self_attn_layer_norm (modeling_xglm.py
        # lines 268-281): BART's cross names
        naming=Naming(model_buffers=(("model.embed_positions.weights", ("max_position_embeddings+2", "hidden_size"),
                                      None, False),), final_norm="model.layer_norm",
                      **{**FAIRSEQ_LAYER, "layer_order": (
                          "self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj",
                          "encoder_attn.k_proj", "encoder_attn.v_proj", "encoder_attn.q_proj",
                          "encoder_attn.out_proj", "encoder_attn_layer_norm", "self_attn_layer_norm")}),
        # XGLMConfig.attribute_map: d_model, num_layers, attention_heads are its own names.
        keys={**same("vocab_size", "max_position_embeddings", "tie_word_embeddings",
                     activation_function="hidden_act", ffn_dim="intermediate_size"),
              "d_model": "hidden_size", "hidden_size": "hidden_size", "num_layers": "num_hidden_layers",
              "num_hidden_layers": "num_hidden_layers", "attention_heads": "num_attention_heads",
              "num_attention_heads": "num_attention_heads", "add_cross_attention": "add_cross_attention"},
        defaults={"vocab_size": 256008, "max_position_embeddings": 2048, "d_model": 1024, "ffn_dim": 4096,
                  "num_layers": 24, "attention_heads": 16, "activation_function": "gelu",
                  "tie_word_embeddings": True},
        switches={**BIASED, "position_embedding_type": "sinusoidal"},
        count_neutral=frozenset({"activation_dropout", "layerdrop", "init_std", "scale_embedding"}),
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="biogpt",
        causal_lm_class="BioGptForCausalLM",
        source=TF.format("biogpt"),
        naming=Naming(embed="biogpt.embed_tokens", positions="biogpt.embed_positions", position_offset=2,
                      layer="biogpt.layers.{i}", final_norm="biogpt.layer_norm", lm_head="output_projection",
                      **FAIRSEQ_LAYER),
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                  "max_position_embeddings", "tie_word_embeddings", "hidden_act"),
        defaults={"vocab_size": 42384, "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
                  "intermediate_size": 4096, "hidden_act": "gelu", "max_position_embeddings": 1024,
                  "tie_word_embeddings": True},
        switches={**BIASED, "position_embedding_type": "learned"},
        count_neutral=frozenset({"hidden_dropout_prob", "attention_probs_dropout_prob", "scale_embedding",
                                 "layerdrop", "activation_dropout"}),
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="ctrl",
        causal_lm_class="CTRLLMHeadModel",
        source=TF.format("ctrl"),
        # CTRLModel: its sinusoidal (n_positions, n_embd) pos_encoding, a float32 buffer
        naming=Naming(model_buffers=(("transformer.pos_encoding", ("max_position_embeddings", "hidden_size"), "float32",
                                      False),),
                      embed="transformer.w", layer="transformer.h.{i}", q="multi_head_attention.Wq",
                      k="multi_head_attention.Wk", v="multi_head_attention.Wv", o="multi_head_attention.dense",
                      up="ffn.0", down="ffn.2", attn_pre_norm="layernorm1", ffn_pre_norm="layernorm2",
                      final_norm="transformer.layernorm"),
        # CTRLConfig.attribute_map lets the Hugging Face names stand in for its own.
        keys={**same("vocab_size", "tie_word_embeddings", dff="intermediate_size"),
              "n_embd": "hidden_size", "hidden_size": "hidden_size", "n_layer": "num_hidden_layers",
              "num_hidden_layers": "num_hidden_layers", "n_head": "num_attention_heads",
              "num_attention_heads": "num_attention_heads", "n_positions": "max_position_embeddings",
              "max_position_embeddings": "max_position_embeddings"},
        defaults={"vocab_size": 246534, "n_positions": 256, "n_embd": 1280, "dff": 8192, "n_layer": 48,
                  "n_head": 16, "tie_word_embeddings": True},
        # ReLU FFN (modeling_ctrl.py point_wise_feed_forward_network); the tied head keeps its own bias.
        switches={**BIASED, "position_embedding_type": "sinusoidal", "lm_head_bias": True, "hidden_act": "relu"},
        derive=(rules.no_sliding,),
    ),
]
