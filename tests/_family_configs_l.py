"""Hypothesis strategies: random small configs for the families of set L, typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_g import glm4v_vision, qwen2_5_vl_vision
from hypothesis import strategies as st

booleans = st.booleans()


def _set(name: str) -> st.SearchStrategy:
    """A text strategy of tests/_family_configs.py, drawn when a test runs (that module imports this one)."""
    return st.deferred(lambda: __import__("_family_configs").CONFIGS[name])


def whole(model_type: str, text_type: str, text: st.SearchStrategy, vision: st.SearchStrategy,
          **extra: st.SearchStrategy) -> st.SearchStrategy:
    """The whole config: text_config, vision_config, the whole model's own tying (drawn or left out) and
    ``extra`` keys of the whole config."""
    return st.tuples(text, vision, st.one_of(st.none(), booleans), st.fixed_dictionaries(extra)).map(
        lambda drawn: {"model_type": model_type, "text_config": {"model_type": text_type, **drawn[0]},
                       "vision_config": drawn[1], **drawn[3],
                       **({} if drawn[2] is None else {"tie_word_embeddings": drawn[2]})})


@st.composite
def llama4_vision(draw) -> dict:
    """Llama4VisionConfig: a ViT (heads × a head width), the patch grid (image_size need not be a multiple of
    patch_size: Llama4VisionModel floors it), the adapter's and projector's widths."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    return {"model_type": "llama4_vision_model", "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8])),
            "num_hidden_layers": draw(st.integers(1, 2)), "num_attention_heads": heads,
            "num_channels": draw(st.integers(1, 3)), "intermediate_size": draw(st.integers(1, 32)),
            "patch_size": patch, "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
            "vision_output_dim": draw(st.integers(1, 32)), "projector_input_dim": draw(st.integers(1, 32)),
            "projector_output_dim": draw(st.integers(1, 32))}


@st.composite
def internvl_vision(draw, model_type: str = "internvl_vision") -> dict:
    """InternVLVisionConfig: every switch that adds or drops a tensor, sizes and pairs drawn small."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    image = patch * draw(st.integers(1, 3)) + draw(st.integers(0, patch - 1))
    return {"model_type": model_type, "hidden_size": heads * draw(st.integers(1, 6)),
            "num_hidden_layers": draw(st.integers(1, 2)), "num_attention_heads": heads,
            "intermediate_size": draw(st.integers(1, 32)), "num_channels": draw(st.integers(1, 3)),
            "image_size": draw(st.sampled_from([image, [image, image + patch]])),
            "patch_size": draw(st.sampled_from([patch, [patch, patch]])), "attention_bias": draw(booleans),
            "use_qk_norm": draw(booleans), "norm_type": draw(st.sampled_from(["layer_norm", "rms_norm"])),
            "use_mask_token": draw(booleans), "use_absolute_position_embeddings": draw(booleans),
            "use_mean_pooling": draw(booleans)}


@st.composite
def qwen3_5_vision(draw, model_type: str) -> dict:
    """Qwen3_5VisionConfig: Qwen3-VL's tower without deepstack; depth and heads often by their aliases."""
    heads, depth = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    aliased = draw(booleans)
    return {"model_type": model_type, "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8, 10])),
            "num_hidden_layers" if aliased else "depth": depth, "num_attention_heads" if aliased else "num_heads": heads,
            "in_channels": draw(st.integers(1, 3)), "patch_size": draw(st.integers(1, 4)),
            "temporal_patch_size": draw(st.integers(1, 2)), "spatial_merge_size": draw(st.integers(1, 3)),
            "intermediate_size": draw(st.integers(1, 32)), "out_hidden_size": draw(st.integers(1, 32)),
            "num_position_embeddings": draw(st.integers(1, 5)) ** 2}


