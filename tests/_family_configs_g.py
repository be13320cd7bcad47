"""Hypothesis strategies: random small configs for the whole multimodal families of set G (issue #16).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style: see its
siglip() for a vision_config) and is typed here already (model_type set)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def _decoder(draw, *, head_dim: bool) -> dict:
    """A small text_config: vocab, width (heads × an even head width), depth, heads, KV heads, FFN, tying."""
    heads = draw(st.sampled_from([1, 2, 3, 4]))
    config = {"vocab_size": draw(st.integers(4, 300)), "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8])),
              "num_hidden_layers": draw(st.integers(1, 3)), "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3, 4) if heads % k == 0])),
              "intermediate_size": draw(st.integers(1, 48))}
    if head_dim and draw(booleans):
        config["head_dim"] = draw(st.sampled_from([2, 4, 8]))
    if draw(booleans):  # pre-v5 configs keep it here; Qwen2-VL's and GLM-4.1V's whole model reads it too
        config["tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def _grid(draw) -> dict:
    """What every windowed tower reads: depth, heads dividing an even head width, the 3-D patch, the merge."""
    heads = draw(st.integers(1, 3))
    return {"depth": draw(st.integers(1, 3)), "num_heads": heads, "in_channels": draw(st.integers(1, 3)),
            "patch_size": draw(st.integers(1, 4)), "temporal_patch_size": draw(st.integers(1, 2)),
            "spatial_merge_size": draw(st.integers(1, 3)), "_width": heads * draw(st.sampled_from([2, 4, 6, 8, 10]))}


@st.composite
def qwen2_vl_vision(draw) -> dict:
    """Qwen2VLVisionConfig: embed_dim is the tower's width, hidden_size the merger's output."""
    grid = draw(_grid())
    return {"model_type": "qwen2_vl_vision", "embed_dim": grid.pop("_width"), **grid,
            "hidden_size": draw(st.integers(1, 32)), "mlp_ratio": draw(st.integers(1, 4))}


@st.composite
def qwen2_5_vl_vision(draw) -> dict:
    grid = draw(_grid())
    depth = grid["depth"]
    return {"model_type": "qwen2_5_vl_vision", "hidden_size": grid.pop("_width"), **grid,
            "intermediate_size": draw(st.integers(1, 32)), "out_hidden_size": draw(st.integers(1, 32)),
            "window_size": draw(st.integers(1, 64)),
            "fullatt_block_indexes": draw(st.lists(st.integers(0, depth - 1), unique=True, max_size=depth))}


@st.composite
def qwen3_vl_vision(draw, model_type: str = "qwen3_vl_vision") -> dict:
    grid = draw(_grid())
    depth = grid["depth"]
    return {"model_type": model_type, "hidden_size": grid.pop("_width"), **grid,
            "intermediate_size": draw(st.integers(1, 32)), "out_hidden_size": draw(st.integers(1, 32)),
            "num_position_embeddings": draw(st.integers(1, 5)) ** 2,
            "deepstack_visual_indexes": draw(st.lists(st.integers(0, depth - 1), unique=True, max_size=depth))}


@st.composite
def glm4v_vision(draw) -> dict:
    grid = draw(_grid())
    return {"model_type": "glm4v_vision", "hidden_size": grid.pop("_width"), **grid,
            "attention_bias": draw(booleans), "image_size": grid["patch_size"] * draw(st.integers(1, 4)),
            "out_hidden_size": draw(st.integers(1, 32)), "intermediate_size": draw(st.integers(1, 32))}


@st.composite
def qwen_window(draw, config: dict) -> dict:
    """Qwen2's sliding window keys (Qwen2VLTextConfig: layers from max_window_layers slide)."""
    return {**config, "use_sliding_window": draw(booleans), "sliding_window": draw(st.integers(1, 64)),
            "max_window_layers": draw(st.integers(0, 3))}


@st.composite
def qwen3_moe_text(draw) -> dict:
    config = draw(_decoder(head_dim=True))
    layers, experts = config["num_hidden_layers"], draw(st.integers(1, 6))
    return {**config, "attention_bias": draw(booleans), "num_experts": experts,
            "num_experts_per_tok": draw(st.integers(1, experts)), "moe_intermediate_size": draw(st.integers(1, 32)),
            "decoder_sparse_step": draw(st.integers(1, 3)),
            "mlp_only_layers": draw(st.lists(st.integers(0, layers - 1), unique=True, max_size=layers))}


def whole(model_type: str, text_type: str, text: st.SearchStrategy, vision: st.SearchStrategy) -> st.SearchStrategy:
    """The whole config: text_config, vision_config and the whole model's own tying (drawn or left out)."""
    return st.tuples(text, vision, st.one_of(st.none(), booleans)).map(lambda drawn: {
        "model_type": model_type, "text_config": {"model_type": text_type, **drawn[0]}, "vision_config": drawn[1],
        **({} if drawn[2] is None else {"tie_word_embeddings": drawn[2]})})


QWEN2_TEXT = _decoder(head_dim=False).flatmap(qwen_window)
QWEN3_TEXT = _decoder(head_dim=True).flatmap(lambda config: st.just(config) | st.builds(
    lambda bias: {**config, "attention_bias": bias}, booleans))
CONFIGS_G: dict[str, st.SearchStrategy] = {
    "qwen2_vl": whole("qwen2_vl", "qwen2_vl_text", QWEN2_TEXT, qwen2_vl_vision()),
    "qwen2_5_vl": whole("qwen2_5_vl", "qwen2_5_vl_text", QWEN2_TEXT, qwen2_5_vl_vision()),
    "qwen3_vl": whole("qwen3_vl", "qwen3_vl_text", QWEN3_TEXT, qwen3_vl_vision()),
    "qwen3_vl_moe": whole("qwen3_vl_moe", "qwen3_vl_moe_text", qwen3_moe_text(),
                          qwen3_vl_vision("qwen3_vl_moe_vision")),
    "glm4v": whole("glm4v", "glm4v_text", _decoder(head_dim=False), glm4v_vision()),
    # Qwen3-VL's; a vision_config naming another model_type is read as qwen3_vl_vision (Cosmos3OmniConfig)
    "cosmos3_omni": whole("cosmos3_omni", "qwen3_vl_text", QWEN3_TEXT, st.sampled_from(
        ["qwen3_vl_vision", "qwen3_vl_moe_vision", "cosmos3_omni_vision"]).flatmap(qwen3_vl_vision)),
}
