"""Hypothesis strategies: random small configs for the whole multimodal families of set VL (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_l import _set, got_ocr2_vision, whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def _large4_layers(draw, config: dict) -> dict:
    """GLM-5's draw (its model_type dropped for the whole's text type; DSA latent attention, experts, dense layers, indexer_types by any spelling) as
    MistralLarge4TextConfig spells it: no q LoRA, NoPE layers by no_rope_layers (a list at least as long as the
    layers) or no_rope_layer_interval, layers reading an earlier layer's latent (kv_source_layers), the experts
    sometimes by num_experts (its BC key)."""
    config = {key: value for key, value in config.items() if key not in ("q_lora_rank", "model_type")}
    # what runs (the slow checks' forward pass), neither changing a tensor: the latent expanded to every head
    # (repeat_kv reads num_attention_heads // num_key_value_heads), two experts a group at least (the router's topk(2))
    config["num_key_value_heads"] = config["num_attention_heads"]
    config["n_routed_experts"] = max(config["n_routed_experts"], 2)
    layers = config["num_hidden_layers"]
    how, interval = draw(st.sampled_from(["default", "interval", "list"])), 4
    if how == "interval":
        config["no_rope_layer_interval"] = interval = draw(st.integers(1, 4))
    elif how == "list":
        config["no_rope_layers"] = draw(st.lists(st.sampled_from([0, 1]), min_size=layers, max_size=layers + 2))
    rope = config.get("no_rope_layers") or [int((i + 1) % interval != 0) for i in range(layers)]
    if draw(booleans):  # an earlier owner that rotates as the layer does (the forward pass reads its "rope"/"nope")
        sources: list[int] = []
        for layer in range(layers):
            owners = [i for i in range(layer) if sources[i] == i and rope[i] == rope[layer]]
            sources.append(draw(st.sampled_from([layer, *owners])))
        config["kv_source_layers"] = sources
    if draw(booleans):
        config["num_experts"] = config.pop("n_routed_experts")
    return config


MISTRAL_LARGE4_TEXT = _set("glm_moe_dsa").flatmap(_large4_layers)


@st.composite
def _heads(draw) -> dict:
    """Query heads, KV heads dividing them and a head width of its own (Molmo2VisionAttention's)."""
    kv = draw(st.integers(1, 3))
    return {"num_attention_heads": kv * draw(st.integers(1, 2)), "num_key_value_heads": kv,
            "head_dim": draw(st.integers(1, 8))}


@st.composite
def molmo2_vision(draw) -> dict:
    """Molmo2VisionConfig: the positions by image_size ([height, width]) or num_position_embeddings, sometimes in
    the remote code's spellings (image_default_input_size, image_patch_size, image_num_pos)."""
    patch = draw(st.integers(1, 4))
    config = {"model_type": "molmo2_vision", **draw(_heads()), "hidden_size": draw(st.integers(1, 24)),
              "intermediate_size": draw(st.integers(1, 32)), "num_hidden_layers": draw(st.integers(1, 3)),
              "num_channels": draw(st.integers(1, 3)), "attention_bias": draw(booleans)}
    legacy = draw(booleans)
    config["image_patch_size" if legacy else "patch_size"] = patch
    how = draw(st.sampled_from(["image", "positions", "default"]))
    if how == "image":
        sides = [patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)) for _ in range(2)]
        config["image_default_input_size" if legacy else "image_size"] = sides
    elif how == "positions":
        config["image_num_pos" if legacy else "num_position_embeddings"] = draw(st.integers(1, 40))
    return config


@st.composite
def molmo2_adapter(draw, depth: int) -> dict:
    """Molmo2AdapterConfig: the tower layers it reads (any of -depth..depth - 1, as vit_layers sometimes), its own
    attention's and gated MLP's sizes, the decoder's width it projects to."""
    layers = draw(st.lists(st.integers(-depth, depth - 1), min_size=1, max_size=3))
    return {"vit_layers" if draw(booleans) else "vision_feature_layer": layers, **draw(_heads()),
            "hidden_size": draw(st.integers(1, 24)), "intermediate_size": draw(st.integers(1, 32)),
            "text_hidden_size": draw(st.integers(1, 32)), "attention_bias": draw(booleans), "mlp_bias": draw(booleans)}


