"""Hypothesis strategies: random small configs for set ED, EncoderDecoderModel (issue #17), typed here.

Each pair real releases use (bert2bert, roberta2roberta) and the mixed ones: the encoder BERT's or RoBERTa's strategy
(set H's) as AutoModel builds it, the decoder the same with add_cross_attention drawn where it is a decoder (set J's),
their widths drawn apart (enc_to_dec_proj where they differ), a cross_attention_hidden_size equal to the encoder's
width (no projection) or none."""

from __future__ import annotations

from _family_configs_d import CONFIGS_D
from _family_configs_h import CONFIGS_H
from _family_configs_j import with_cross_attention
from hypothesis import strategies as st

STRATEGIES = {**CONFIGS_H, "bert-generation": CONFIGS_D["bert-generation"]}
TYPES = ("bert", "roberta", "xlm-roberta", "camembert", "data2vec-text", "bert-generation")


@st.composite
def encoder_decoder(draw) -> dict:
    encoder = {**draw(STRATEGIES[draw(st.sampled_from(TYPES))]), "is_decoder": False}
    decoder = draw(with_cross_attention(STRATEGIES[draw(st.sampled_from(TYPES))]))
    if draw(st.booleans()):
        decoder["cross_attention_hidden_size"] = encoder["hidden_size"]
    return {"model_type": "encoder-decoder", "encoder": encoder, "decoder": decoder,
            "decoder_start_token_id": 0, "pad_token_id": 0}


CONFIGS_ED: dict[str, st.SearchStrategy] = {"encoder-decoder": encoder_decoder()}