def retyped(model_type: str, base: st.SearchStrategy, tie: bool = False) -> st.SearchStrategy:
    """``base``'s whole configs under ``model_type`` (the same classes read them); ``tie``: the whole config's
    tie_word_embeddings drawn anew, or left out."""
    if not tie:
        return base.map(lambda config: {**config, "model_type": model_type})
    return st.tuples(base, st.one_of(st.none(), booleans)).map(lambda drawn: {
        **{key: value for key, value in drawn[0].items() if key != "tie_word_embeddings"}, "model_type": model_type,
        **({} if drawn[1] is None else {"tie_word_embeddings": drawn[1]})})


@st.composite
def exaone4_5_vision(draw) -> dict:
    """Exaone4_5_VisionConfig: Qwen2.5-VL's tower and key-value heads dividing its heads."""
    config = draw(qwen2_5_vl_vision())
    heads = config["num_heads"]
    return {**config, "model_type": "exaone4_5_vision",
            "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3) if heads % k == 0]))}


def flattened(config: dict) -> dict:
    """A whole config without text_config: its decoder's keys at the top level (the releases' layout where the
    config class reads them so: Whole.text_at_top)."""
    text = {key: value for key, value in config["text_config"].items() if key != "model_type"}
    return {**{key: value for key, value in config.items() if key != "text_config"}, **text}


@st.composite
def kimi_k25_vision(draw) -> dict:
    """Kimi_K25VisionConfig: heads dividing an even width (its frame sinusoid), the position grid, the merge."""
    heads = draw(st.integers(1, 3))
    return {"model_type": "kimi_k25_vision", "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8])),
            "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(1, 2)),
            "intermediate_size": draw(st.integers(1, 32)), "patch_size": draw(st.integers(1, 4)),
            "pos_emb_height": draw(st.integers(1, 4)), "pos_emb_width": draw(st.integers(1, 4)),
            "pos_emb_time": draw(st.integers(1, 4)),
            "merge_kernel_size": draw(st.lists(st.integers(1, 3), min_size=2, max_size=2))}


@st.composite
def got_ocr2_vision(draw) -> dict:
    """GotOcr2VisionConfig: SAM's ViT, windowed or global layers, each position switch, the neck's width."""
    heads, patch, layers = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    return {"model_type": "got_ocr2_vision", "hidden_size": heads * draw(st.integers(1, 6)),
            "num_attention_heads": heads, "num_hidden_layers": layers, "mlp_dim": draw(st.integers(1, 32)),
            "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
            "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
            "output_channels": draw(st.integers(1, 16)), "window_size": draw(st.integers(0, 3)),
            "global_attn_indexes": draw(st.lists(st.integers(0, layers), unique=True, max_size=layers)),
            "qkv_bias": draw(booleans), "use_abs_pos": draw(booleans), "use_rel_pos": draw(booleans)}


@st.composite
def cosmos3_edge_text(draw) -> dict:
    """Cosmos3EdgeTextConfig: heads of an even width whose mrope_section (three parts) sums to half of it, the
    ungated MLP's width, both biases, tying (which its model never does)."""
    heads, head_dim = draw(st.sampled_from([1, 2, 4])), draw(st.sampled_from([6, 8, 10]))
    return {"model_type": "cosmos3_edge_text", "vocab_size": draw(st.integers(4, 300)),
            "hidden_size": heads * draw(st.sampled_from([2, 4, 8])), "num_hidden_layers": draw(st.integers(1, 3)),
            "num_attention_heads": heads, "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4)
                                                                                      if heads % k == 0])),
            "head_dim": head_dim, "intermediate_size": draw(st.integers(1, 48)), "attention_bias": draw(booleans),
            "mlp_bias": draw(booleans), "tie_word_embeddings": draw(booleans),
            "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                "mrope_section": [head_dim // 2 - 2, 1, 1]}}