def _molmo2_text(config: dict) -> st.SearchStrategy:
    """Qwen 3's draw (without its window keys) as Molmo2TextConfig spells it: the extra token rows, the q/k norms'
    layout, norm_after, its bias by the attribute_map's qkv_bias sometimes."""
    config = {key: value for key, value in config.items()
              if key not in ("use_sliding_window", "sliding_window", "max_window_layers", "model_type")}
    return st.tuples(st.integers(0, 9), st.sampled_from(["qwen3", "olmo"]), booleans, booleans).map(
        lambda drawn: {**{key: value for key, value in config.items() if not (drawn[3] and key == "attention_bias")},
                       "additional_vocab_size": drawn[0], "qk_norm_type": drawn[1], "norm_after": drawn[2],
                       **({"qkv_bias": config.get("attention_bias", False)} if drawn[3] else {})})


def _molmo2_remote(config: dict) -> st.SearchStrategy:
    """Molmo2Config as drawn, or in the remote code's layout (allenai's releases): vit_config in vision_config's
    place (model_type "molmo2"), the adapter's layers any whole numbers (Molmo2Config takes them modulo the tower's
    depth, then cuts the tower to the deepest read)."""
    vision = config["vision_config"]
    remote = {**{key: value for key, value in config.items() if key != "vision_config"},
              "vit_config": {**vision, "model_type": "molmo2"}}
    layers = st.lists(st.integers(-40, 40), min_size=1, max_size=3)
    return st.one_of(st.just(config), layers.map(lambda listed: {
        **remote, "adapter_config": {**config["adapter_config"], "vision_feature_layer": listed}}))


MOLMO2 = whole("molmo2", "molmo2_text", _set("qwen3").flatmap(_molmo2_text), molmo2_vision()).flatmap(
    lambda config: molmo2_adapter(config["vision_config"]["num_hidden_layers"]).map(
        lambda adapter: {**config, "adapter_config": adapter})).flatmap(_molmo2_remote)

def _unlimited_ocr_text(config: dict) -> st.SearchStrategy:
    """DeepSeek-V3's draw without latent attention (UnlimitedOcrTextConfig: Llama's attention, head_dim hidden_size
    // heads), its dense layers by mlp_layer_types or first_k_dense_replace, mlp_bias, its experts sometimes by the
    attribute_map's num_experts."""
    config = {key: value for key, value in config.items() if key not in (
        "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "first_k_dense_replace",
        "model_type")}
    layers = config["num_hidden_layers"]
    dense = st.one_of(st.fixed_dictionaries({"first_k_dense_replace": st.integers(0, layers)}),
                      st.fixed_dictionaries({"mlp_layer_types": st.lists(st.sampled_from(["dense", "sparse"]),
                                                                         min_size=layers, max_size=layers)}),
                      st.just({}))
    return st.tuples(dense, booleans, booleans).map(lambda drawn: {
        **{key: value for key, value in config.items() if not (drawn[2] and key == "n_routed_experts")},
        **drawn[0], "mlp_bias": drawn[1], **({"num_experts": config["n_routed_experts"]} if drawn[2] else {})})


@st.composite
def unlimited_ocr_vision(draw) -> dict:
    """UnlimitedOcrVisionConfig: GOT-OCR 2.0's SAM draw with its downsampling convs (two or more channel counts: the
    projector reads the last), a small CLIP encoder without patches of its own."""
    sam = {key: value for key, value in draw(got_ocr2_vision()).items() if key != "model_type"}
    sam["downsample_channels"] = draw(st.lists(st.integers(1, 16), min_size=2, max_size=3))
    encoder = {key: value for key, value in draw(vit("unlimited_ocr_vision_encoder")).items() if key != "model_type"}
    return {"model_type": "unlimited_ocr_vision", "sam_config": sam, "encoder_config": encoder}


CONFIGS_VL: dict[str, st.SearchStrategy] = {
    "mistral_large4": whole(
        "mistral_large4", "mistral_large4_text", MISTRAL_LARGE4_TEXT, vit("pixtral", step=2),
        spatial_merge_size=st.integers(1, 3),
        vision_feature_layer=st.one_of(st.integers(-2, -1), st.lists(st.integers(-3, -1), min_size=1, max_size=3)),
        multimodal_projector_bias=booleans),
    "molmo2": MOLMO2,
    # the remote code's language_config sometimes (UnlimitedOcrConfig reads it where text_config is absent)
    "unlimited_ocr": st.tuples(whole("unlimited_ocr", "unlimited_ocr_text",
                                     _set("deepseek_v3").flatmap(_unlimited_ocr_text), unlimited_ocr_vision()),
                               booleans).map(lambda drawn: drawn[0] if drawn[1] else {
                                   **{key: value for key, value in drawn[0].items() if key != "text_config"},
                                   "language_config": drawn[0]["text_config"]}),
}
