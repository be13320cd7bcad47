"""Falcon: BLOOM's tensor names, a fused query_key_value, LayerNorm with bias, an ungated GELU FFN.

Three layouts from one config class (modeling_falcon.py, FalconAttention and FalconDecoderLayer):
- the old decoder (Falcon-7B, RW): multi_query gives one key/value head (else every head), and
  parallel_attn one input_layernorm shared by parallel attention and MLP, or (false) the
  sequential block with input_layernorm and post_attention_layernorm;
- the new decoder (Falcon-40B/180B, new_decoder_architecture): num_kv_heads key/value groups in
  the fused qkv and, with num_ln_in_parallel_attn 2 (its default), ln_attn and ln_mlp feeding
  the parallel branches; with 1 (Falcon2-11B), one input_layernorm for both.
ALiBi (alibi) holds no parameters; otherwise rotary embeddings, none either.
"""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same


def falcon_layout(config):
    """Falcon's KV heads, norms, positions and biases (FalconAttention, FalconDecoderLayer).

    From new_decoder_architecture, multi_query, num_kv_heads, parallel_attn,
    num_ln_in_parallel_attn, alibi and bias.  Four layouts transformers 5.24.0 builds but cannot run are counted
    as built, with a note (forward_fails; each forward measured to fail)."""
    heads = config["num_attention_heads"]
    kv_given = config.get("num_kv_heads")
    new = bool(config.get("new_decoder_architecture"))
    parallel = bool(config.get("parallel_attn"))
    norms = config.get("num_ln_in_parallel_attn")
    fails = None
    if new:
        kv_heads = kv_given if kv_given is not None else heads
        if norms is None:  # FalconDecoderLayer: None means 2 in the new decoder
            norms = 2
        if not parallel:  # (modeling_falcon.py lines 555-557 build these; 581-585 and 608-613 read the others)
            fails = ("parallel_attn false with new_decoder_architecture builds input_layernorm and "
                     "post_attention_layernorm, but the new decoder's forward reads ln_attn (num_ln_in_parallel_attn "
                     "2) or leaves the MLP's input unset")
        elif norms not in (1, 2):  # (line 565 builds one input_layernorm; lines 608-613 set the MLP's input at 1)
            fails = (f"num_ln_in_parallel_attn {norms} with new_decoder_architecture builds one input_layernorm, but "
                     "the new decoder's forward sets the MLP's input only with 1 or 2")
            norms = 1
    else:
        if config.get("multi_query"):
            kv_heads = 1
        else:
            kv_heads = heads
            if kv_given is not None and kv_given != heads:  # (FalconAttention: 3 × hidden_size, every head)
                fails = (f"num_kv_heads {kv_given} != num_attention_heads {heads} without multi_query or "
                         "new_decoder_architecture builds query_key_value for every head, which the forward splits "
                         "into num_kv_heads groups")
        if parallel and norms == 2:  # (lines 559-563 build ln_attn and ln_mlp; line 585 reads input_layernorm)
            fails = ("num_ln_in_parallel_attn 2 without new_decoder_architecture builds ln_attn and ln_mlp, but the "
                     "old decoder's forward reads input_layernorm")
    if not parallel:
        placement = "pre"
    else:
        placement = "parallel_split" if norms == 2 else "parallel"
    bias = bool(config.get("bias"))
    return {"num_key_value_heads": kv_heads, "norm_placement": placement,
            "position_embedding_type": "alibi" if config.get("alibi") else "rope",
            "attention_bias": bias, "attention_output_bias": bias, "mlp_bias": bias, "forward_fails": fails}


# FalconModel builds its rotary whatever alibi says (FalconRotaryEmbedding, unused under ALiBi)
ROTARY = tuple((f"transformer.rotary_emb.{which}", ("rotary_half",), "float32", False)
               for which in ("inv_freq", "original_inv_freq"))

FAMILIES = [
    Family(
        model_type="falcon",
        causal_lm_class="FalconForCausalLM",
        source="transformers 5.24.0 models/falcon/configuration_falcon.py",
        naming=Naming(rotary=None, model_buffers=ROTARY, embed="transformer.word_embeddings", layer="transformer.h.{i}",
                      qkv="self_attention.query_key_value", o="self_attention.dense", up="mlp.dense_h_to_4h",
                      down="mlp.dense_4h_to_h", final_norm="transformer.ln_f",
                      layer_order=("self_attention", "mlp", "ln_attn", "ln_mlp", "post_attention_layernorm",
                                   "input_layernorm")),
        # FalconConfig: head_dim is hidden_size // heads (a property), ffn_hidden_size None is 4 × hidden.
        keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                     "max_position_embeddings", "tie_word_embeddings"),
              "n_embed": "hidden_size", "ffn_hidden_size": "intermediate_size", "activation": "hidden_act",
              "num_kv_heads": "num_key_value_heads", "bias": "attention_bias"},
        defaults={"vocab_size": 65024, "hidden_size": 4544, "num_hidden_layers": 32, "num_attention_heads": 71,
                  "num_ln_in_parallel_attn": None, "num_kv_heads": None, "alibi": False,
                  "new_decoder_architecture": False, "multi_query": True, "parallel_attn": True, "bias": False,
                  "max_position_embeddings": 2048, "ffn_hidden_size": None, "activation": "gelu",
                  "tie_word_embeddings": True},
        switches={"mlp_gated": False, "norm_type": "layernorm"},
        # Read by falcon_layout (kv heads, norm placement, positions); Falcon-40B's config.json also
        # carries apply_residual_connection_post_layernorm, which FalconConfig 5.24.0 does not read.
        count_neutral=frozenset({"new_decoder_architecture", "multi_query", "parallel_attn",
                                 "num_ln_in_parallel_attn", "alibi", "apply_residual_connection_post_layernorm"}),
        derive=(falcon_layout, rules.no_sliding), explain=(rules.forward_fails_note,),
    ),
]
