"""Hypothesis strategies: random small configs for the families of set J, typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style): the BART-lineage
decoders' d_model, decoder_layers, decoder_attention_heads and decoder_ffn_dim, and the encoder's own keys beside
them (which a CausalLM never reads: drawn so that a table reading them instead fails)."""

from __future__ import annotations

from _family_configs_d import CONFIGS_D
from _family_configs_h import CONFIGS_H
from hypothesis import strategies as st

booleans = st.booleans()


def with_cross_attention(base: st.SearchStrategy) -> st.SearchStrategy:
    """``base`` (a BERT-code family's strategy, set D's or H's, which draws is_decoder or fixes it), with
    add_cross_attention drawn where it is a decoder (BertLayer refuses cross-attention in an encoder)."""
    return st.tuples(base, booleans).map(
        lambda drawn: {**drawn[0], "add_cross_attention": bool(drawn[0].get("is_decoder")) and drawn[1]})


@st.composite
def bart_decoder(draw, model_type: str, **extra: st.SearchStrategy) -> dict:
    """BartConfig's decoder keys: heads dividing d_model (BartAttention refuses others), the encoder's keys drawn
    apart, the table scaled or not, the head tied or not."""
    heads = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    encoder_heads = draw(st.sampled_from([1, 2]))
    config = {"model_type": model_type, "pad_token_id": 0, "bos_token_id": 0, "eos_token_id": 0,
              "decoder_start_token_id": 0, "forced_eos_token_id": None,
              "vocab_size": draw(st.integers(4, 300)),
              "d_model": heads * encoder_heads * draw(st.sampled_from([2, 4, 8])),
              "decoder_layers": draw(st.integers(1, 4)), "decoder_attention_heads": heads,
              "decoder_ffn_dim": draw(st.integers(1, 96)), "max_position_embeddings": draw(st.integers(1, 64)),
              "encoder_layers": draw(st.integers(1, 3)), "encoder_attention_heads": encoder_heads,
              "encoder_ffn_dim": draw(st.integers(1, 32)), "scale_embedding": draw(booleans),
              "activation_function": draw(st.sampled_from(["gelu", "relu", "silu"])),
              "tie_word_embeddings": draw(booleans)}
    for key, strategy in extra.items():
        config[key] = draw(strategy)
    return config


CONFIGS_J: dict[str, st.SearchStrategy] = {
    "bart": bart_decoder("bart"),
    "mbart": bart_decoder("mbart"),
    "marian": bart_decoder("marian", share_encoder_decoder_embeddings=booleans),
    "pegasus": bart_decoder("pegasus"),
    "blenderbot": bart_decoder("blenderbot"),
    "blenderbot-small": bart_decoder("blenderbot-small"),
    "plbart": bart_decoder("plbart"),
    "mvp": bart_decoder("mvp", prompt_length=st.integers(1, 8), prompt_mid_dim=st.integers(1, 8)),
    "trocr": bart_decoder("trocr", use_learned_position_embeddings=booleans, layernorm_embedding=booleans,
                          cross_attention_hidden_size=st.one_of(st.none(), st.integers(1, 24))).filter(
        # TrOCRSinusoidalPositionalEmbedding divides by d_model // 2 - 1: transformers builds no 2-wide table
        lambda config: config["use_learned_position_embeddings"] or config["d_model"] > 2),
    "whisper": bart_decoder("whisper", max_target_positions=st.integers(1, 64), max_source_positions=st.integers(1, 8),
                            num_mel_bins=st.integers(1, 8)),
    "bigbird_pegasus": bart_decoder("bigbird_pegasus", use_bias=booleans, block_size=st.integers(1, 8),
                                    num_random_blocks=st.integers(1, 3)),
    "bert": with_cross_attention(CONFIGS_H["bert"]),
    "bert-generation": with_cross_attention(CONFIGS_D["bert-generation"]),
    **{model_type: with_cross_attention(CONFIGS_H[model_type])
       for model_type in ("roberta", "data2vec-text", "xlm-roberta", "camembert", "ernie", "electra", "big_bird")},
}
