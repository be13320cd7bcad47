"""Pix2Struct (google/pix2struct-*, google/deplot, google/matcha-*): the whole Pix2StructForConditionalGeneration, its
vision encoder under ``encoder.`` (towers/pix2struct.py) and its text decoder under ``decoder.``
(Pix2StructTextModel, its head decoder.lm_head inside it).  transformers 5.24.0 models/pix2struct/modeling_pix2struct.py
and configuration_pix2struct.py.

The decoder is read from text_config by the table below, a T5 decoder (families/t5.py) under other names; the
encoder is a tower, not a seq2seq encoder of the decoder's parts: it shares no table with the decoder and is built
from vision_config, so the whole is a Whole (no projector: the decoder's cross-attention reads the encoder's output,
hidden_size wide).  Pix2StructConfig.__post_init__ sets text_config's tie_word_embeddings to its own (default
False): the whole config's key alone ties the head.  The decoder alone (Pix2StructTextModel, which holds the head)
is no class an Auto class builds from the whole config: --text-only counts it as the whole model holds it."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..towers import Whole, no_projector
from . import _rules as rules
from ._family import derived_from, multimodal
from .t5 import COUNT_NEUTRAL, T5


def _hidden_wide(config: Mapping[str, Any]) -> dict[str, Any]:
    """num_heads × d_kv ≠ hidden_size: Pix2StructTextAttention still builds q, k, v and o hidden_size × hidden_size
    (modeling_pix2struct.py lines 604-607) and the first block's table (buckets, num_heads) (line 610), counted as one
    hidden_size-wide head beside a table of num_heads columns (the cache is hidden_size wide too: the forward views
    k and v as heads of d_kv, line 727).  That forward runs only where d_kv divides hidden_size and num_heads is 1
    (the position bias then broadcasts; measured): elsewhere a note says it fails."""
    heads, hidden = config["num_attention_heads"], config["hidden_size"]
    d_kv = config.get("head_dim") or hidden // heads
    if d_kv * heads == hidden:
        return {}
    runs = heads == 1 and hidden % d_kv == 0
    return {"num_attention_heads": 1, "head_dim": hidden, "relative_bias_heads": heads,
            "forward_fails": None if runs else (
                f"num_heads {heads} × d_kv {d_kv} is not hidden_size {hidden}: q, k, v and o are hidden_size wide, "
                "viewed as heads of d_kv (which must divide hidden_size) beside a position bias of num_heads (which "
                "must then be 1)")}


def _first_block_table(config: Mapping[str, Any]) -> dict[str, Any]:
    """The relative-position table in the first block alone (Pix2StructTextModel's has_relative_attention_bias)."""
    return {"relative_bias_layers": (0,)}


SELF, CROSS, FFN = "self_attention.attention", "encoder_decoder_attention.attention", "mlp.DenseReluDense"

# identical to T5's decoder except (Pix2StructTextModel, Pix2StructTextBlock, Pix2StructTextAttention):
# - its names: decoder.layer.{i}, self_attention / encoder_decoder_attention (each .attention.{query,key,value,output}
#   and .layer_norm), mlp.DenseReluDense.{wi_0,wi_1,wo} and mlp.layer_norm; the head decoder.lm_head;
# - q, k, v and o are hidden_size × hidden_size whatever d_kv says (Pix2StructTextAttention), the relative table
#   num_heads wide (_hidden_wide: a note says where its forward cannot run);
# - the feed-forward is always gated (Pix2StructTextDenseGatedActDense, dense_act_fn); no shared table, no encoder
#   of its own parts; untied by default (Pix2StructConfig's tie_word_embeddings).
TEXT = derived_from(
    T5, model_type="pix2struct", causal_lm_class="Pix2StructForConditionalGeneration",
    source="transformers 5.24.0 models/pix2struct/configuration_pix2struct.py (Pix2StructTextConfig)",
    naming=dataclasses.replace(
        T5.naming, embed="decoder.embed_tokens", layer="decoder.layer.{i}", q=f"{SELF}.query", k=f"{SELF}.key",
        v=f"{SELF}.value", o=f"{SELF}.output", relative_bias=f"{SELF}.relative_attention_bias",
        attn_pre_norm="self_attention.layer_norm", cross_q=f"{CROSS}.query", cross_k=f"{CROSS}.key",
        cross_v=f"{CROSS}.value", cross_o=f"{CROSS}.output", cross_attn_norm="encoder_decoder_attention.layer_norm",
        gate=f"{FFN}.wi_0", up=f"{FFN}.wi_1", up_ungated=f"{FFN}.wi", down=f"{FFN}.wo", act=f"{FFN}.act",
        ffn_pre_norm="mlp.layer_norm", final_norm="decoder.final_layer_norm", lm_head="decoder.lm_head",
        layer_order=(SELF, "self_attention.layer_norm", CROSS, "encoder_decoder_attention.layer_norm", FFN,
                     "mlp.layer_norm"),
        # Pix2StructForConditionalGeneration: the encoder, then the decoder (its table, layers, norm, head)
        model_order=("encoder", "decoder.embed_tokens", "decoder.layer", "decoder.final_layer_norm",
                     "decoder.lm_head")),
    # Pix2StructTextConfig's names (its attribute_map lets num_attention_heads, num_hidden_layers stand in)
    keys={"vocab_size": "vocab_size", "hidden_size": "hidden_size", "d_kv": "head_dim", "d_ff": "intermediate_size",
          "num_heads": "num_attention_heads", "num_attention_heads": "num_attention_heads",
          "num_layers": "num_hidden_layers", "num_hidden_layers": "num_hidden_layers",
          "relative_attention_num_buckets": "relative_bias_num_buckets", "dense_act_fn": "hidden_act"},
    defaults={"vocab_size": 50244, "hidden_size": 768, "d_kv": 64, "d_ff": 2048, "num_layers": 12, "num_heads": 12,
              "relative_attention_num_buckets": 32, "dense_act_fn": "gelu_new"},
    switches={**T5.switches, "mlp_gated": True, "tie_word_embeddings": False},
    count_neutral=(COUNT_NEUTRAL - {"num_layers", "dense_act_fn", "feed_forward_proj", "is_gated_act",
                                    "scale_decoder_outputs"}) | {"add_cross_attention", "layer_norm_epsilon"},
    derive=(_hidden_wide, _first_block_table), explain=(rules.forward_fails_note,),
    seq2seq=None)

WHOLE = Whole({"model_type": "pix2struct_vision_model"}, no_projector, vision_prefix="encoder.",
              projector_prefix="", decoder_prefix="decoder.", tie_word_embeddings=False,
              tie_text_too=True, vision_kind="pix2struct_vision_model")

FAMILIES = [dataclasses.replace(
    multimodal(TEXT, "pix2struct", "transformers 5.24.0 models/pix2struct/configuration_pix2struct.py "
               "(Pix2StructConfig, Pix2StructTextConfig, Pix2StructVisionConfig)", WHOLE,
               "Pix2StructForConditionalGeneration"),
    count_neutral=TEXT.count_neutral | {"is_vqa", "vision_config"})]
