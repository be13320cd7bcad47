"""Hypothesis strategies: random small configs for Granite 4 Vision (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_e import TEXT
from _family_configs_l import _set, got_ocr2_vision, whole
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


def _deepseek_ocr2_text(config: dict) -> st.SearchStrategy:
    """DeepSeek-V3's draw without latent attention (DeepseekOcr2TextConfig: Llama's attention, head_dim hidden_size //
    heads), mlp_layer_types always given (the class cannot build without it), mlp_bias, the experts sometimes by the
    attribute_map's num_experts, num_experts_per_tok sometimes left to the class (None)."""
    config = {key: value for key, value in config.items() if key not in (
        "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "first_k_dense_replace",
        "model_type")}
    layers = config["num_hidden_layers"]
    kinds = st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers, max_size=layers)
    return st.tuples(kinds, booleans, booleans, booleans).map(lambda drawn: {
        **{key: value for key, value in config.items() if not (drawn[2] and key == "n_routed_experts")
           and not (drawn[3] and key == "num_experts_per_tok")},
        "mlp_layer_types": drawn[0], "mlp_bias": drawn[1],
        **({"num_experts": config["n_routed_experts"]} if drawn[2] else {})})


@st.composite
def deepseek_ocr2_vision(draw) -> dict:
    """DeepseekOcr2VisionConfig: GOT-OCR 2.0's SAM draw (mlp_dim given, or left to mlp_ratio) with two downsampling
    channel counts, and a small Qwen2-style encoder (grouped heads, head_dim sometimes given)."""
    sam = {key: value for key, value in draw(got_ocr2_vision()).items() if key != "model_type"}
    sam["downsample_channels"] = draw(st.lists(st.integers(1, 16), min_size=2, max_size=2))
    if draw(booleans):
        del sam["mlp_dim"]
        sam["mlp_ratio"] = draw(st.sampled_from([1.0, 2.0, 2.5, 4.0]))
    kv = draw(st.integers(1, 2))
    heads = kv * draw(st.integers(1, 2))
    encoder = {"hidden_size": heads * draw(st.integers(1, 4)) * 2, "intermediate_size": draw(st.integers(1, 24)),
               "num_hidden_layers": draw(st.integers(1, 2)), "num_attention_heads": heads}
    if draw(booleans):
        encoder["num_key_value_heads"] = kv
    return {"model_type": "deepseek_ocr2_vision", "sam_config": sam, "encoder_config": encoder}


CONFIGS_UNB: dict[str, st.SearchStrategy] = {
    "granite4_vision": granite4_vision(),
    "deepseek_ocr2": whole("deepseek_ocr2", "deepseek_ocr2_text", _set("deepseek_v3").flatmap(_deepseek_ocr2_text),
                           deepseek_ocr2_vision()),
}
