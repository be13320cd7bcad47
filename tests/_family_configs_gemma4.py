"""Hypothesis strategies: random small configs for Gemma 4's and Emu3's whole models (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
# gemma4_text's strategy (tests/_family_configs.py, which imports this module: looked up on first draw)
_gemma4_text = st.deferred(lambda: __import__("_family_configs").CONFIGS["gemma4_text"])


def full_layer_shapes(draw, config: dict, types: list[str], head_dims, kv_heads, styles: list[str],
                      global_head_dim_sometimes: bool) -> None:
    """Gemma 4's full layers' shapes into ``config``: by the class defaults (global_head_dim, always or sometimes
    drawn, and num_global_key_value_heads), given per attention type in per_layer_config, or per_layer_config null;
    ``styles`` weights the three (DiffusionGemma's strategy draws the default twice as often)."""
    style = draw(st.sampled_from(styles))
    if style == "default":
        if not global_head_dim_sometimes or draw(booleans):
            config["global_head_dim"] = draw(head_dims)
        config["num_global_key_value_heads"] = draw(st.one_of(st.none(), kv_heads))
    elif style == "given":
        by_type = {kind: draw(st.fixed_dictionaries({}, optional={"head_dim": head_dims, "num_key_value_heads":
                                                                  kv_heads})) for kind in set(types)}
        config["per_layer_config"] = {str(i): by_type[kind] for i, kind in enumerate(types) if by_type[kind]}
    else:
        config["per_layer_config"] = None


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


# Emu3TextConfig's keys as tests/_family_configs.py drew them for emu3's decoder (its pad_token_id, 151643, does not
# fit a small vocabulary); looked up on first draw (that module imports this one)
_emu3_text = st.deferred(lambda: (lambda m: m.with_keys(m.core(), attention_bias=booleans, mlp_bias=booleans))(
    __import__("_family_configs")))


@st.composite
def emu3_vq(draw) -> dict:
    """Emu3VQVAEConfig: channels that the VQ-VAE's 32 GroupNorm groups divide (base × each multiplier), one to three
    levels, zero to two blocks, attention at some levels (an index past the last too), its width a multiple of its
    heads, the codebook, latent and image channels, double_latent, the temporal factor (log2 of it time convs)."""
    heads = draw(st.integers(1, 3))
    levels = draw(st.integers(1, 3))
    config = {"base_channels": draw(st.sampled_from([32, 64])),
              "channel_multiplier": draw(st.lists(st.integers(1, 2), min_size=levels, max_size=levels)),
              "num_res_blocks": draw(st.integers(0, 2)),
              "attn_resolutions": draw(st.lists(st.integers(0, levels), max_size=2, unique=True)),
              "hidden_size": heads * draw(st.integers(1, 4)), "num_attention_heads": heads,
              "codebook_size": draw(st.integers(1, 64)), "embed_dim": draw(st.integers(1, 4)),
              "latent_channels": draw(st.integers(1, 4)), "in_channels": draw(st.integers(1, 3)),
              "out_channels": draw(st.integers(1, 3)), "double_latent": draw(booleans),
              "temporal_downsample_factor": draw(st.sampled_from([1, 2, 3, 4]))}
    if draw(booleans):
        config["model_type"] = "emu3_vqgan"
    return config


@st.composite
def emu3(draw) -> dict:
    """Emu3Config: the decoder as text_config, the VQ-VAE given or left to the class's defaults (absent or null),
    the vocabulary map Emu3Model reads (it changes no tensor), the whole config's tying given or not."""
    config = {"model_type": "emu3", "text_config": {**draw(_emu3_text), "pad_token_id": 0},
              "vocabulary_map": {"<image>": 1}}
    given = draw(st.sampled_from(["absent", "null", "given", "given"]))
    if given != "absent":
        config["vq_config"] = None if given == "null" else draw(emu3_vq())
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_GEMMA4 = {"gemma4": gemma4(), "emu3": emu3(),
                  "emu3_text_model": _emu3_text.map(lambda text: {**text, "model_type": "emu3_text_model",
                                                                  "pad_token_id": 0})}
