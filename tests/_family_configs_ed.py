"""Hypothesis strategies: random small configs for set ED, EncoderDecoderModel (issue #17), typed here.

Each pair real releases use (bert2bert, roberta2roberta, bert2gpt2) and the mixed ones: the encoder BERT's or RoBERTa's
strategy (set H's) as AutoModel builds it, the decoder the same with add_cross_attention drawn where it is a decoder
(set J's) or GPT-2 with add_cross_attention drawn (helper VED's),
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
def gpt2(draw) -> dict:
    """GPT2Config's keys, with add_cross_attention drawn (GPT2Block's crossattention and ln_cross_attn): a decoder
    (bert2gpt2), never an encoder here."""
    heads = draw(st.sampled_from([1, 2, 4]))
    return {"model_type": "gpt2", "vocab_size": draw(st.integers(4, 300)),
            "n_embd": heads * draw(st.sampled_from([2, 4, 8])), "n_layer": draw(st.integers(1, 3)), "n_head": heads,
            "n_inner": draw(st.one_of(st.none(), st.integers(1, 32))), "n_positions": draw(st.integers(1, 64)),
            "add_cross_attention": draw(st.booleans()), "tie_word_embeddings": draw(st.booleans())}


@st.composite
def encoder_decoder(draw) -> dict:
    encoder = {**draw(STRATEGIES[draw(st.sampled_from(TYPES))]), "is_decoder": False}
    kind = draw(st.sampled_from((*TYPES, "gpt2")))
    decoder = draw(gpt2() if kind == "gpt2" else with_cross_attention(STRATEGIES[kind]))
    if kind != "gpt2" and draw(st.booleans()):  # (GPT-2 reads no such key: its keys and values are n_embd wide)
        decoder["cross_attention_hidden_size"] = encoder["hidden_size"]
    return {"model_type": "encoder-decoder", "encoder": encoder, "decoder": decoder,
            "decoder_start_token_id": 0, "pad_token_id": 0}


CONFIGS_ED: dict[str, st.SearchStrategy] = {"encoder-decoder": encoder_decoder()}
