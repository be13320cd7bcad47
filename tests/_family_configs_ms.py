"""Hypothesis strategies: random small configs for Muse Spark (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_mg import muse_glimmer_text, muse_glimmer_vision
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def muse_spark_text(draw) -> dict:
    """MuseSparkTextConfig: Muse Glimmer's keys with hidden_act, the experts (their count, width, latent width) and
    mlp_layer_types given (dense or sparse per layer) or left to the class (all sparse)."""
    config = draw(muse_glimmer_text())
    del config["hidden_activation"]
    config.update({"model_type": "muse_spark_text", "hidden_act": "silu",
                   "num_local_experts": draw(st.integers(1, 6)), "num_experts_per_tok": 1,
                   "moe_intermediate_size": draw(st.integers(1, 24)), "moe_hidden_size": draw(st.integers(1, 24))})
    if draw(booleans):
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]),
                                                  min_size=config["num_hidden_layers"],
                                                  max_size=config["num_hidden_layers"]))
    return config


@st.composite
def muse_spark_audio(draw, out_hidden_size: int) -> dict:
    """MuseSparkAudioConfig: one patch size, width and depth per layer (validate_architecture), the MLP ratio, the
    depthwise kernel; out_hidden_size is the decoder's width (MuseSparkConfig.validate_architecture)."""
    layers = draw(st.integers(1, 3))
    sizes = st.lists(st.integers(1, 6), min_size=layers, max_size=layers)
    return {"model_type": "muse_spark_audio", "num_hidden_layers": layers, "patch_sizes": draw(sizes),
            "hidden_sizes": draw(sizes), "depths": draw(st.lists(st.integers(0, 2), min_size=layers,
                                                                 max_size=layers)),
            "mlp_ratio": draw(st.sampled_from([1.0, 1.5, 2.0, 4.0])), "conv_kernel_size": draw(st.integers(1, 7)),
            "out_hidden_size": out_hidden_size}


@st.composite
def muse_spark(draw) -> dict:
    text = draw(muse_spark_text())
    vision = {**draw(muse_glimmer_vision()), "model_type": "muse_spark_vision"}
    config = {"model_type": "muse_spark", "text_config": text, "vision_config": vision,
              "audio_config": draw(muse_spark_audio(text["hidden_size"])),
              "out_hidden_size": draw(st.integers(1, 24)), "projector_hidden_size": draw(st.integers(1, 24))}
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_MS: dict[str, st.SearchStrategy] = {"muse_spark": muse_spark()}
