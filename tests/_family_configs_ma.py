"""Hypothesis strategies: random small configs for the whole multimodal families of set MA (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_g import qwen3_vl_vision
from _family_configs_l import _set, whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def lfm3_vl_vision(draw) -> dict:
    """Lfm3VlVisionConfig: heads (and KV heads, often not dividing them) over a width they may not divide, the
    layer types drawn or left to __post_init__, the patch, kernel and merge sizes, sometimes a head_dim (only the
    RoPE's table reads it)."""
    heads, depth = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    vision = {"model_type": "lfm3_vl_vision", "hidden_size": heads * draw(st.integers(1, 6)) + draw(st.integers(0, 1)),
              "intermediate_size": draw(st.integers(1, 32)), "num_hidden_layers": depth, "num_attention_heads": heads,
              "num_key_value_heads": draw(st.integers(1, 4)), "conv_kernel_size": draw(st.integers(1, 4)),
              "in_channels": draw(st.integers(1, 3)), "patch_size": draw(st.integers(1, 3)),
              "temporal_patch_size": draw(st.integers(1, 2)), "spatial_merge_size": draw(st.integers(1, 3))}
    if draw(booleans):
        vision["layer_types"] = draw(st.lists(st.sampled_from(["conv", "full_attention"]), min_size=depth,
                                              max_size=depth))
    if draw(booleans):
        vision["head_dim"] = 2 * draw(st.integers(1, 6))  # validate_rope: even
    return vision


@st.composite
def minimax_m3_vl_vision(draw) -> dict:
    """MiniMaxM3VLVisionConfig: a width heads divide (its attention's ValueError), the Conv3d's channels and patch sizes, the merge the
    projector folds, sometimes a head_dim (only the RoPE's table reads it) or the axial rope_parameters."""
    heads = draw(st.integers(1, 4))
    vision = {"model_type": "minimax_m3_vl_vision",
              "hidden_size": heads * draw(st.integers(1, 8)),
              "intermediate_size": draw(st.integers(1, 32)), "num_hidden_layers": draw(st.integers(1, 3)),
              "num_attention_heads": heads, "num_channels": draw(st.integers(1, 3)),
              "patch_size": draw(st.integers(1, 3)), "temporal_patch_size": draw(st.integers(1, 2)),
              "spatial_merge_size": draw(st.integers(1, 3))}
    if draw(booleans):
        vision["head_dim"] = 2 * draw(st.integers(1, 12))
    if draw(booleans):
        vision["rope_parameters"] = {"rope_type": "axial", "rope_theta": 10000.0}
    return vision


CONFIGS_MA = {
    "minimax_m3_vl": whole("minimax_m3_vl", "minimax_m3_vl_text", _set("minimax_m3_vl_text"), minimax_m3_vl_vision(),
                           projector_hidden_size=st.integers(1, 32)),
    # Qwen3-VL's tower strategy (tests/_family_configs_g.py) under Cohere Compass's vision type, or Qwen3-VL's (the
    # class builds its own tower whatever it says)
    "cohere_compass": whole("cohere_compass", "cohere_compass_text", _set("cohere_compass_text"),
                            st.sampled_from(["cohere_compass_vision", "qwen3_vl_vision"]).flatmap(qwen3_vl_vision)),
    "lfm3_vl": whole("lfm3_vl", "lfm3", _set("lfm3"), lfm3_vl_vision(), projector_hidden_size=st.integers(1, 32),
                     projector_bias=booleans),
    # MiniCPM-V 4.6's strategy (tests/_family_configs_l.py) under MiniCPM-OCR's types
    "minicpm_ocr": whole("minicpm_ocr", "qwen3_5_text", _set("qwen3_5_text"), vit("minicpm_ocr_vision").flatmap(
        lambda vision: st.lists(st.integers(1, 3), min_size=2, max_size=2).map(
            lambda kernel: {**vision, "window_kernel_size": kernel})), merger_times=st.integers(1, 3)),
}
