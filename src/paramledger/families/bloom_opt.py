"""BLOOM (ALiBi, a LayerNorm on the embeddings, fused biased query_key_value) and OPT
(learned positions with 2 extra rows, fc1/fc2, biases by enable_bias; a token table word_embed_proj_dim wide with
project_in/project_out where that is not hidden_size, as OPT-350m has)."""

from .._exceptions import ArchitectureError
from ..limits import quoted
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"


def _opt_checks(config):
    affine = config.get("layer_norm_elementwise_affine", True)
    before = config.get("do_layer_norm_before", True)
    bias = bool(config.get("enable_bias", True))
    return {
        "norm_type": "layernorm" if affine else "nonparametric",
        "norm_placement": "pre" if before else "post",  # the same two LayerNorms either way
        "final_norm": bool(before and not config.get("_remove_final_layer_norm", False)),
        "attention_bias": bias, "attention_output_bias": bias, "mlp_bias": bias,
    }


# MptAttentionConfig's fields as it declares them (configuration_mpt.py lines 57-66): a strict dataclass, which refuses a
# value of another type as the config is made (MosaicML's mpt-30b-chat gives clip_qkv the int 6: refused so)
_MPT_ATTENTION = {"attn_type": ("multihead_attention", "multiquery_attention"), "attn_pdrop": int, "attn_impl": str,
                  "clip_qkv": (float, None), "softmax_scale": (float, None), "prefix_lm": bool, "qk_ln": bool,
                  "attn_uses_sequence_id": bool, "alibi": bool, "alibi_bias_max": int}


def _mpt_attention(config):
    """attn_config: every field of the type MptAttentionConfig declares (count-neutral, but refused as transformers
    5.24.0 refuses it: an int where a float belongs, a float where an int does)."""
    attention = config.get("attn_config")
    if attention is None:
        return {}
    if not isinstance(attention, dict):
        raise ArchitectureError("attn_config", f"must be a JSON object, got {quoted(attention)}")
    for key, declared in _MPT_ATTENTION.items():
        if key not in attention:
            continue
        value = attention[key]
        if isinstance(declared, tuple) and type(declared[0]) is str:
            fits, said = value in declared, " or ".join(declared)
        else:
            types = declared if isinstance(declared, tuple) else (declared,)
            fits = any(value is None if kind is None else type(value) is kind for kind in types)
            said = " or ".join("null" if kind is None else kind.__name__ for kind in types)
        if not fits:
            raise ArchitectureError(f"attn_config.{key}", f"must be {said} (MptAttentionConfig declares it so; "
                                    f"transformers refuses the config), got {quoted(value)}")
    return {}