CONFIGS_L: dict[str, st.SearchStrategy] = {
    "llama4": whole("llama4", "llama4_text", _set("llama4_text"), llama4_vision()),
    "internvl": st.sampled_from(["qwen2", "qwen3", "qwen3_moe", "llama"]).flatmap(lambda text: whole(
        "internvl", text, _set(text), internvl_vision(), downsample_ratio=st.sampled_from([0.5, 1.0, 0.25, 0.4]))),
    "shieldgemma2": retyped("shieldgemma2", _set("gemma3"), tie=True),
    "glm46v": retyped("glm46v", _set("glm4v")),
    "glmga": retyped("glmga", _set("glm4v")),
    "lighton_ocr": whole("lighton_ocr", "qwen3", _set("qwen3"), vit("pixtral", step=2),
                         spatial_merge_size=st.integers(1, 3)),
    "deepseek_vl": whole("deepseek_vl", "llama", _set("llama"), st.deferred(
        lambda: __import__("_family_configs").SIGLIP)),
    "qianfan_ocr": whole("qianfan_ocr", "qwen3", _set("qwen3"), internvl_vision("qianfan_ocr_vision"),
                         downsample_ratio=st.sampled_from([0.5, 1.0, 0.25])),
    "aria": whole("aria", "aria_text", _set("aria_text"), vit("idefics3_vision"),
                  projector_patch_to_query_dict=st.dictionaries(st.integers(1, 5000).map(str), st.integers(1, 9),
                                                                min_size=1, max_size=3)),
    "video_llama_3": whole("video_llama_3", "qwen2", _set("qwen2"), vit("video_llama_3_vision", image=False)),
    "exaone4_5": st.sampled_from(["exaone4", "exaone4_5_text"]).flatmap(lambda text: whole(
        "exaone4_5", text, _set("exaone4"), exaone4_5_vision())),
    "glm4v_moe": whole("glm4v_moe", "glm4v_moe_text", _set("glm4_moe"), glm4v_vision().map(
        lambda vision: {**vision, "model_type": "glm4v_moe_vision"})),
    "glm_ocr": whole("glm_ocr", "glm_ocr_text", _set("glm4"),
                     glm4v_vision().map(lambda vision: {**vision, "model_type": "glm_ocr_vision"})),
    "paddleocr_vl": whole("paddleocr_vl", "paddleocr_vl_text", _set("ernie4_5"), vit("paddleocr_vl_vision").flatmap(
        lambda vision: st.integers(1, 3).map(lambda merge: {**vision, "spatial_merge_size": merge}))).flatmap(
        lambda config: st.sampled_from([config, flattened(config)])),
    "kimi_k25": whole("kimi_k25", "deepseek_v3", _set("deepseek_v3"), kimi_k25_vision(),
                      projection_hidden_size=st.integers(1, 32)),
    **{name: whole(name, "qwen3_5_text", _set("qwen3_5_text"), vit(f"{name}_vision").flatmap(
        lambda vision: st.lists(st.integers(1, 3), min_size=2, max_size=2).map(
            lambda kernel: {**vision, "window_kernel_size": kernel})), merger_times=st.integers(1, 3))
       for name in ("minicpmv4_6", "minicpmv4_7")},
    "got_ocr2": whole("got_ocr2", "qwen2", _set("qwen2"), got_ocr2_vision()),
    "pp_chart2table": whole("pp_chart2table", "qwen2", _set("qwen2"), got_ocr2_vision().map(
        lambda vision: {**vision, "model_type": "pp_chart2table_vision"})),
    "cosmos3_edge": whole("cosmos3_edge", "cosmos3_edge_text", cosmos3_edge_text(), vit(
        "cosmos3_edge_vision", image=False).flatmap(lambda vision: st.tuples(st.integers(1, 20), st.integers(1, 3)).map(
            lambda drawn: {**vision, "num_patches": drawn[0], "spatial_merge_size": drawn[1]})),
        projector_hidden_size=st.integers(1, 32)),
    "hyperclovax_vision_v2": whole("hyperclovax_vision_v2", "hyperclovax", _set("hyperclovax"), qwen2_5_vl_vision()),
    "qwen3_5": whole("qwen3_5", "qwen3_5_text", _set("qwen3_5_text"), qwen3_5_vision("qwen3_5_vision")),
    "qwen3_5_moe": whole("qwen3_5_moe", "qwen3_5_moe_text", _set("qwen3_5_moe_text"),
                         qwen3_5_vision("qwen3_5_moe_vision")),
}
