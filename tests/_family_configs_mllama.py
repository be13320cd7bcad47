"""Hypothesis strategies: random small configs for Llama 3.2 Vision counted whole (MllamaForConditionalGeneration,
issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed
from _family_configs_q import mllama as mllama_text
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def mllama_vision(draw) -> dict:
    """MllamaVisionConfig: width, heads (under either of its names: attribute_map), the local and the gated global
    transformer's depths, the MLP width, channels, a tile of whole patches, the tiles and aspect ratios (the class's
    default list with its 4 tiles, or a list of its own with 1 to 4), the intermediate layers (negative ones too, as
    output.hidden_states[i] reads them) and the output width they make."""
    heads = draw(st.sampled_from([1, 2, 4]))
    hidden = heads * draw(st.sampled_from([2, 4, 6]))
    layers = draw(st.integers(1, 4))
    patch = draw(st.integers(1, 4))
    indices = draw(st.lists(st.integers(-layers, layers - 1), max_size=3))
    config = {"model_type": "mllama_vision_model", "hidden_size": hidden,
              "attention_heads" if draw(booleans) else "num_attention_heads": heads,
              "num_hidden_layers": layers, "num_global_layers": draw(st.integers(0, 3)),
              "intermediate_size": draw(st.integers(1, 16)), "num_channels": draw(st.integers(1, 3)),
              "patch_size": patch, "image_size": patch * draw(st.integers(1, 3)),
              "intermediate_layers_indices": indices, "vision_output_dim": hidden * (1 + len(indices))}
    if draw(booleans):
        config["max_num_tiles"] = draw(st.integers(1, 4))
        config["supported_aspect_ratios"] = draw(st.lists(st.lists(st.integers(1, 4), min_size=2, max_size=2),
                                                          max_size=5))
    return config


@st.composite
def mllama(draw) -> dict:
    config = {**draw(mllama_text()), "vision_config": draw(mllama_vision())}
    if draw(booleans):  # MllamaForConditionalGeneration ties nothing whatever it says
        config["tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_MLLAMA: dict[str, st.SearchStrategy] = {"mllama": _typed("mllama", mllama())}
