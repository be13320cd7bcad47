"""Hypothesis strategies: random small configs for the families of set SM (seamless_m4t, seamless_m4t_v2: the text
model AutoModelForSeq2SeqLM builds; perceiver: PerceiverForMaskedLM), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
# The keys of what SeamlessM4TModel builds beside the text model: drawn to show they change no tensor of it.
BESIDE = {"speech_encoder_layers": st.integers(1, 4), "speech_encoder_attention_heads": st.integers(1, 4),
          "t2u_encoder_layers": st.integers(1, 4), "t2u_decoder_ffn_dim": st.integers(1, 64),
          "t2u_vocab_size": st.integers(4, 64), "unit_embed_dim": st.integers(1, 32), "add_adapter": booleans}


@st.composite
def seamless_m4t(draw, model_type: str) -> dict:
    """SeamlessM4TConfig's text model: heads of both stacks dividing hidden_size (SeamlessM4TAttention refuses
    others; its sinusoidal table divides by hidden_size // 2 - 1: not 2 or 3 wide), the decoder's depth and heads by
    their own names or by attribute_map's, the head tied or not, a padding id, and the other parts' keys."""
    heads, encoder_heads = draw(st.sampled_from([1, 2, 3, 4])), draw(st.sampled_from([1, 2]))
    hidden = draw(st.sampled_from([heads * encoder_heads * k for k in range(1, 9)]).filter(
        lambda width: width not in (2, 3)))
    vocab = draw(st.integers(4, 300))
    config = {"model_type": model_type, "vocab_size": vocab, "hidden_size": hidden,
              "encoder_layers": draw(st.integers(1, 3)), "encoder_attention_heads": encoder_heads,
              "encoder_ffn_dim": draw(st.integers(1, 48)), "decoder_ffn_dim": draw(st.integers(1, 48)),
              "max_position_embeddings": draw(st.integers(1, 64)), "scale_embedding": draw(booleans),
              "activation_function": draw(st.sampled_from(["relu", "gelu", "gelu_new", "silu"])),
              "pad_token_id": draw(st.sampled_from([0, 1])), "bos_token_id": 2, "eos_token_id": 3,
              "decoder_start_token_id": 3}
    layers, named = draw(st.integers(1, 4)), draw(booleans)  # SeamlessM4TConfig.attribute_map: the decoder's
    config["decoder_layers" if named else "num_hidden_layers"] = layers
    config["decoder_attention_heads" if draw(booleans) else "num_attention_heads"] = heads
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    config.update(draw(st.fixed_dictionaries({}, optional=BESIDE)))
    return config


@st.composite
def perceiver(draw) -> dict:
    """PerceiverConfig for the masked LM: the self-attention heads and the cross-attention heads dividing d_latents,
    d_model a multiple of 8 (the decoder's 8 heads split its value channels), qk_channels given or not (the self
    layers' values must stay d_latents wide: v_channels d_latents where qk_channels is), the cross-attention's
    channels from d_model ("kv") or d_latents ("q") dividing its heads, both widening factors, num_blocks."""
    heads, cross_heads = draw(st.sampled_from([1, 2, 4])), draw(st.sampled_from([1, 2]))
    latents = heads * cross_heads * draw(st.integers(1, 6))
    width = 8 * cross_heads * draw(st.integers(1, 3))
    config = {"model_type": "perceiver", "vocab_size": draw(st.integers(4, 300)), "d_latents": latents,
              "d_model": width, "num_latents": draw(st.integers(1, 16)),
              "num_self_attends_per_block": draw(st.integers(1, 4)), "num_self_attention_heads": heads,
              "num_cross_attention_heads": cross_heads, "max_position_embeddings": draw(st.integers(1, 64)),
              "num_blocks": draw(st.integers(1, 3)), "hidden_act": draw(st.sampled_from(["gelu", "relu", "silu"])),
              "self_attention_widening_factor": draw(st.integers(1, 3)),
              "cross_attention_widening_factor": draw(st.integers(1, 3)),
              "cross_attention_shape_for_attention": draw(st.sampled_from(["q", "kv"])),
              "use_query_residual": draw(booleans)}
    if draw(booleans):  # query/key channels of every encoder attention, values d_latents wide
        config.update(qk_channels=heads * cross_heads * draw(st.integers(1, 6)), v_channels=latents)
    elif draw(booleans):  # the values alone: the cross-attention's too
        config["v_channels"] = latents
    return config


CONFIGS_SM: dict[str, st.SearchStrategy] = {"seamless_m4t": seamless_m4t("seamless_m4t"),
                                            "seamless_m4t_v2": seamless_m4t("seamless_m4t_v2"),
                                            "perceiver": perceiver()}
