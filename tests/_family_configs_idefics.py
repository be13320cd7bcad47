"""Hypothesis strategies: random small configs for IDEFICS (1) (issue #16), counted whole as
IdeficsForVisionText2Text builds them.

Each spells the keys the way IdeficsConfig, IdeficsVisionConfig and IdeficsPerceiverConfig do
(tests/_family_configs.py's style): the decoder's keys at the top, the tower's width as embed_dim."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def idefics_vision(draw) -> dict:
    """IdeficsVisionConfig: a CLIP-like tower, its width embed_dim a multiple of its heads."""
    heads = draw(st.integers(1, 3))
    patch = draw(st.integers(1, 8))
    return {"embed_dim": heads * draw(st.integers(1, 6)), "num_attention_heads": heads,
            "intermediate_size": draw(st.integers(1, 24)), "num_hidden_layers": draw(st.integers(1, 2)),
            "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
            "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1))}


@st.composite
def idefics_perceiver(draw) -> dict:
    """IdeficsPerceiverConfig: latents, depth, heads and head width, q/k LayerNorms or not."""
    return {"resampler_n_latents": draw(st.integers(1, 5)), "resampler_depth": draw(st.integers(1, 2)),
            "resampler_n_heads": draw(st.integers(1, 3)), "resampler_head_dim": draw(st.integers(1, 6)),
            "qk_layer_norms_perceiver": draw(booleans)}


@st.composite
def idefics(draw) -> dict:
    """IdeficsConfig: the decoder's keys (MHA, hidden a multiple of the heads, head_dim or not), the decoupled rows,
    the gated cross-attention layers' interval, gates and q/k norms, the resampler or not, tied or not."""
    heads = draw(st.integers(1, 4))
    config = {"model_type": "idefics", "vocab_size": draw(st.integers(8, 64)),
              "additional_vocab_size": draw(st.integers(0, 3)), "hidden_size": heads * draw(st.integers(1, 7)),
              "intermediate_size": draw(st.integers(1, 32)), "num_hidden_layers": draw(st.integers(1, 4)),
              "num_attention_heads": heads, "cross_layer_interval": draw(st.integers(1, 3)),
              "qk_layer_norms": draw(booleans), "alpha_type": draw(st.sampled_from(["float", "vector"])),
              "alpha_initializer": draw(st.sampled_from(["zeros", "ones"])),
              "use_resampler": draw(booleans), "vision_config": draw(idefics_vision()),
              "freeze_text_layers": draw(booleans), "freeze_lm_head": draw(booleans),
              "max_position_embeddings": draw(st.integers(8, 64))}
    if config["alpha_type"] == "vector":  # (a "float" gate drawn from a normal is no model transformers builds)
        config["alpha_initializer"] = draw(st.sampled_from(["zeros", "ones", "normal", "gaussian", "random"]))
    if draw(booleans):  # an attribute IdeficsConfig does not declare: it sizes the rotaries alone (validate_rope
        config["head_dim"] = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))  # refuses an odd one above 4)
    if draw(booleans):
        config["perceiver_config"] = draw(idefics_perceiver())
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_IDEFICS: dict[str, st.SearchStrategy] = {"idefics": idefics()}
