"""EncoderDecoderModel (transformers 5.24.0 models/encoder_decoder: bert2bert, roberta2roberta ...), counted whole:
BLIP's layout (families/blip.py: a BERT-code decoder whose bert./cls. roots sit under the whole model's prefix, its
head tied by its own config) except that the decoder is config.decoder read by its own family's table (BERT's or
RoBERTa's, each reading add_cross_attention), the encoder is config.encoder's base model under "encoder."
(towers/encoder_decoder.py: AutoModel's, with its pooler) registered first, and enc_to_dec_proj follows the decoder
where the widths differ.  EncoderDecoderConfig builds a BERT encoder and a BERT decoder (is_decoder,
add_cross_attention) where a config gives no sub-config (sub_configs_defaults), so its class defaults build: 521
tensors.  The whole model ties nothing of its own: no tie_word_embeddings of its own, tie_encoder_decoder read
nowhere in 5.24.0; each head is tied by its own config (the decoder's tie_word_embeddings).  Any other encoder or
decoder type is refused in one line naming encoder.model_type or decoder.model_type."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.encoder_decoder import PROJECTOR, ROOTS, encoder, enc_to_dec_proj, encoder_width, section
from ._family import multimodal
from .bert import FAMILIES as BERT_FAMILIES

BERT = BERT_FAMILIES[0]  # BERT's table reading add_cross_attention
DECODER = {"model_type": "bert", "is_decoder": True, "add_cross_attention": True}  # EncoderDecoderConfig's default
# the decoders (AutoModelForCausalLM's) and their top modules: every encoder type's, and GPT-2's (GPT2LMHeadModel with
# add_cross_attention: crossattention.c_attn, q_attn, c_proj and ln_cross_attn, families/gpt2.py), which AutoModel's
# GPT2Model is no encoder paramledger counts here
DECODER_ROOTS = {**{kind: (root, "cls.", "lm_head.") for kind, root in ROOTS.items()},
                 "gpt2": ("transformer.", "lm_head")}


def decoder_config(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """config.decoder, the text decoder (EncoderDecoderConfig reads no text_config); a cross_attention_hidden_size
    other than the encoder's width refused as EncoderDecoderModel.__init__ refuses it."""
    given = section(config, "decoder", DECODER, None, DECODER_ROOTS)
    cross = given.get("cross_attention_hidden_size")
    section(config, "encoder", {"model_type": "bert"}, None)
    if cross is not None and cross != encoder_width(config):
        raise ArchitectureError("decoder.cross_attention_hidden_size", f"{cross!r} must be the encoder's hidden_size "
                                f"({encoder_width(config)!r}), as EncoderDecoderModel requires")
    return given


@lru_cache(maxsize=16)
def encoder_first(naming: Naming) -> Naming:
    """named_parameters(): the encoder, the decoder (its base model, then its head: an untied decoder weight last),
    enc_to_dec_proj."""
    decoder = naming.model_order or (naming.embed.rpartition(".")[0], naming.layer.partition(".{i}")[0],
                                     naming.lm_head.rpartition(".")[0])  # (BertGeneration's: none of its own)
    if naming.conv1d and not naming.model_order:  # GPT2Model: wte, wpe, h, ln_f under one parent
        decoder = (naming.embed, naming.positions, naming.layer.partition(".{i}")[0], naming.final_norm)
    return dataclasses.replace(naming, model_order=("encoder", *decoder, naming.lm_head, PROJECTOR))


FAMILIES = [multimodal(
    BERT, "encoder-decoder", "transformers 5.24.0 models/encoder_decoder/configuration_encoder_decoder.py "
    "(EncoderDecoderConfig: encoder and decoder sub-configs, bert by default)",
    Whole({}, enc_to_dec_proj, projector_prefix="", decoder_prefix="decoder.",
          decoder_roots=tuple(dict.fromkeys(root for roots in DECODER_ROOTS.values() for root in roots)),
          tie_word_embeddings=False, tie_keys=(), tie_from_text=True, text_types=tuple(DECODER_ROOTS),
          text_config=DECODER, text_key="decoder", text_rewritten=decoder_config, made=encoder, renamed=encoder_first,
          described="encoder-decoder: counting the whole model (EncoderDecoderModel: the encoder, the decoder and "
                    "enc_to_dec_proj where their widths differ); --text-only counts the decoder alone"),
    "EncoderDecoderModel")]
