"""Hypothesis strategies: random small configs for the whole multimodal families of set F (issue #16).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style: see its
siglip() for a vision_config) and is typed here already (model_type set).  Drawn: the vision_config (every size
the tower reads, SigLIP 2's num_patches and pooling head), the text_config (its decoder's own keys), and every
top-level key that changes the count: Mistral 3's spatial_merge_size, vision_feature_layer (a list widens
linear_1) and multimodal_projector_bias, Idefics3's and SmolVLM's scale_factor, Idefics2's perceiver_config,
LFM2-VL's downsample_factor, projector_hidden_size, projector_bias and projector_use_layernorm, and the whole
model's tie_word_embeddings (it, not text_config's, ties the head)."""

from __future__ import annotations

from _hybrid_configs_b import CONFIGS_B
from hypothesis import strategies as st
from strategies import small_decoder

booleans = st.booleans()


@st.composite
def decoder(draw, window: bool = False) -> dict:
    """A small Llama or Mistral text_config (strategies.small_decoder), its window (Mistral) or biases (Llama)."""
    config = draw(small_decoder(64))
    if window:
        config["sliding_window"] = draw(st.one_of(st.none(), st.integers(2, 64)))
    else:
        config.update(attention_bias=draw(booleans), mlp_bias=draw(booleans))
    return config


@st.composite
def vit(draw, model_type: str, image: bool = True, step: int = 1) -> dict:
    """A small ViT vision_config: heads dividing the width (head widths a multiple of ``step``: Pixtral's RoPE
    wants them even), an image at least one patch."""
    heads, patch = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    config = {"model_type": model_type, "hidden_size": heads * step * draw(st.integers(1, 7)),
              "num_attention_heads": heads, "intermediate_size": draw(st.integers(1, 48)),
              "num_hidden_layers": draw(st.integers(1, 3)), "num_channels": draw(st.integers(1, 3)),
              "patch_size": patch}
    if image:
        config["image_size"] = patch * draw(st.integers(1, 5))
    return config


@st.composite
def mistral3(draw) -> dict:
    layers = st.one_of(st.integers(-2, -1), st.lists(st.integers(-3, -1), min_size=1, max_size=3))
    return {"model_type": "mistral3", "text_config": {"model_type": "mistral", **draw(decoder(window=True))},
            "vision_config": draw(vit("pixtral", step=2)), "spatial_merge_size": draw(st.integers(1, 3)),
            "vision_feature_layer": draw(layers), "multimodal_projector_bias": draw(booleans),
            "tie_word_embeddings": draw(booleans)}


@st.composite
def idefics3(draw, model_type: str) -> dict:
    return {"model_type": model_type, "text_config": {"model_type": "llama", **draw(decoder())},
            "vision_config": draw(vit(f"{model_type}_vision")), "scale_factor": draw(st.integers(1, 3)),
            "tie_word_embeddings": draw(booleans)}


@st.composite
def idefics2(draw) -> dict:
    heads = draw(st.integers(1, 4))
    perceiver = {"resampler_n_latents": draw(st.integers(1, 8)), "resampler_depth": draw(st.integers(1, 3)),
                 "resampler_n_heads": heads, "resampler_head_dim": draw(st.integers(1, 8)),
                 "num_key_value_heads": draw(st.integers(1, heads))}
    return {"model_type": "idefics2", "text_config": {"model_type": "mistral", **draw(decoder(window=True))},
            "vision_config": draw(vit(draw(st.sampled_from(["idefics2_vision", "idefics2"])))), "perceiver_config": perceiver,
            "tie_word_embeddings": draw(booleans)}


def _lfm2_runs(text: dict) -> bool:
    """Lfm2MLP's adjusted width is above 0 (tests/_family_configs.py's filter on lfm2, whose config this is)."""
    width = text.get("intermediate_size", text.get("block_ff_dim", 12288))
    if text.get("block_auto_adjust_ff_dim", True):
        step = text.get("block_multiple_of", 256)
        width = step * -(-int(text.get("block_ffn_dim_multiplier", 1.0) * int(2 * width / 3)) // step)
    return width > 0


@st.composite
def lfm2_vl(draw) -> dict:
    vision = {**draw(vit("siglip2_vision_model", image=False)), "num_patches": draw(st.integers(1, 20)),
              "vision_use_head": draw(booleans)}
    return {"model_type": "lfm2_vl", "text_config": draw(CONFIGS_B["lfm2"].filter(_lfm2_runs)),
            "vision_config": vision, "downsample_factor": draw(st.integers(1, 3)),
            "projector_hidden_size": draw(st.integers(1, 32)), "projector_bias": draw(booleans),
            "projector_use_layernorm": draw(booleans), "tie_word_embeddings": draw(booleans),
            **({"tie_embedding": draw(booleans)} if draw(booleans) else {})}  # popped over tie_word_embeddings


CONFIGS_F: dict[str, st.SearchStrategy] = {
    "idefics3": idefics3("idefics3"), "smolvlm": idefics3("smolvlm"), "idefics2": idefics2(), "lfm2_vl": lfm2_vl(),
    "mistral3": mistral3(),
}
