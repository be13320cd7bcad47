"""The decoders of BART and its lineage as transformers registers them for causal LM (transformers 5.24.0
BartForCausalLM and its copies): the seq2seq model's decoder alone (BartDecoderWrapper.decoder) under a head, each
layer self-attention, cross-attention over the encoder's output (parts/cross_attention.py: encoder_attn and
encoder_attn_layer_norm) and an ungated fc1/fc2, LayerNorms, biases everywhere.

BART itself (modeling_bart.py): BartLearnedPositionalEmbedding, max_position_embeddings + 2 rows (its offset,
lines 75-97); a LayerNorm on the embeddings (layernorm_embedding, registered after the layers, line 585); the
norms after each sublayer; no final norm; scale_embedding multiplies the table's output by sqrt(d_model), a float,
no tensor; BartForCausalLM's lm_head tied to model.decoder.embed_tokens (lines 1215-1228).  The config's own
num_hidden_layers and num_attention_heads are the encoder's (BartConfig.attribute_map): the decoder reads
decoder_layers, decoder_attention_heads and decoder_ffn_dim.

Each other family is written as "identical to X except: ..."."""

from __future__ import annotations

import dataclasses
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers.encoder import COMPONENT, Seq2Seq
from ._family import Family, derived_from, same
from ._mvp_prompts import DECODER_PROMPTS, prompts

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
DECODER = "model.decoder"
# BartDecoderLayer registers self_attn (k, v, q, out_proj), its norm, encoder_attn and its norm, fc1, fc2, final norm
LAYER_ORDER = ("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj", "self_attn_layer_norm",
               "encoder_attn.k_proj", "encoder_attn.v_proj", "encoder_attn.q_proj", "encoder_attn.out_proj",
               "encoder_attn_layer_norm", "fc1", "fc2", "final_layer_norm")
BART_NAMING = Naming(
    embed=f"{DECODER}.embed_tokens", positions=f"{DECODER}.embed_positions", position_offset=2,
    embed_norm=f"{DECODER}.layernorm_embedding", layer=f"{DECODER}.layers.{{i}}", o="self_attn.out_proj", up="fc1",
    down="fc2", attn_pre_norm="self_attn_layer_norm", attn_post_norm="self_attn_layer_norm",
    ffn_pre_norm="final_layer_norm", ffn_post_norm="final_layer_norm", final_norm=f"{DECODER}.layer_norm",
    rotary=None, layer_order=LAYER_ORDER,
    model_order=(f"{DECODER}.embed_tokens", f"{DECODER}.embed_positions", f"{DECODER}.layers",
                 f"{DECODER}.layernorm_embedding", f"{DECODER}.layer_norm"))
# The decoder's keys (BartConfig spells them so); hidden_size is d_model through attribute_map.
DECODER_KEYS = {**same("vocab_size", "max_position_embeddings", "tie_word_embeddings"), "d_model": "hidden_size",
                "hidden_size": "hidden_size", "decoder_layers": "num_hidden_layers",
                "decoder_attention_heads": "num_attention_heads", "decoder_ffn_dim": "intermediate_size",
                "activation_function": "hidden_act"}
# The encoder's keys (a CausalLM builds no encoder), and the config class's numerics and bookkeeping.
ENCODER_SIDE = frozenset({
    "encoder_layers", "encoder_ffn_dim", "encoder_attention_heads", "encoder_layerdrop", "decoder_layerdrop",
    "num_hidden_layers", "num_attention_heads", "activation_dropout", "init_std", "classifier_dropout",
    "scale_embedding", "add_cross_attention", "gradient_checkpointing", "add_bias_logits", "extra_pos_embeddings",
    "force_bos_token_to_be_generated", "num_labels", "output_past"})


def _legacy(final: bool, before: bool, embedding: bool, sinusoidal: bool) -> dict:
    """The switches transformers 3's shared BART code read, which 5.24.0's one class per family no longer does:
    each family's releases carry the values its own code now builds (BART's: no final norm, post-norm, an embedding
    norm, learned positions), and any other describes a checkpoint this class would not build."""
    return {"add_final_layer_norm": final, "normalize_before": before, "normalize_embedding": embedding,
            "static_position_embeddings": sinusoidal}
BIASED_POST = {"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "post", "position_embedding_type":
               "learned", "attention_bias": True, "attention_output_bias": True, "mlp_bias": True,
               "final_norm": False, "add_cross_attention": True}


def _defaults(vocab: int, positions: int, layers: int, ffn: int, heads: int, d_model: int, act: str = "gelu") -> dict:
    return {"vocab_size": vocab, "max_position_embeddings": positions, "decoder_layers": layers,
            "decoder_ffn_dim": ffn, "decoder_attention_heads": heads, "activation_function": act, "d_model": d_model,
            "tie_word_embeddings": True}


