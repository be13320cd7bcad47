"""Hypothesis strategies: random small configs for Evolla (issue #16), counted whole as EvollaForProteinText2Text
builds them.

Each spells the keys the way EvollaConfig and SaProtConfig do (tests/_family_configs.py's style): the decoder's
keys at the top (GQA, head_dim or not, biases), the aligner's and resampler's keys beside them, the protein
encoder's in protein_encoder_config (its width a multiple of its heads, rotary or absolute positions)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def saprot(draw) -> dict:
    """SaProtConfig: an ESM-like encoder, its width a multiple of its heads."""
    heads = draw(st.integers(1, 3))
    config = {"vocab_size": draw(st.integers(4, 40)), "hidden_size": heads * draw(st.integers(1, 6)),
              "num_attention_heads": heads, "intermediate_size": draw(st.integers(1, 24)),
              "num_hidden_layers": draw(st.integers(1, 2)), "emb_layer_norm_before": draw(booleans),
              "position_embedding_type": draw(st.sampled_from(["rotary", "absolute"])),
              "max_position_embeddings": draw(st.integers(4, 40))}
    if draw(booleans):
        config.update(is_decoder=True, add_cross_attention=draw(booleans))
    return config


@st.composite
def evolla(draw) -> dict:
    """EvollaConfig: the decoder's keys, the adapters' layers, width and bias, the resampler's sizes."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {"model_type": "evolla", "vocab_size": draw(st.integers(8, 64)),
              # an even head width, as core() draws: RoPE over an odd one fails (or, at 1, widens the keys)
              "hidden_size": heads * draw(st.sampled_from([2, 4, 6])), "intermediate_size": draw(st.integers(1, 32)),
              "num_hidden_layers": draw(st.integers(1, 6)), "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "attention_bias": draw(booleans), "mlp_bias": draw(booleans),
              "aligner_num_add_layers": draw(st.integers(1, 8)), "aligner_ffn_mult": draw(st.integers(1, 4)),
              "aligner_enable_bias": draw(booleans), "resampler_depth": draw(st.integers(1, 2)),
              "resampler_dim_head": draw(st.integers(1, 6)), "resampler_heads": draw(st.integers(1, 3)),
              "resampler_num_latents": draw(st.integers(1, 5)), "resampler_ff_mult": draw(st.integers(1, 4)),
              "max_position_embeddings": draw(st.integers(8, 64))}
    if draw(booleans):
        config["head_dim"] = draw(st.sampled_from([2, 4, 6]))
    if draw(booleans):
        config["protein_encoder_config"] = draw(saprot())
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_EVOLLA: dict[str, st.SearchStrategy] = {"evolla": evolla()}
