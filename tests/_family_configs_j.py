"""Hypothesis strategies: random small configs for the families of set J, typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style): the BART-lineage
decoders' d_model, decoder_layers, decoder_attention_heads and decoder_ffn_dim, and the encoder's own keys beside
them (which a CausalLM never reads: drawn so that a table reading them instead fails)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def bart_decoder(draw, model_type: str, **extra: st.SearchStrategy) -> dict:
    """BartConfig's decoder keys: heads dividing d_model (BartAttention refuses others), the encoder's keys drawn
    apart, the table scaled or not, the head tied or not."""
    heads = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    encoder_heads = draw(st.sampled_from([1, 2]))
    config = {"model_type": model_type, "pad_token_id": 0, "bos_token_id": 0, "eos_token_id": 0,
              "decoder_start_token_id": 0, "forced_eos_token_id": None,
              "vocab_size": draw(st.integers(4, 300)), "d_model": heads * encoder_heads * draw(st.sampled_from([2, 4, 8])),
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
}
