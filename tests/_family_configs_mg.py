"""Hypothesis strategies: random small configs for Muse Glimmer (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def muse_glimmer_text(draw) -> dict:
    """MuseGlimmerTextConfig: Gemma 2's keys (heads dividing the width: validate_architecture), a head_dim of its own
    or none, layer_types given or left to the class (every fourth from the last full), a window or none."""
    core = __import__("_family_configs").core
    config = {**draw(core()), "pad_token_id": 0, "attention_bias": draw(booleans),
              "hidden_activation": "silu", "sliding_window": draw(st.one_of(st.none(), st.integers(2, 64)))}
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(["full_attention", "sliding_attention"]),
                                              min_size=config["num_hidden_layers"],
                                              max_size=config["num_hidden_layers"]))
    return config


@st.composite
def muse_glimmer_vision(draw) -> dict:
    """MuseGlimmerVisionConfig: a width, heads (the attention is hidden × hidden whatever they are; the rotary reads
    head_dim or hidden // heads), the patch, its temporal depth and the position grid."""
    heads = draw(st.integers(1, 3))
    config = {"model_type": "muse_glimmer_vision", "hidden_size": heads * draw(st.integers(1, 6)),
              "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(0, 2)),
              "intermediate_size": draw(st.integers(1, 16)), "patch_size": draw(st.integers(1, 3)),
              "patch_temporal": draw(st.integers(1, 2)), "pos_emb_height": draw(st.integers(1, 4)),
              "pos_emb_width": draw(st.integers(1, 4))}
    if draw(booleans):
        config["head_dim"] = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))  # an odd one past 4: validate_rope refuses
    return config


CONFIGS_MG: dict[str, st.SearchStrategy] = {
    "muse_glimmer": whole("muse_glimmer", "muse_glimmer_text", muse_glimmer_text(), muse_glimmer_vision(),
                          out_hidden_size=st.integers(1, 24), projector_hidden_size=st.integers(1, 24)),
}
