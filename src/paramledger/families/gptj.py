"""The GPT-2 descendants: GPT-J and CodeGen (one LayerNorm feeding parallel attention and
FFN, unbiased attention, a biased LM head), GPT-BigCode (multi-query), GPT-Neo (local and
global layers), the original GPT (post-norm, no final norm)."""

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same

TF = "transformers 5.24.0 models/{0}/configuration_{1}.py"
# The GPT-2 key names, and the attribute_map that lets the Hugging Face names stand in.
GPT2_STYLE_KEYS = {
    **same("vocab_size", "tie_word_embeddings"),
    "n_embd": "hidden_size", "hidden_size": "hidden_size", "n_layer": "num_hidden_layers",
    "num_hidden_layers": "num_hidden_layers", "n_head": "num_attention_heads",
    "num_attention_heads": "num_attention_heads", "n_positions": "max_position_embeddings",
    "max_position_embeddings": "max_position_embeddings",
}
PARALLEL_GPTJ = {"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "parallel",
                 "position_embedding_type": "rope", "mlp_bias": True, "lm_head_bias": True}
GPTJ_DEFAULTS = {"vocab_size": 50400, "n_positions": 2048, "n_embd": 4096, "n_layer": 28, "n_head": 16,
                 "n_inner": None, "activation_function": "gelu_new", "tie_word_embeddings": False, "rotary_dim": 64}

# GPTJRotaryEmbedding / CodeGen's: one (positions, rotary_dim) float32 sin-cos table, not inv_freq
EMBED_POSITIONS = (("transformer.rotary_emb.embed_positions", ("max_position_embeddings", "rotary_width"), "float32",
                    False),)


def rotary_share(config: Mapping[str, Any]) -> dict[str, Any]:
    """GPT-J's rotary_dim, as the share of a head it rotates (the width of its embed_positions table)."""
    dim, head = config.get("rotary_dim"), config["hidden_size"] // config["num_attention_heads"]
    return {"partial_rotary_factor": dim / head} if isinstance(dim, int) and 0 < dim <= head else {}


def bigcode_cross_attention(config: Mapping[str, Any]) -> dict[str, Any]:
    """GPTBigCodeBlock refuses cross-attention beside multi-query attention (modeling_gpt_bigcode.py lines 272-274:
    NotImplementedError "Cross-attention not implemented for MQA"); without multi_query it builds one."""
    if config.get("add_cross_attention") and config.get("multi_query"):
        raise ArchitectureError("add_cross_attention", "true needs multi_query false (transformers refuses it: "
                                "\"Cross-attention not implemented for MQA\")")
    return {}


# GPT-1's position ids and each attention's causal mask (1, 1, n_positions, n_positions) at the model dtype
GPT1_BUFFERS = (("transformer.position_ids", ("max_position_embeddings",), "int64", False),
                ("{layer}attn.bias", (1, 1, "max_position_embeddings", "max_position_embeddings"), None, False))