ENCODER_KEYS = {"encoder_layers": "num_hidden_layers", "encoder_attention_heads": "num_attention_heads",
                "encoder_ffn_dim": "intermediate_size"}


def _seq2seq(whole_class: str, layers: int, ffn: int, heads: int, **changes: Any) -> Seq2Seq:
    """The whole model (``whole_class``): the encoder's keys and their config class defaults."""
    return Seq2Seq(whole_class, ENCODER_KEYS, {"encoder_layers": layers, "encoder_ffn_dim": ffn,
                                               "encoder_attention_heads": heads, "tie_word_embeddings": True,
                                               "share_encoder_decoder_embeddings": True}, **changes)


BART = Family(
    model_type="bart",
    causal_lm_class="BartForCausalLM",
    source=TF.format("bart"),
    naming=BART_NAMING,
    keys=DECODER_KEYS,
    defaults=_defaults(50265, 1024, 12, 4096, 16, 1024),
    switches=BIASED_POST,
    count_neutral=ENCODER_SIDE | {"classif_dropout"},  # facebook/bart-large's legacy key, read by no bart module
    expects=_legacy(final=False, before=False, embedding=True, sinusoidal=False),
    seq2seq=_seq2seq("BartForConditionalGeneration", 12, 4096, 16),
)


def _naming(**changes: Any) -> Naming:
    return dataclasses.replace(BART_NAMING, **changes)


PRE = {**BIASED_POST, "norm_placement": "pre", "final_norm": True}
# A sinusoidal table stored as an nn.Embedding's weight with requires_grad False (MarianSinusoidalPositionalEmbedding,
# PegasusSinusoidalPositionalEmbedding): in named_parameters() and the state dict, so counted, and frozen.
SINUSOIDAL_FROZEN = ("model.decoder.embed_positions.weight",)

# identical to bart except: a final LayerNorm (model.decoder.layer_norm) and the norms before each sublayer
# (MBartDecoderLayer: self_attn_layer_norm, encoder_attn_layer_norm, final_layer_norm before theirs).
MBART = derived_from(BART, model_type="mbart", causal_lm_class="MBartForCausalLM", source=TF.format("mbart"),
                     seq2seq=_seq2seq("MBartForConditionalGeneration", 12, 4096, 16),
                     switches=PRE, expects=_legacy(final=True, before=True, embedding=True, sinusoidal=False))


def _marian_vocab(config: Any) -> dict:
    decoder = config.get("decoder_vocab_size")
    if decoder is not None and decoder != config["vocab_size"]:
        # MarianForCausalLM: a table of decoder_vocab_size rows under a head of vocab_size rows
        raise ArchitectureError("decoder_vocab_size", f"{decoder} != vocab_size={config['vocab_size']} is not "
                                "supported (MarianForCausalLM's table and head would differ in rows)")
    return {}


# identical to bart except: sinusoidal positions as a frozen weight of max_position_embeddings rows (no offset), no
# embedding LayerNorm, the table unscaled by a module of its own (MarianDecoder.embed_scale).
MARIAN = derived_from(BART, model_type="marian", causal_lm_class="MarianForCausalLM", source=TF.format("marian"),
                      seq2seq=_seq2seq("MarianMTModel", 12, 4096, 16, shared_key="share_encoder_decoder_embeddings"),
                      naming=_naming(position_offset=0, embed_norm=None),
                      defaults=_defaults(58101, 1024, 12, 4096, 16, 1024),
                      switches={**BIASED_POST, "frozen": SINUSOIDAL_FROZEN},
                      count_neutral=ENCODER_SIDE | {"decoder_vocab_size", "share_encoder_decoder_embeddings"},
                      derive=(_marian_vocab,),
                      expects=_legacy(final=False, before=False, embedding=False, sinusoidal=True))

# identical to mbart except: sinusoidal positions as a frozen weight (no offset) and no embedding LayerNorm
# (PegasusDecoder).
PEGASUS = derived_from(MBART, model_type="pegasus", causal_lm_class="PegasusForCausalLM", source=TF.format("pegasus"),
                       seq2seq=_seq2seq("PegasusForConditionalGeneration", 12, 4096, 16),
                       naming=_naming(position_offset=0, embed_norm=None),
                       switches={**PRE, "frozen": SINUSOIDAL_FROZEN},
                       expects=_legacy(final=True, before=True, embedding=False, sinusoidal=True))

