"""Hypothesis strategies: random small configs for the whole multimodal families of set E (issue #16).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style: see its
siglip() for a vision_config) and is typed here already (model_type set).  A whole model draws its vision_config
(CLIP or SigLIP, whichever the class takes), its text_config (each decoder type its releases use) and every
top-level key that changes the count; sizes stay tiny."""

from __future__ import annotations

from hypothesis import strategies as st
from strategies import small_decoder

booleans = st.booleans()
window = st.one_of(st.none(), st.integers(1, 64))


def _with(base: st.SearchStrategy, model_type: str, drop: tuple[str, ...] = (), **extra: st.SearchStrategy):
    return st.tuples(base, st.fixed_dictionaries(extra)).map(
        lambda pair: {"model_type": model_type, **{k: v for k, v in pair[0].items() if k not in drop}, **pair[1]})


TEXT = {
    "llama": _with(small_decoder(48), "llama", attention_bias=booleans, mlp_bias=booleans),
    "mistral": _with(small_decoder(48), "mistral", sliding_window=window),
    "qwen2": _with(small_decoder(48), "qwen2", ("head_dim",), use_sliding_window=booleans, sliding_window=st.integers(1, 64),
                   max_window_layers=st.integers(0, 3)),
    # Cohere2Config sets head_dim itself (hidden_size // heads)
    "cohere2": _with(small_decoder(48), "cohere2", ("head_dim",), attention_bias=booleans, sliding_window=window,
                     sliding_window_pattern=st.integers(1, 4)),
    "cohere": _with(small_decoder(48), "cohere", attention_bias=booleans, use_qk_norm=booleans),
    "gemma": _with(small_decoder(48), "gemma", attention_bias=booleans),
    "gemma2": _with(small_decoder(48), "gemma2", attention_bias=booleans, sliding_window=window),
    "granite": _with(small_decoder(48), "granite", ("head_dim",), attention_bias=booleans, mlp_bias=booleans,
                     embedding_multiplier=st.floats(1, 12), residual_multiplier=st.floats(0.1, 1)),
}


@st.composite
def _vit(draw, model_type: str) -> dict:
    """A small CLIP or SigLIP vision config: heads dividing the width, an image a whole number of patches
    (SigLIP: the pooling head or not)."""
    heads, patch = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    config = {"model_type": model_type, "hidden_size": heads * draw(st.integers(1, 8)),
              "num_attention_heads": heads, "intermediate_size": draw(st.integers(1, 48)),
              "num_hidden_layers": draw(st.integers(1, 3)), "num_channels": draw(st.integers(1, 3)),
              "patch_size": patch, "image_size": patch * draw(st.integers(1, 5))}
    if model_type == "siglip_vision_model":
        config["vision_use_head"] = draw(booleans)
    return config


CLIP, SIGLIP = _vit("clip_vision_model"), _vit("siglip_vision_model")
TOWERS = st.one_of(CLIP, SIGLIP)
FEATURE_LAYER = st.one_of(st.integers(-3, -1), st.lists(st.integers(-3, -1), min_size=1, max_size=3))


def _whole(model_type: str, texts: tuple[str, ...], vision: st.SearchStrategy, **extra: st.SearchStrategy):
    """A whole model: one of ``texts`` as its text_config, ``vision`` its vision_config, ``extra`` at the top."""
    return st.fixed_dictionaries({"text_config": st.one_of(*(TEXT[t] for t in texts)), "vision_config": vision,
                                  "tie_word_embeddings": booleans, **extra}).map(
        lambda config: {"model_type": model_type, **config})


LLAVA_TEXT = ("llama", "mistral", "qwen2")
CONFIGS_E: dict[str, st.SearchStrategy] = {
    "llava": _whole("llava", LLAVA_TEXT, TOWERS, vision_feature_layer=FEATURE_LAYER,
                    multimodal_projector_bias=booleans),
    "llava_next": _whole("llava_next", (*LLAVA_TEXT, "granite"), TOWERS, vision_feature_layer=FEATURE_LAYER,
                         multimodal_projector_bias=booleans),
    "llava_next_video": _whole("llava_next_video", LLAVA_TEXT, TOWERS, vision_feature_layer=FEATURE_LAYER,
                               multimodal_projector_bias=booleans,
                               spatial_pool_mode=st.sampled_from(["average", "max", "conv"]),
                               spatial_pool_stride=st.integers(1, 3), spatial_pool_out_channels=st.integers(1, 12)),
    "llava_onevision": _whole("llava_onevision", LLAVA_TEXT, TOWERS, vision_feature_layer=FEATURE_LAYER,
                              multimodal_projector_bias=booleans),
    # VipLlavaConfig's attribute_map: its releases spell vision_feature_layers, the class vision_feature_layer
    "cohere2_vision": _whole("cohere2_vision", ("cohere2", "cohere"), SIGLIP, downsample_factor=st.integers(1, 3),
                             alignment_intermediate_size=st.integers(2, 40)),
    "vipllava": st.tuples(_whole("vipllava", LLAVA_TEXT, CLIP, vision_feature_layers=FEATURE_LAYER), booleans).map(
        lambda drawn: {("vision_feature_layer" if drawn[1] and k == "vision_feature_layers" else k): v
                       for k, v in drawn[0].items()}),
}
AYA_VISION = _whole("aya_vision", ("cohere2", "cohere"), SIGLIP, downsample_factor=st.integers(1, 3),
                    alignment_intermediate_size=st.integers(2, 40))
# PaliGemma: SigLIP, a Gemma decoder (Gemma 2, PaliGemma 2's, once the decoder's Naming follows text_config:
# docs/notes/multimodal-e.md), projection_dim (the projector's width) and the whole model's tying.
CONFIGS_E["paligemma"] = _whole("paligemma", ("gemma", "gemma2"), SIGLIP, projection_dim=st.integers(1, 40))
# Video-LLaVA's: CLIP, LLaVA's projector, two towers.
VIDEO_LLAVA = _whole("video_llava", LLAVA_TEXT, CLIP, vision_feature_layer=FEATURE_LAYER,
                     multimodal_projector_bias=booleans)
CONFIGS_E["aya_vision"] = AYA_VISION
CONFIGS_E["video_llava"] = VIDEO_LLAVA
