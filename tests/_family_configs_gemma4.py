"""Hypothesis strategies: random small configs for Gemma 4's whole model (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
# gemma4_text's strategy (tests/_family_configs.py, which imports this module: looked up on first draw)
_gemma4_text = st.deferred(lambda: __import__("_family_configs").CONFIGS["gemma4_text"])


@st.composite
def gemma4_vision(draw) -> dict:
    """Gemma4VisionConfig: widths, heads and their own head_dim, depth (none too), patch and position-table sizes,
    clipped linears (their buffers), standardization (std_bias, std_scale), and sometimes output_proj_dims, which
    embed_vision reads where the config has it."""
    heads = draw(st.integers(1, 4))
    config = {"hidden_size": draw(st.integers(1, 16)), "intermediate_size": draw(st.integers(1, 24)),
              "num_hidden_layers": draw(st.integers(0, 2)), "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3, 4) if heads % k == 0])),
              "head_dim": draw(st.sampled_from([2, 4, 6, 8])), "patch_size": draw(st.integers(1, 4)),
              "position_embedding_size": draw(st.integers(1, 32)), "use_clipped_linears": draw(booleans),
              "standardize": draw(booleans)}
    if draw(booleans):
        config["model_type"] = "gemma4_vision"
    if draw(st.integers(0, 4)) == 0:
        config["output_proj_dims"] = draw(st.integers(1, 16))
    return config


@st.composite
def gemma4_audio(draw) -> dict:
    """Gemma4AudioConfig: width (a multiple of its heads), depth, the subsampling's two channel counts (the first
    below 4 too: its input projection is then 0 wide), the depthwise kernel, the output width, clipped linears."""
    heads = draw(st.integers(1, 4))
    config = {"hidden_size": heads * draw(st.integers(1, 6)), "num_attention_heads": heads,
              "num_hidden_layers": draw(st.integers(0, 2)),
              "subsampling_conv_channels": [draw(st.integers(1, 12)), draw(st.integers(1, 8))],
              "conv_kernel_size": draw(st.integers(1, 5)), "output_proj_dims": draw(st.integers(1, 16)),
              "use_clipped_linears": draw(booleans)}
    if draw(booleans):
        config["model_type"] = "gemma4_audio"
    return config


@st.composite
def gemma4(draw) -> dict:
    """Gemma4Config: gemma4_text's decoder as text_config, a vision and an audio tower each given or not (null or
    absent: none), the whole config's tying given or not."""
    config = {"model_type": "gemma4", "text_config": {**draw(_gemma4_text), "model_type": "gemma4_text"}}
    for key, tower in (("vision_config", gemma4_vision()), ("audio_config", gemma4_audio())):
        given = draw(st.sampled_from(["absent", "null", "given", "given"]))
        if given != "absent":
            config[key] = None if given == "null" else draw(tower)
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_GEMMA4 = {"gemma4": gemma4()}
