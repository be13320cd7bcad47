"""Hypothesis strategies: random small configs for Granite 4 Vision (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_e import TEXT
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def _tower(draw) -> dict:
    """A small CLIP or SigLIP vision_config at least 64 wide (the Q-Former's heads are hidden_size // 64, and must
    divide it), its heads dividing the width, an image a whole number of patches."""
    model_type = draw(st.sampled_from(["clip_vision_model", "siglip_vision_model"]))
    groups = draw(st.integers(1, 3))
    heads = draw(st.sampled_from([1, 2, 4]))
    patch = draw(st.integers(1, 6))
    config = {"model_type": model_type, "hidden_size": 64 * groups * heads, "num_attention_heads": heads,
              "intermediate_size": draw(st.integers(1, 48)), "num_hidden_layers": draw(st.integers(1, 3)),
              "patch_size": patch, "image_size": patch * draw(st.integers(1, 5))}
    if model_type == "siglip_vision_model":
        config["vision_use_head"] = draw(booleans)
    return config


@st.composite
def granite4_vision(draw) -> dict:
    """Granite4VisionConfig: a Granite text_config (as the releases spell it, or the class's own type), a tower,
    the window sides, one to three deepstack pairs and the Q-Former's depth, width and cross-attention period."""
    text = dict(draw(TEXT["granite"]))
    if draw(booleans):
        text["model_type"] = "granite4_vision_text"
    query, window = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    pairs = draw(st.lists(st.tuples(st.integers(-2, 1), st.integers(0, 2)).map(list), min_size=1, max_size=3))
    config = {"model_type": "granite4_vision", "text_config": text, "vision_config": draw(_tower()),
              "downsample_rate": f"{query}/{window}", "deepstack_layer_map": pairs}
    if draw(booleans):
        config["qformer_config"] = {"num_hidden_layers": draw(st.integers(0, 2)),
                                    "intermediate_size": draw(st.integers(1, 32)),
                                    "cross_attention_frequency": draw(st.integers(1, 2))}
    tie = draw(st.one_of(st.none(), booleans))
    return config if tie is None else {**config, "tie_word_embeddings": tie}


CONFIGS_UNB: dict[str, st.SearchStrategy] = {"granite4_vision": granite4_vision()}