# identical to mbart except: no offset in the learned positions and no embedding LayerNorm (BlenderbotDecoder).
BLENDERBOT = derived_from(MBART, model_type="blenderbot", causal_lm_class="BlenderbotForCausalLM",
                          seq2seq=_seq2seq("BlenderbotForConditionalGeneration", 2, 10240, 32),
                          source=TF.format("blenderbot"), naming=_naming(position_offset=0, embed_norm=None),
                          defaults=_defaults(8008, 128, 24, 10240, 32, 2560),
                          expects=_legacy(final=True, before=True, embedding=False, sinusoidal=False))

# identical to bart except: no offset in the learned positions (BlenderbotSmallLearnedPositionalEmbedding).
BLENDERBOT_SMALL = derived_from(BART, model_type="blenderbot-small", causal_lm_class="BlenderbotSmallForCausalLM",
                                seq2seq=_seq2seq("BlenderbotSmallForConditionalGeneration", 8, 2048, 16),
                                source=TF.format("blenderbot_small"), naming=_naming(position_offset=0),
                                defaults=_defaults(50265, 512, 8, 2048, 16, 512))

# identical to bart except: PLBartConfig's defaults.
PLBART = derived_from(BART, model_type="plbart", causal_lm_class="PLBartForCausalLM", source=TF.format("plbart"),
                      seq2seq=_seq2seq("PLBartForConditionalGeneration", 6, 3072, 12),
                      defaults=_defaults(50005, 1024, 6, 3072, 12, 768))

# identical to bart except: MvpConfig's defaults, and use_prompt: the whole model's decoder's two MvpPrompt modules
# (self_attn_prompt and cross_attn_prompt, each a table and two Linears; the encoder's is never built:
# families/_mvp_prompts.py), read beside the encoder; MvpForCausalLM (the decoder alone) builds none.
MVP_DEFAULTS = _defaults(50267, 1024, 12, 4096, 16, 1024)
MVP = derived_from(BART, model_type="mvp", causal_lm_class="MvpForCausalLM", source=TF.format("mvp"),
                   seq2seq=_seq2seq("MvpForConditionalGeneration", 12, 4096, 16,
                                    encoder_towers=lambda config, width, where: prompts({**MVP_DEFAULTS, **config},
                                                                                        width, where)),
                   naming=_naming(model_order=(*BART_NAMING.model_order[:4], *DECODER_PROMPTS,
                                               *BART_NAMING.model_order[4:])),
                   defaults=MVP_DEFAULTS,
                   count_neutral=ENCODER_SIDE | {"prompt_length", "prompt_mid_dim", "use_prompt"})

# identical to bart except: the decoder alone is the model (TrOCRConfig's attribute_map reads num_hidden_layers and
# num_attention_heads as the decoder's), the head named output_projection, sinusoidal positions holding no tensor
# unless use_learned_position_embeddings (TrOCRSinusoidalPositionalEmbedding keeps its table as a plain attribute),
# the embedding LayerNorm by layernorm_embedding (before the layers), and the cross-attention's keys and values read
# cross_attention_hidden_size channels (TrOCRAttention's kdim and vdim; modeling_trocr.py TrOCRDecoderLayer).
TROCR = derived_from(
    BART, model_type="trocr", causal_lm_class="TrOCRForCausalLM", source=TF.format("trocr"), seq2seq=None,
    naming=_naming(lm_head="output_projection",  # TrOCRDecoder registers layernorm_embedding before the layers
                   model_order=(f"{DECODER}.embed_tokens", f"{DECODER}.embed_positions",
                                f"{DECODER}.layernorm_embedding", f"{DECODER}.layers")),
    keys={**DECODER_KEYS, **same("cross_attention_hidden_size", "layernorm_embedding"),
          "num_hidden_layers": "num_hidden_layers", "num_attention_heads": "num_attention_heads"},
    defaults={**_defaults(50265, 512, 12, 4096, 16, 1024), "use_learned_position_embeddings": True,
              "layernorm_embedding": True, "cross_attention_hidden_size": None},
    switches={key: value for key, value in BIASED_POST.items() if key != "position_embedding_type"},
    derive=(lambda config: {"position_embedding_type": "learned" if config["use_learned_position_embeddings"]
                            else "sinusoidal"},),
    count_neutral=ENCODER_SIDE - {"num_hidden_layers", "num_attention_heads"} | {"use_learned_position_embeddings"},
    expects={})

# identical to mbart except: learned positions of max_target_positions rows with no offset (WhisperPositionalEmbedding),
# no embedding LayerNorm, the head named proj_out, and k_proj without a bias in both attentions (WhisperAttention,
# modeling_whisper.py: k_proj bias=False; q_proj, v_proj, out_proj biased).
def _whisper_encoder(prefix: str, config: Any, where: str | None) -> Any:
    """WhisperEncoder (towers/audio.py, helper O's): the audio encoder read from WhisperConfig itself."""
    from ..towers.audio import encoder

    return encoder(prefix, config, where, key="", component=COMPONENT)


