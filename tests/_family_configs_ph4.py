"""Hypothesis strategies: random small configs for Phi-4-multimodal (issues #15 and #16, set ph4), typed here.

Each spells the keys the way Phi4MultimodalConfig and its sub-configs do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import _set
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def phi4_vision(draw) -> dict:
    """Phi4MultimodalVisionConfig: heads dividing the width (the pooling head's nn.MultiheadAttention insists), an
    image of whole and part patches (an odd grid is padded, no tensor), a head_dim no module reads, the model_type
    left out or given (the class is fixed)."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    config = {"hidden_size": heads * draw(st.integers(1, 6)), "num_attention_heads": heads,
              "num_hidden_layers": draw(st.integers(1, 2)), "intermediate_size": draw(st.integers(1, 32)),
              "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
              "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1))}
    if draw(booleans):
        config["head_dim"] = draw(st.integers(1, 9))
    if draw(booleans):
        config["model_type"] = "phi4_multimodal_vision"
    return config


@st.composite
def phi4_audio(draw) -> dict:
    """Phi4MultimodalAudioConfig: a width the heads need not divide (each head hidden_size // heads wide unless
    head_dim is given), every conv width apart, an even time_reduction (a power of two or not: int(log2) stages),
    the relative bias symmetric or not, the projections' downsample_rate."""
    heads = draw(st.integers(1, 3))
    config = {"hidden_size": heads * draw(st.integers(1, 4)) + draw(st.integers(0, heads - 1)),
              "num_attention_heads": heads, "num_blocks": draw(st.integers(1, 2)),
              "intermediate_size": draw(st.integers(1, 16)), "ext_pw_out_channel": draw(st.integers(1, 8)),
              "depthwise_separable_out_channel": draw(st.integers(1, 8)),
              "depthwise_multiplier": draw(st.integers(1, 2)), "kernel_size": draw(st.integers(1, 4)),
              "input_size": draw(st.integers(1, 40)), "time_reduction": draw(st.sampled_from([2, 4, 6, 8, 16])),
              "bias_max_distance": draw(st.integers(1, 20)), "bias_symmetric": draw(booleans),
              "nemo_conv_channels": draw(st.integers(1, 6)), "downsample_rate": draw(st.integers(1, 3))}
    if draw(booleans):
        config["head_dim"] = draw(st.integers(1, 6))
    return config


def _phi4_multimodal(drawn: tuple[dict, dict, dict, float | None]) -> dict:
    """Phi-3's draw at the top level (the flat layout), the two sub-configs beside it, a partial rotary factor."""
    text, vision, audio, factor = drawn
    config = {**text, "model_type": "phi4_multimodal", "vision_config": vision, "audio_config": audio}
    if factor is not None:
        config["partial_rotary_factor"] = factor
    return config


CONFIGS_PH4 = {
    "phi4_multimodal": st.tuples(_set("phi3"), phi4_vision(), phi4_audio(),
                                 st.one_of(st.none(), st.sampled_from([0.5, 0.75, 1.0]))).map(_phi4_multimodal),
}