FAMILIES = [
    Family(
        model_type="gptj",
        causal_lm_class="GPTJForCausalLM",
        source=TF.format("gptj", "gptj"),
        naming=Naming(rotary=None, model_buffers=EMBED_POSITIONS,
                      embed="transformer.wte", layer="transformer.h.{i}", q="attn.q_proj", k="attn.k_proj",
                      v="attn.v_proj", o="attn.out_proj", up="mlp.fc_in", down="mlp.fc_out", attn_pre_norm="ln_1",
                      final_norm="transformer.ln_f",
                      layer_order=("ln_1", "attn.k_proj", "attn.v_proj", "attn.q_proj", "attn.out_proj", "mlp")),
        keys={**GPT2_STYLE_KEYS, "n_inner": "intermediate_size", "activation_function": "hidden_act"},
        defaults=GPTJ_DEFAULTS,
        switches=PARALLEL_GPTJ,
        count_neutral=frozenset({"rotary_dim"}),
        derive=(rules.no_sliding, rotary_share),
    ),
    Family(
        model_type="codegen",  # GPT-J's block with one fused, unbiased qkv_proj
        causal_lm_class="CodeGenForCausalLM",
        source=TF.format("codegen", "codegen"),
        naming=Naming(rotary=None, model_buffers=EMBED_POSITIONS,
                      embed="transformer.wte", layer="transformer.h.{i}", qkv="attn.qkv_proj", o="attn.out_proj",
                      up="mlp.fc_in", down="mlp.fc_out", attn_pre_norm="ln_1", final_norm="transformer.ln_f",
                      layer_order=("ln_1", "attn.out_proj", "attn.qkv_proj", "mlp")),
        keys={**GPT2_STYLE_KEYS, "n_inner": "intermediate_size", "activation_function": "hidden_act"},
        defaults=GPTJ_DEFAULTS,
        switches=PARALLEL_GPTJ,
        count_neutral=frozenset({"rotary_dim", "n_ctx"}),
        derive=(rules.no_sliding, rotary_share),
    ),
    Family(
        model_type="gpt_bigcode",  # GPT-2 in nn.Linear layout; multi_query: one K/V head
        causal_lm_class="GPTBigCodeForCausalLM",
        source=TF.format("gpt_bigcode", "gpt_bigcode"),
        # GPTBigCodeModel: one (n_positions, n_positions) bool causal mask for every layer
        naming=Naming(model_buffers=(("transformer.bias", ("max_position_embeddings", "max_position_embeddings"),
                                      "bool", False),),
                      embed="transformer.wte", positions="transformer.wpe", layer="transformer.h.{i}",
                      qkv="attn.c_attn", o="attn.c_proj", up="mlp.c_fc", down="mlp.c_proj", attn_pre_norm="ln_1",
                      ffn_pre_norm="ln_2", final_norm="transformer.ln_f",
                      layer_order=("ln_1", "attn", "ln_2", "crossattention", "ln_cross_attn", "mlp"),
                      # add_cross_attention: GPTBigCodeBlock's crossattention (c_attn (2d, d) for k and v, q_attn,
                      # c_proj, all nn.Linear with bias) and ln_cross_attn after ln_2 (modeling_gpt_bigcode.py lines
                      # 149-158, 272-278)
                      cross_kv="crossattention.c_attn", cross_q="crossattention.q_attn",
                      cross_o="crossattention.c_proj", cross_attn_norm="ln_cross_attn"),
        keys={**GPT2_STYLE_KEYS, "n_inner": "intermediate_size", "activation_function": "hidden_act",
              "add_cross_attention": "add_cross_attention"},
        defaults={"vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12, "n_head": 12,
                  "n_inner": None, "activation_function": "gelu_pytorch_tanh", "multi_query": True,
                  "tie_word_embeddings": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "learned", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True},
        # num_key_value_heads: GPTBigCodeConfig derives it from multi_query, whatever the file says.
        count_neutral=frozenset({"multi_query", "attention_softmax_in_fp32", "scale_attention_softmax_in_fp32",
                                 "num_key_value_heads"}),
        derive=(lambda c: {"num_key_value_heads": 1 if c.get("multi_query") else None}, rules.no_sliding,
                bigcode_cross_attention),
    ),
    Family(
        model_type="gpt_neo",
        causal_lm_class="GPTNeoForCausalLM",
        source=TF.format("gpt_neo", "gpt_neo"),
        # GPTNeoSelfAttention: a (1, 1, positions, positions) bool causal mask in every layer, local or global
        naming=Naming(model_buffers=(("{layer}attn.attention.bias", (1, 1, "max_position_embeddings",
                                                                    "max_position_embeddings"), "bool", False),),
                      embed="transformer.wte", positions="transformer.wpe", layer="transformer.h.{i}",
                      q="attn.attention.q_proj", k="attn.attention.k_proj", v="attn.attention.v_proj",
                      o="attn.attention.out_proj", up="mlp.c_fc", down="mlp.c_proj", attn_pre_norm="ln_1",
                      ffn_pre_norm="ln_2", final_norm="transformer.ln_f",
                      layer_order=("ln_1", "attn.attention.k_proj", "attn.attention.v_proj", "attn.attention.q_proj",
                                   "attn.attention.out_proj", "ln_2", "mlp")),
        # GPTNeoConfig.attribute_map: num_heads and num_layers are its own names.
        keys={**same("vocab_size", "hidden_size", "intermediate_size", "max_position_embeddings",
                     "tie_word_embeddings", activation_function="hidden_act"),
              "num_heads": "num_attention_heads", "num_attention_heads": "num_attention_heads",
              "num_layers": "num_hidden_layers", "num_hidden_layers": "num_hidden_layers"},
        defaults={"vocab_size": 50257, "max_position_embeddings": 2048, "hidden_size": 2048, "num_layers": 24,
                  "attention_types": None, "num_heads": 16, "intermediate_size": None, "window_size": 256,
                  "activation_function": "gelu_new", "tie_word_embeddings": True},
        # q, k, v unbiased, out_proj biased (modeling_gpt_neo.py GPTNeoSelfAttention).
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "learned", "attention_bias": False, "attention_output_bias": True,
                  "mlp_bias": True},
        count_neutral=frozenset({"attention_types", "attention_layers", "window_size", "resid_dropout",
                                 "embed_dropout"}),
        derive=(rules.gpt_neo_window,),
    ),
    Family(
        model_type="openai-gpt",  # GPT-1: LayerNorm after each sublayer, no final norm, FFN 4 × n_embd
        causal_lm_class="OpenAIGPTLMHeadModel",
        source=TF.format("openai", "openai"),
        naming=Naming(model_buffers=GPT1_BUFFERS,
                      embed="transformer.tokens_embed", positions="transformer.positions_embed",
                      layer="transformer.h.{i}", qkv="attn.c_attn", o="attn.c_proj", up="mlp.c_fc",
                      down="mlp.c_proj", attn_post_norm="ln_1", ffn_post_norm="ln_2", conv1d=True,
                      layer_order=("attn", "ln_1", "mlp", "ln_2")),
        keys={**GPT2_STYLE_KEYS, "afn": "hidden_act"},
        defaults={"vocab_size": 40478, "n_positions": 512, "n_embd": 768, "n_layer": 12, "n_head": 12,
                  "afn": "gelu", "tie_word_embeddings": True},
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "post", "final_norm": False,
                  "position_embedding_type": "learned", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True},
        count_neutral=frozenset({"summary_last_dropout"}),
        derive=(rules.no_sliding,),
    ),
]
