"""Hypothesis strategies: random small configs for Apertus 1.5, ERNIE 4.5 VL MoE and GLM-5-Next whole (issue #16),
typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
small = st.integers(1, 8)


@st.composite
def apertus1p5_vision(draw) -> dict:
    """Apertus1p5VisionTokenizerConfig: GroupNorm(32) widths (base_channels a multiple of 32), stages by
    channel_multiplier, attention where resolution // 2**stage is listed."""
    stages = draw(st.integers(1, 3))
    return {"model_type": "apertus1p5_vision_tokenizer", "codebook_size": draw(st.integers(1, 3)),
            "embed_dim": draw(small), "latent_channels": draw(small), "in_channels": draw(st.integers(1, 3)),
            "base_channels": draw(st.sampled_from([32, 64])),
            "channel_multiplier": draw(st.lists(st.integers(1, 2), min_size=stages, max_size=stages)),
            "num_res_blocks": draw(st.integers(0, 2)),
            "attn_resolutions": draw(st.lists(st.sampled_from([4, 8, 16, 32]), max_size=2)),
            "resolution": draw(st.sampled_from([8, 16, 32]))}


@st.composite
def wavtokenizer_encoder(draw) -> dict:
    """WavTokenizerEncoderConfig's encoder keys: SEANet convs (weight-normed or group-normed), the LSTM, the
    codebook's buffers (codebook_dim = hidden_size: validate_architecture)."""
    filters, hidden = draw(small), draw(small)
    return {"model_type": "wavtokenizer_encoder", "audio_channels": draw(st.integers(1, 2)), "num_filters": filters,
            "upsampling_ratios": draw(st.lists(st.integers(1, 4), max_size=3)),
            "num_residual_layers": draw(st.integers(0, 2)), "dilation_growth_rate": draw(st.integers(1, 3)),
            "compress": draw(st.integers(1, filters)), "use_conv_shortcut": draw(booleans),
            "norm_type": draw(st.sampled_from(["weight_norm", "time_group_norm"])),
            "kernel_size": draw(st.integers(1, 7)), "last_kernel_size": draw(st.integers(1, 7)),
            "residual_kernel_size": draw(st.integers(1, 5)), "num_lstm_layers": draw(st.integers(1, 2)),
            "hidden_size": hidden, "codebook_size": draw(st.integers(1, 3)), "codebook_dim": hidden}


@st.composite
def apertus1p5(draw) -> dict:
    """Apertus1p5Config: its text decoder (apertus1p5_text's strategy), the two tokenizers, the code ranges
    (image_token_offset + codebook_size == audio_token_offset; the audio range within the vocabulary:
    validate_architecture)."""
    from _family_configs import CONFIGS

    text = {**draw(CONFIGS["apertus1p5_text"]), "model_type": "apertus1p5_text"}
    vision, audio = draw(apertus1p5_vision()), draw(wavtokenizer_encoder())
    text["vocab_size"] = max(text["vocab_size"], vision["codebook_size"] + audio["codebook_size"])
    if text.get("output_vocab_size") is not None:
        text["output_vocab_size"] = min(text["output_vocab_size"], text["vocab_size"])
    config = {"model_type": "apertus1p5", "text_config": text, "vision_config": vision, "audio_config": audio,
              "image_token_id": 0, "audio_token_id": 1, "image_token_offset": 0,
              "audio_token_offset": vision["codebook_size"]}
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


@st.composite
def ernie4_5_vl_moe(draw) -> dict:
    """Ernie4_5_VLMoeConfig: ERNIE 4.5 MoE's decoder keys with mlp_layer_types (given or left to the class), the two
    expert widths (given or the class's [1536, 512]), use_bias; its vision tower (hidden_size divisible by num_heads)
    and the resampler's merge sizes."""
    from _family_configs import core

    text = draw(core(head_dim=False))
    text["hidden_size"] = text["num_attention_heads"] * 2 * draw(st.integers(1, 4))  # an even head_dim
    half = text["hidden_size"] // text["num_attention_heads"] // 2
    time = draw(st.integers(1, half))
    height = draw(st.integers(0, half - time))
    text["rope_parameters"] = {"rope_type": "default", "rope_theta": 500000.0,
                               "mrope_section": [height, half - time - height, time]}  # they split head_dim / 2
    layers = text["num_hidden_layers"]
    experts = draw(st.integers(1, 6))
    text.update({"model_type": "ernie4_5_vl_moe_text", "moe_num_experts": experts,
                 "moe_k": draw(st.integers(1, experts)), "moe_num_shared_experts": draw(st.integers(0, 2)),
                 "use_bias": draw(booleans)})
    if draw(booleans):
        text["moe_intermediate_size"] = [draw(st.integers(1, 16)), draw(st.integers(1, 16))]
    if draw(booleans):
        text["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                max_size=layers))
    heads = draw(st.integers(1, 4))
    vision = {"model_type": "ernie4_5_vl_moe_vision", "depth": draw(st.integers(1, 2)),
              "hidden_size": heads * draw(st.integers(1, 4)) * 2, "num_heads": heads,
              "intermediate_size": draw(small), "in_channels": draw(st.integers(1, 3)),
              "patch_size": draw(st.integers(1, 4)), "spatial_merge_size": draw(st.integers(1, 2)),
              "temporal_merge_size": draw(st.integers(1, 2))}
    config = {"model_type": "ernie4_5_vl_moe", "text_config": text, "vision_config": vision}
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_TRIO: dict[str, st.SearchStrategy] = {"apertus1p5": apertus1p5(), "ernie4_5_vl_moe": ernie4_5_vl_moe()}
