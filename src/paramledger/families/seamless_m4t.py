"""SeamlessM4T and SeamlessM4T v2 counted as AutoModelForSeq2SeqLM builds them (transformers 5.24.0
models/seamless_m4t/modeling_seamless_m4t.py SeamlessM4TForTextToText, lines 2280-2300; seamless_m4t_v2's
SeamlessM4Tv2ForTextToText, lines 2502-2522): ``shared``, ``text_encoder``, ``text_decoder``, ``lm_head``.  No
CausalLM is registered: the whole model is the reference.

Identical to NLLB-MoE with no sparse layer (families/nllb_moe.py over M2M-100: pre-norm, every projection biased,
sinusoidal positions as a non-persistent buffer of max_position_embeddings + 2 rows in each stack, the table scaled
by a float, a final layer_norm in each stack, the attentions ``self_attn`` and ``cross_attention``, the feed-forward
``ffn.fc1`` / ``ffn.fc2``; SeamlessM4TFeedForwardNetwork is a copy of NllbMoeDenseActDense) except:
- the module paths: ``shared``, ``text_encoder``, ``text_decoder`` at the top (no ``model.``);
- the feed-forward's norm is ``ffn_layer_norm`` (SeamlessM4TEncoderLayer / SeamlessM4TDecoderLayer, lines 1132-1230);
- the width is ``hidden_size`` (no d_model), and num_hidden_layers / num_attention_heads name the decoder's
  (SeamlessM4TConfig.attribute_map), not the encoder's as in M2M100Config;
- no final_logits_bias (as M2M-100) and the head honours tie_word_embeddings (``_tied_weights_keys``: lm_head and
  both embed_tokens onto shared.weight; untied, each its own table beside ``shared``);
- SeamlessM4TConfig's defaults (hf-seamless-m4t-large's text model: 24 + 24 layers of 1024, ffn 8192); v2 differs
  only in max_position_embeddings (4096).

What SeamlessM4TModel builds beside (the conformer speech encoder, the text-to-unit model, the HiFi-GAN vocoder) is
no part of SeamlessM4TForTextToText, and their keys change no tensor of it: they are count-neutral here and a note
says they are not counted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import bart, nllb_moe
from ._family import derived_from

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
DECODER, ENCODER = "text_decoder", "text_encoder"
CROSS = "cross_attention"
# SeamlessM4TDecoderLayer registers self_attn (k, v, q, out_proj), its norm, cross_attention and its norm, ffn, its
# norm (modeling_seamless_m4t.py lines 1191-1225)
LAYER_ORDER = ("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj", "self_attn_layer_norm",
               f"{CROSS}.k_proj", f"{CROSS}.v_proj", f"{CROSS}.q_proj", f"{CROSS}.out_proj",
               f"{CROSS}_layer_norm", "ffn", "ffn_layer_norm")
NAMING = Naming(
    embed=f"{DECODER}.embed_tokens", positions=f"{DECODER}.embed_positions", position_offset=2,
    layer=f"{DECODER}.layers.{{i}}", o="self_attn.out_proj", up="ffn.fc1", down="ffn.fc2", act="ffn.act",
    attn_pre_norm="self_attn_layer_norm", attn_post_norm="self_attn_layer_norm", ffn_pre_norm="ffn_layer_norm",
    ffn_post_norm="ffn_layer_norm", final_norm=f"{DECODER}.layer_norm", rotary=None, layer_order=LAYER_ORDER,
    cross_q=f"{CROSS}.q_proj", cross_k=f"{CROSS}.k_proj", cross_v=f"{CROSS}.v_proj", cross_o=f"{CROSS}.out_proj",
    cross_attn_norm=f"{CROSS}_layer_norm",
    model_order=(f"{DECODER}.embed_tokens", f"{DECODER}.embed_positions", f"{DECODER}.layers",
                 f"{DECODER}.layer_norm"),
    # SeamlessM4TSinusoidalPositionalEmbedding.weights (a copy of M2M-100's): num_positions + 2 rows, non-persistent
    model_buffers=((f"{DECODER}.embed_positions.weights", ("max_position_embeddings+2", "hidden_size"), None,
                    False),))
# SeamlessM4TConfig's own keys for the decoder; attribute_map reads num_hidden_layers and num_attention_heads as the
# decoder's.
KEYS = {"vocab_size": "vocab_size", "hidden_size": "hidden_size", "max_position_embeddings": "max_position_embeddings",
        "tie_word_embeddings": "tie_word_embeddings", "decoder_layers": "num_hidden_layers",
        "num_hidden_layers": "num_hidden_layers", "decoder_attention_heads": "num_attention_heads",
        "num_attention_heads": "num_attention_heads", "decoder_ffn_dim": "intermediate_size",
        "activation_function": "hidden_act"}
DEFAULTS = {"vocab_size": 256102, "hidden_size": 1024, "max_position_embeddings": 1024, "decoder_layers": 24,
            "decoder_ffn_dim": 8192, "decoder_attention_heads": 16, "activation_function": "relu",
            "tie_word_embeddings": True}
# The keys of the parts SeamlessM4TModel builds beside the text model (speech encoder and its adapter, text-to-unit
# model, vocoder), the text model's numerics, and generation's: none changes a tensor of SeamlessM4TForTextToText.
BESIDE = frozenset({
    "encoder_layers", "encoder_ffn_dim", "encoder_attention_heads",  # (the encoder's: read by the seq2seq record)
    "encoder_layerdrop", "decoder_layerdrop", "activation_dropout", "scale_embedding", "max_new_tokens",
    "speech_encoder_layers", "speech_encoder_attention_heads", "speech_encoder_intermediate_size",
    "speech_encoder_hidden_act", "speech_encoder_dropout", "speech_encoder_layerdrop", "add_adapter",
    "feature_projection_input_dim", "num_conv_pos_embeddings", "num_conv_pos_embedding_groups", "adaptor_kernel_size",
    "adaptor_stride", "adaptor_dropout", "num_adapter_layers", "position_embeddings_type", "rotary_embedding_base",
    "max_source_positions", "conv_depthwise_kernel_size", "t2u_vocab_size", "t2u_bos_token_id", "t2u_pad_token_id",
    "t2u_eos_token_id", "t2u_decoder_start_token_id", "t2u_max_new_tokens", "t2u_encoder_layers",
    "t2u_encoder_ffn_dim", "t2u_encoder_attention_heads", "t2u_decoder_layers", "t2u_decoder_ffn_dim",
    "t2u_decoder_attention_heads", "t2u_max_position_embeddings", "sampling_rate", "upsample_initial_channel",
    "upsample_rates", "upsample_kernel_sizes", "resblock_kernel_sizes", "resblock_dilation_sizes", "leaky_relu_slope",
    "unit_hifi_gan_vocab_size", "unit_embed_dim", "lang_embed_dim", "spkr_embed_dim", "vocoder_num_langs",
    "vocoder_num_spkrs", "variance_predictor_kernel_size", "var_pred_dropout", "vocoder_offset",
    # SeamlessM4Tv2Config's own (configuration_seamless_m4t_v2.py)
    "char_vocab_size", "left_max_position_embeddings", "right_max_position_embeddings", "speech_encoder_chunk_size",
    "speech_encoder_left_chunk_num", "t2u_variance_predictor_embed_dim", "t2u_variance_predictor_hidden_dim",
    "t2u_variance_predictor_kernel_size", "t2u_variance_pred_dropout"})


def _checked(config: Mapping[str, Any]) -> dict[str, Any]:
    """A width the sinusoidal table can be made at, and an activation without weights of its own."""
    width = config["hidden_size"]
    if width in (2, 3):  # (a bool is no width: the reader refuses it)
        # SeamlessM4TSinusoidalPositionalEmbedding.get_embedding divides by hidden_size // 2 - 1 (line 918)
        raise ArchitectureError("hidden_size", f"{width} is too narrow for the sinusoidal positions (their table "
                                "divides by hidden_size // 2 - 1: transformers cannot build it)")
    # each layer's ffn.act (and the decoder layer's unused activation_fn, line 1210) is an ACT2FN module; PReLU's and
    # xIELU's hold tensors no table here lists
    act = config["activation_function"]
    if act not in nllb_moe.ACTIVATIONS:
        raise ArchitectureError("activation_function", f"{act!r} is not counted: one of "
                                f"{', '.join(sorted(nllb_moe.ACTIVATIONS))} (ACT2FN, less prelu and xielu, whose "
                                "modules hold weights)")
    return {}


def _not_counted(arch: Any) -> str:
    return (f"{arch.model_type}: counting the text model alone, as AutoModelForSeq2SeqLM builds it; the speech "
            "encoder, text-to-unit model and vocoder that the whole model class builds beside it are not counted")


# identical to nllb-moe with no sparse layer except: its paths (shared, text_encoder, text_decoder), ffn_layer_norm,
# hidden_size for d_model, its defaults (the module docstring)
SEAMLESS_M4T = derived_from(
    bart.M2M_100, model_type="seamless_m4t", causal_lm_class="SeamlessM4TForTextToText",
    source=TF.format("seamless_m4t"), naming=NAMING, keys=KEYS, defaults=DEFAULTS, count_neutral=BESIDE,
    derive=(_checked,), explain=(_not_counted,),
    seq2seq=bart.M2M_100.seq2seq._replace(
        whole_class="SeamlessM4TForTextToText", shared="shared", decoder=DECODER, encoder=ENCODER,
        defaults={"encoder_layers": 24, "encoder_ffn_dim": 8192, "encoder_attention_heads": 16,
                  "tie_word_embeddings": True}))

# identical to seamless_m4t except: max_position_embeddings 4096 (SeamlessM4Tv2Config); its text model's classes
# are copies of v1's (modeling_seamless_m4t_v2.py "Copied from ... SeamlessM4TEncoderLayer / SeamlessM4TDecoder").
SEAMLESS_M4T_V2 = derived_from(
    SEAMLESS_M4T, model_type="seamless_m4t_v2", causal_lm_class="SeamlessM4Tv2ForTextToText",
    source=TF.format("seamless_m4t_v2"), defaults={**DEFAULTS, "max_position_embeddings": 4096},
    seq2seq=SEAMLESS_M4T.seq2seq._replace(whole_class="SeamlessM4Tv2ForTextToText"))

FAMILIES = [SEAMLESS_M4T, SEAMLESS_M4T_V2]
