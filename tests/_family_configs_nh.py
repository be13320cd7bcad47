"""Hypothesis strategies: random small configs for the whole multimodal families of set NH (issue "Whole multimodal
models"), typed here.  Each spells the keys the way the family's config class does (tests/_family_configs.py's
style)."""

from __future__ import annotations

from _family_configs_l import _set
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def radio_vision(draw) -> dict:
    """RadioConfig: heads dividing the width, the position grid (max_img_size // patch_size)², the MLP ratio (a
    float: int(width × ratio), at least 2 so SwiGLU's rounding keeps a width), SwiGLU or GELU, q/k/v biases, class
    and register tokens, the summary's indices."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    return {"model_type": "radio", "hidden_size": heads * draw(st.integers(2, 6)), "num_attention_heads": heads,
            "num_hidden_layers": draw(st.integers(1, 2)), "patch_size": patch,
            "max_img_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
            "num_channels": draw(st.integers(1, 3)), "mlp_ratio": draw(st.sampled_from([1.0, 1.5, 2.5, 4.0])),
            "use_swiglu_ffn": draw(booleans), "qkv_bias": draw(booleans), "num_cls_tokens": draw(st.integers(1, 3)),
            "num_registers": draw(st.integers(0, 3)),
            **({"summary_idxs": draw(st.lists(st.integers(0, 0), min_size=1, max_size=3))} if draw(booleans)
               else {})}


@st.composite
def parakeet_audio(draw) -> dict:
    """ParakeetEncoderConfig as Nemotron-H Omni reads it: heads dividing the width, the subsampling (a factor of
    2, 4 or 8, mel rows left after its strides), each bias switch, embed_audio's two keys of its own."""
    heads, factor, stride = draw(st.integers(1, 3)), draw(st.sampled_from([2, 4, 8])), draw(st.integers(1, 2))
    layers = factor.bit_length() - 1
    config = {"hidden_size": heads * draw(st.integers(1, 4)), "num_attention_heads": heads,
              "num_hidden_layers": draw(st.integers(1, 2)), "intermediate_size": draw(st.integers(1, 16)),
              "conv_kernel_size": draw(st.sampled_from([1, 3, 5])), "subsampling_factor": factor,
              "subsampling_conv_channels": draw(st.integers(1, 4)), "subsampling_conv_stride": stride,
              "subsampling_conv_kernel_size": draw(st.sampled_from([1, 3])),
              "num_mel_bins": stride ** layers * draw(st.integers(1, 3)) + draw(st.integers(0, stride - 1)),
              "convolution_bias": draw(booleans), "projection_hidden_size": draw(st.integers(1, 12)),
              "projection_bias": draw(booleans)}
    if draw(booleans):  # __post_init__ puts False under a config that omits it
        config["attention_bias"] = draw(booleans)
    if draw(booleans):
        config["model_type"] = "parakeet_encoder"
    return config


@st.composite
def nemotron_h_omni(draw) -> dict:
    """NemotronH_Omni_Reasoning_V3_Config: a Nemotron-H decoder (its MTP switch builds vision_final_layernorm), a
    RADIO tower whose video patch size is the whole config's (validate_architecture), the projector's widths (the
    vision width its own key, not the tower's), the pixel-shuffle ratio; audio_config null or Parakeet's."""
    text = {"model_type": "nemotron_h", **draw(_set("nemotron_h"))}
    vision = draw(radio_vision())
    temporal = draw(st.integers(2, 3))
    vision["video_temporal_patch_size"] = temporal
    config = {"model_type": "nemotron_h_omni", "text_config": text, "vision_config": vision,
              "video_temporal_patch_size": temporal, "audio_config": None,
              "downsample_ratio": draw(st.sampled_from([0.5, 0.25, 1.0, 0.3])),
              "projector_hidden_size": draw(st.integers(1, 24)), "vision_hidden_size": draw(st.integers(1, 12))}
    if temporal == 2 and draw(booleans):  # the class defaults
        del config["video_temporal_patch_size"]
    if draw(booleans):
        config["audio_config"] = draw(parakeet_audio())
    return config



@st.composite
def omniasr_audio(draw) -> dict:
    """OmniASRAudioConfig: heads and position-conv groups dividing the width, one to three feature convolutions
    (their widths, kernels and strides as long), the conv bias, the position conv's length."""
    heads, groups = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    layers = draw(st.integers(1, 3))
    return {"model_type": "omniasr_audio", "hidden_size": heads * groups * draw(st.integers(1, 4)),
            "num_attention_heads": heads, "num_conv_pos_embedding_groups": groups,
            "num_hidden_layers": draw(st.integers(1, 2)), "intermediate_size": draw(st.integers(1, 24)),
            "num_conv_pos_embeddings": draw(st.integers(1, 6)), "conv_bias": draw(booleans),
            "conv_dim": draw(st.lists(st.integers(1, 8), min_size=layers, max_size=layers)),
            "conv_kernel": draw(st.lists(st.integers(1, 4), min_size=layers, max_size=layers)),
            "conv_stride": draw(st.lists(st.integers(1, 3), min_size=layers, max_size=layers))}


@st.composite
def omniasr(draw) -> dict:
    """OmniASRConfig: a Llama decoder (either config's tie_word_embeddings drawn: neither ties), the audio tower."""
    config = {"model_type": "omniasr", "text_config": {"model_type": "llama", **draw(_set("llama"))},
              "audio_config": draw(omniasr_audio())}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_NH = {"nemotron_h_omni": nemotron_h_omni(), "omniasr": omniasr()}
