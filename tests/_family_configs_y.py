"""Hypothesis strategies: random small configs for the whole multimodal families of set Y (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_l import _set, flattened, got_ocr2_vision, whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def ovis2_vision(draw) -> dict:
    """Ovis2VisionConfig: heads dividing the width, an image of whole and part patches (the grid floors), both
    bias switches, the visual vocabulary above its indicator tokens, the hidden_stride fold."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    indicators = draw(st.integers(0, 5))
    return {"model_type": "ovis2_vision", "hidden_size": heads * draw(st.integers(1, 6)),
            "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(1, 2)),
            "intermediate_size": draw(st.integers(1, 32)), "num_channels": draw(st.integers(1, 3)),
            "patch_size": patch, "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
            "qkv_bias": draw(booleans), "mlp_bias": draw(booleans), "hidden_stride": draw(st.integers(1, 3)),
            "num_visual_indicator_tokens": indicators, "vocab_size": indicators + draw(st.integers(1, 40))}


def _ovis2_head(drawn: tuple[dict, int, int]) -> dict:
    """The whole config's hidden_size and vocab_size (the visual table's width, an untied head's shape): drawn
    freely where the head is tied, the decoder's where it is not (paramledger refuses the rest)."""
    config, hidden, vocab = drawn
    if config.get("tie_word_embeddings", True) is False:
        text = config["text_config"]
        hidden, vocab = text.get("hidden_size", 4096), text.get("vocab_size", 151936)
    return {**config, "hidden_size": hidden, "vocab_size": vocab}


@st.composite
def granite_docling_vision(draw) -> dict:
    """GraniteDoclingVisionConfig: a small ViT, the coarse scale (at least 2 where the fine route is built), the
    DeepStack taps (null: three), out_hidden_size set to the decoder's width by ``_granite_docling``."""
    config = draw(vit("granite_docling_vision"))
    fine = draw(booleans)
    taps = draw(st.one_of(st.none(), st.lists(st.integers(0, 2), max_size=3)))
    return {**config, "use_fine_route": fine, "scale_factor": draw(st.integers(2 if fine else 1, 4)),
            **({} if taps is None and draw(booleans) else {"deepstack_visual_indexes": taps})}


def _granite_docling(config: dict) -> dict:
    """The connector's width is the decoder's (GraniteDoclingConfig checks it); a router only with the fine route."""
    text, vision = config["text_config"], config["vision_config"]
    config = {**config, "text_config": {**text, "model_type": "granite_docling_text"},
              "vision_config": {**vision, "out_hidden_size": text["hidden_size"]}}
    if not vision["use_fine_route"]:
        config.pop("density_router_hidden_size", None)
    return config


def _sam(vision: dict, ratio: float | None) -> dict:
    """SamVisionConfig: GOT-OCR 2's tower keys, at least one global layer (DeepseekVLHybridModel reads the first);
    ``ratio``: mlp_dim left to mlp_ratio (SamVisionConfig.__post_init__)."""
    config = {**vision, "model_type": "sam_vision_model", "global_attn_indexes": vision["global_attn_indexes"] or [0]}
    if ratio is not None:
        del config["mlp_dim"]
        config["mlp_ratio"] = ratio
    return config


def _mistral4(drawn: tuple[dict, bool, bool]) -> dict:
    """DeepSeek-V3's draw as Mistral4Config spells it: its experts sometimes by the attribute_map's
    num_local_experts, rope_interleave either way."""
    config, local, interleave = drawn
    config = {**config, "model_type": "mistral4", "rope_interleave": interleave}
    if local:
        config["num_local_experts"] = config.pop("n_routed_experts")
    return config


@st.composite
def hunyuan_vl_vision(draw) -> dict:
    """HunYuanVLVisionConfig: heads by either spelling (attention_heads, its attribute_map), a width they need not
    divide (each head is hidden_size // heads wide), the position grid's side max_image_size // patch_size."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    return {"model_type": "hunyuan_vl_vision", "hidden_size": heads * draw(st.integers(1, 5)) + draw(st.integers(0, 2)),
            "attention_heads" if draw(booleans) else "num_attention_heads": heads,
            "num_hidden_layers": draw(st.integers(1, 2)), "intermediate_size": draw(st.integers(1, 32)),
            "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
            "max_image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
            "spatial_merge_size": draw(st.integers(1, 3))}


def _hunyuan_vl(drawn: tuple[dict, bool, bool]) -> dict:
    """HunYuanVLTextConfig's legacy head_dim spelling (attention_head_dim) or its own; nested or flat."""
    config, legacy, flat = drawn
    text = {**config["text_config"], "model_type": "hunyuan_vl_text"}
    if legacy:
        text["attention_head_dim"] = text.pop("head_dim")
    config = {**config, "text_config": text}
    return flattened(config) if flat else config


CONFIGS_Y: dict[str, st.SearchStrategy] = {
    "ovis2": st.tuples(whole("ovis2", "qwen2", _set("qwen2"), ovis2_vision()), st.integers(1, 24),
                       st.integers(4, 300)).map(_ovis2_head),
    "deepseek_vl_hybrid": st.tuples(
        whole("deepseek_vl_hybrid", "llama", _set("llama"), st.deferred(lambda: __import__("_family_configs").SIGLIP)),
        got_ocr2_vision(), st.one_of(st.none(), st.sampled_from([1.0, 2.5, 4.0]))).map(
        lambda drawn: {**drawn[0], "high_res_vision_config": _sam(drawn[1], drawn[2])}),
    "mistral4": st.tuples(_set("deepseek_v3"), booleans, booleans).map(_mistral4),
    "hunyuan_vl": st.tuples(whole("hunyuan_vl", "hunyuan_vl_text", _set("hunyuan_v1_dense"), hunyuan_vl_vision()),
                            booleans, booleans).map(_hunyuan_vl),
    # the sine-cosine table wants a width that is a multiple of 4
    "granite_docling": whole("granite_docling", "granite_docling_text",
                             _set("granite").filter(lambda text: text["hidden_size"] % 4 == 0),
                             granite_docling_vision(),
                             density_router_hidden_size=st.one_of(st.none(), st.integers(1, 8))).map(_granite_docling),
}