# The whole model (WhisperForConditionalGeneration, AutoModelForSpeechSeq2Seq): the audio encoder beside the decoder,
# no shared table (WhisperModel: each stack its own; proj_out tied to the decoder's embed_tokens), no buffer.
WHISPER_WHOLE = _seq2seq("WhisperForConditionalGeneration", 4, 1536, 6, shared_table=False, head_buffers=(),
                         make_encoder=_whisper_encoder)
WHISPER_WHOLE = WHISPER_WHOLE._replace(keys={}, defaults={  # WhisperConfig's encoder defaults (configuration_whisper.py)
    **WHISPER_WHOLE.defaults, "d_model": 384, "num_mel_bins": 80, "max_source_positions": 1500})
WHISPER = derived_from(
    MBART, model_type="whisper", causal_lm_class="WhisperForCausalLM", source=TF.format("whisper"),
    seq2seq=WHISPER_WHOLE,
    naming=_naming(position_offset=0, embed_norm=None, lm_head="proj_out", key_bias=False),
    keys={**{key: field for key, field in DECODER_KEYS.items() if key != "max_position_embeddings"},
          "max_target_positions": "max_position_embeddings"},
    defaults={**_defaults(51865, 448, 4, 1536, 6, 384), "max_target_positions": 448},
    switches=PRE,
    count_neutral=ENCODER_SIDE | {"max_source_positions", "num_mel_bins", "use_weighted_layer_sum",
                                  "classifier_proj_size", "apply_spec_augment", "mask_time_prob", "mask_time_length",
                                  "mask_time_min_masks", "mask_feature_prob", "mask_feature_length",
                                  "mask_feature_min_masks", "median_filter_width", "num_key_value_heads"},
    expects={})

# identical to mbart except: no offset in the learned positions, no final norm but the embedding LayerNorm
# (BigBirdPegasusDecoder), every attention projection biased by use_bias (BigBirdPegasusDecoderAttention), and a head
# never tied (BigBirdPegasusForCausalLM declares no _tied_weights_keys, whatever tie_word_embeddings says).
BIGBIRD_PEGASUS = derived_from(
    MBART, model_type="bigbird_pegasus", causal_lm_class="BigBirdPegasusForCausalLM",
    seq2seq=_seq2seq("BigBirdPegasusForConditionalGeneration", 16, 4096, 16, encoder_naming=(
        ("q", "self_attn.self.query"), ("k", "self_attn.self.key"), ("v", "self_attn.self.value"),
        ("o", "self_attn.output"), ("layer_order", ("self_attn.self", "self_attn.output", "self_attn_layer_norm",
                                                      "fc1", "fc2", "final_layer_norm")))),
    source=TF.format("bigbird_pegasus"), naming=_naming(position_offset=0),
    keys={**{key: field for key, field in DECODER_KEYS.items() if key != "tie_word_embeddings"},
          "use_bias": "attention_bias"},
    defaults={**_defaults(96103, 4096, 16, 4096, 16, 1024, "gelu_new"), "use_bias": False},
    switches={**{key: value for key, value in PRE.items() if key not in ("attention_bias", "attention_output_bias")},
              "final_norm": False, "tie_word_embeddings": False},
    derive=(lambda config: {"attention_output_bias": bool(config["use_bias"])},),
    count_neutral=ENCODER_SIDE | {"attention_type", "block_size", "num_random_blocks", "attention_probs_dropout_prob",
                                  "tie_word_embeddings"},
    expects={})

# identical to mbart except: sinusoidal positions held as a buffer (M2M100SinusoidalPositionalEmbedding.weights,
# max_position_embeddings + 2 rows, non-persistent: no tensor), no embedding LayerNorm, no final_logits_bias, and no
# CausalLM (transformers 5.24.0 registers M2M100ForConditionalGeneration alone: the whole model is the reference).
M2M_100 = derived_from(
    MBART, model_type="m2m_100", causal_lm_class="M2M100ForConditionalGeneration", source=TF.format("m2m_100"),
    naming=_naming(embed_norm=None, model_buffers=(
        (f"{DECODER}.embed_positions.weights", ("max_position_embeddings+2", "hidden_size"), None, False),)),
    defaults={**_defaults(128112, 1024, 12, 4096, 16, 1024, "relu")},
    switches={**PRE, "position_embedding_type": "sinusoidal"},
    seq2seq=_seq2seq("M2M100ForConditionalGeneration", 12, 4096, 16, head_buffers=()),
    expects={})

FAMILIES = [BART, MBART, MARIAN, PEGASUS, BLENDERBOT, BLENDERBOT_SMALL, PLBART, MVP, TROCR, WHISPER, BIGBIRD_PEGASUS,
            M2M_100]