FAMILIES = [
    Family(
        model_type="bloom",
        causal_lm_class="BloomForCausalLM",
        source=TF.format("bloom"),
        naming=Naming(embed="transformer.word_embeddings", embed_norm="transformer.word_embeddings_layernorm",
                      layer="transformer.h.{i}", qkv="self_attention.query_key_value", o="self_attention.dense",
                      up="mlp.dense_h_to_4h", down="mlp.dense_4h_to_h", final_norm="transformer.ln_f",
                      layer_order=("input_layernorm", "self_attention", "post_attention_layernorm", "mlp")),
        # BloomConfig.attribute_map, and n_embed (popped in __post_init__) for hidden_size.
        keys={**same("vocab_size", "hidden_size", "tie_word_embeddings"), "n_embed": "hidden_size",
              "n_layer": "num_hidden_layers", "num_hidden_layers": "num_hidden_layers",
              "n_head": "num_attention_heads", "num_attention_heads": "num_attention_heads"},
        defaults={"vocab_size": 250880, "hidden_size": 64, "n_layer": 2, "n_head": 8, "tie_word_embeddings": True},
        # The FFN is always 4 × hidden_size (modeling_bloom.py BloomMLP); GELU, ALiBi.
        switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "alibi", "attention_bias": True, "attention_output_bias": True,
                  "mlp_bias": True, "hidden_act": "gelu"},
        count_neutral=frozenset({"apply_residual_connection_post_layernorm", "slow_but_exact",
                                 "masked_softmax_fusion", "offset_alibi", "seq_length", "skip_bias_add",
                                 "skip_bias_add_qkv", "unk_token_id", "n_inner", "attention_softmax_in_fp32",
                                 "bias_dropout_fusion"}),
        derive=(rules.no_sliding,),
    ),
    Family(
        model_type="opt",
        causal_lm_class="OPTForCausalLM",
        source=TF.format("opt"),
        naming=Naming(embed="model.decoder.embed_tokens", positions="model.decoder.embed_positions",
                      position_offset=2, layer="model.decoder.layers.{i}", o="self_attn.out_proj", up="fc1",
                      down="fc2", attn_pre_norm="self_attn_layer_norm", attn_post_norm="self_attn_layer_norm",
                      ffn_pre_norm="final_layer_norm", ffn_post_norm="final_layer_norm",
                      final_norm="model.decoder.final_layer_norm",
                      # word_embed_proj_dim apart from hidden_size: the tables and the head that wide, project_out
                      # and project_in between them and the layers, no biases; the positions hidden_size wide
                      embed_project="model.decoder.project_in", embed_project_bias=False,
                      embed_unproject="model.decoder.project_out", positions_hidden_wide=True,
                      layer_order=("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj",
                                   "self_attn_layer_norm"),
                      model_order=("model.decoder.embed_tokens", "model.decoder.embed_positions",
                                   "model.decoder.project_out", "model.decoder.project_in",
                                   "model.decoder.final_layer_norm", "model.decoder.layers")),
        keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                     "max_position_embeddings", "tie_word_embeddings"),
              "ffn_dim": "intermediate_size", "activation_function": "hidden_act",
              "word_embed_proj_dim": "embedding_size"},  # OPTConfig: null is hidden_size
        defaults={"vocab_size": 50272, "hidden_size": 768, "num_hidden_layers": 12, "ffn_dim": 3072,
                  "max_position_embeddings": 2048, "do_layer_norm_before": True, "word_embed_proj_dim": None,
                  "num_attention_heads": 12, "activation_function": "relu", "enable_bias": True,
                  "layer_norm_elementwise_affine": True, "tie_word_embeddings": True},
        switches={"mlp_gated": False, "position_embedding_type": "learned"},
        count_neutral=frozenset({"do_layer_norm_before", "enable_bias",
                                 "layer_norm_elementwise_affine", "_remove_final_layer_norm", "layerdrop",
                                 "init_std", "prefix"}),
        derive=(_opt_checks, rules.no_sliding),
    ),
]

FAMILIES.append(
    Family(
        model_type="mpt",  # MosaicML MPT: fused Wqkv, ALiBi, bias-free LayerNorms and projections
        causal_lm_class="MptForCausalLM",
        source=TF.format("mpt"),
        naming=Naming(embed="transformer.wte", layer="transformer.blocks.{i}", qkv="attn.Wqkv",
                      o="attn.out_proj", up="ffn.up_proj", down="ffn.down_proj", attn_pre_norm="norm_1",
                      ffn_pre_norm="norm_2", final_norm="transformer.norm_f",
                      layer_order=("norm_1", "attn", "norm_2", "ffn")),
        # MptConfig.attribute_map: d_model, n_heads, n_layers are its own names.
        keys={**same("vocab_size", "tie_word_embeddings", max_seq_len="max_position_embeddings"),
              "d_model": "hidden_size", "hidden_size": "hidden_size", "n_heads": "num_attention_heads",
              "num_attention_heads": "num_attention_heads", "n_layers": "num_hidden_layers",
              "num_hidden_layers": "num_hidden_layers"},
        defaults={"d_model": 2048, "n_heads": 16, "n_layers": 24, "max_seq_len": 2048, "vocab_size": 50368,
                  "tie_word_embeddings": True},
        # modeling_mpt.py builds the FFN 4 × d_model wide, no biases and no position table whatever
        # expansion_ratio, no_bias, learned_pos_emb and attn_config say; the norms drop their bias.
        switches={"mlp_gated": False, "norm_type": "layernorm_nobias", "norm_placement": "pre",
                  "position_embedding_type": "alibi", "hidden_act": "gelu", "intermediate_ratio": "4"},
        count_neutral=frozenset({"expansion_ratio", "no_bias", "learned_pos_emb", "attn_config", "init_device",
                                 "logit_scale", "embedding_fraction", "norm_type", "emb_pdrop", "use_norm_bias",
                                 # MosaicML's released config.json keys, read by no line of models/mpt:
                                 "init_config", "tokenizer_name", "verbose"}),
        derive=(rules.no_sliding, _mpt_attention),
    )
)
