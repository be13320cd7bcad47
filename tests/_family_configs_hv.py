"""Hypothesis strategies: random small configs for HY-V4-VL (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import _set, whole
from _family_configs_y import hunyuan_vl_vision
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def hy_v4_vl_vision(draw) -> dict:
    """HYV4VLVisionConfig: HunYuan-VL's tower keys, a head_dim of its own or none (HYV4VLVisionAttention's getattr
    default: hidden_size // heads), out_hidden_size set by ``_hy_v4_vl`` or drawn freely (transformers builds a
    merger of any width)."""
    config = {**draw(hunyuan_vl_vision()), "model_type": "hy_v4_vl_vision"}
    if draw(booleans):
        config["head_dim"] = draw(st.integers(1, 6))
    if draw(booleans):
        config["out_hidden_size"] = draw(st.integers(1, 24))
    return config


def _hy_v4_vl(drawn: tuple[dict, list[int]]) -> dict:
    """The decoder's rope_parameters carry an mrope_section summing to qk_rope_head_dim // 2
    (HYV4VLTextConfig.validate_architecture); the merger's width the decoder's unless drawn."""
    config, split = drawn
    text = dict(config["text_config"])
    half = text["qk_rope_head_dim"] // 2
    first = min(split[0], half)
    second = min(split[1], half - first)
    text["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0,
                               "mrope_section": [first, second, half - first - second]}
    vision = {"out_hidden_size": text["hidden_size"], **config["vision_config"]}
    return {**config, "text_config": text, "vision_config": vision}


CONFIGS_HV: dict[str, st.SearchStrategy] = {
    "hy_v4_vl": st.tuples(whole("hy_v4_vl", "hy_v4_vl_text", _set("hy_v4"), hy_v4_vl_vision()),
                          st.lists(st.integers(0, 8), min_size=2, max_size=2)).map(_hy_v4_vl),
}
