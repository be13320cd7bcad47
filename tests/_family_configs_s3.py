"""Hypothesis strategies: random small configs for the whole multimodal family of set S3 (issue #16), Step-3.7.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import whole
from hypothesis import strategies as st

booleans = st.booleans()
FULL, SLIDING = "full_attention", "sliding_attention"


@st.composite
def step3p5_text(draw) -> dict:
    """Step3p7TextConfig: KV heads dividing the heads (and the sliding layers' own), a head_dim, the attention and
    MLP patterns given as lists (sometimes padded with the MTP layers' entries the class trims) or by the legacy
    moe_layers_enum and attention_other_setting, a window or none, the rotary's share per layer."""
    layers, mtp = draw(st.integers(1, 4)), draw(st.sampled_from([0, 0, 1, 2]))
    kv = draw(st.integers(1, 2))
    text = {"vocab_size": draw(st.integers(2, 40)), "hidden_size": draw(st.integers(1, 24)),  # pad_token_id 1
            "intermediate_size": draw(st.integers(1, 24)), "num_hidden_layers": layers,
            "num_attention_heads": kv * draw(st.integers(1, 3)), "num_key_value_heads": kv,
            "head_dim": 2 * draw(st.integers(1, 4)), "moe_intermediate_size": draw(st.integers(1, 12)),
            "n_routed_experts": draw(st.integers(1, 4)), "num_experts_per_tok": 1,
            "share_expert_dim": draw(st.integers(1, 12)), "attention_bias": draw(booleans), "mlp_bias": draw(booleans)}
    if mtp:
        text["num_nextn_predict_layers"] = mtp
    span = layers + draw(st.sampled_from([0, mtp]))  # a list may carry the MTP layers' entries
    if draw(booleans):
        text["layer_types"] = draw(st.lists(st.sampled_from([FULL, SLIDING]), min_size=span, max_size=span))
        if draw(booleans):
            text["sliding_window"] = draw(st.integers(1, 64))
    pick = draw(st.integers(0, 2))
    if pick == 1:
        text["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=span, max_size=span))
    elif pick == 2:
        enum = draw(st.lists(st.integers(0, layers + mtp - 1), max_size=layers + mtp))
        text["moe_layers_enum"] = ",".join(map(str, enum)) if draw(booleans) else enum
    heads = kv * draw(st.integers(1, 3))
    pick = draw(st.integers(0, 2))
    if pick == 1:
        text["num_sliding_attention_heads"] = heads
    elif pick == 2:
        text["attention_other_setting"] = {"num_attention_heads": heads, "num_attention_groups": kv}
    if draw(booleans):
        text["partial_rotary_factors"] = draw(st.lists(st.sampled_from([0.5, 1.0]), min_size=span, max_size=span))
    return text


@st.composite
def step3p5_vision(draw) -> dict:
    """Step3p7VisionConfig: heads dividing the width (by SigLIP's names or the legacy width/layers/heads), the
    patch grid (image_size need not be a multiple of patch_size: the table floors it), mlp_ratio (the MLP's width
    is int(hidden_size × mlp_ratio), whatever intermediate_size says)."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    width, depth = heads * 2 * draw(st.integers(1, 4)), draw(st.integers(1, 2))
    vision = {"model_type": "step3p5_vision", "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
              "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
              "mlp_ratio": draw(st.sampled_from([1.0, 1.5, 8960 / 1536, 2.25]))}
    if draw(booleans):
        vision.update(width=width, layers=depth, heads=heads)
    else:
        vision.update(hidden_size=width, num_hidden_layers=depth, num_attention_heads=heads)
    if draw(booleans):
        vision["intermediate_size"] = draw(st.integers(1, 32))  # overwritten by __post_init__
    return vision


CONFIGS_S3 = {
    "step3p7": whole("step3p7", "step3p5", step3p5_text(), step3p5_vision(), projector_bias=booleans),
}
