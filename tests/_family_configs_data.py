"""Random small configs for families that are data only (new tables over the existing builder): model_type -> strategy (see _family_configs.py for the shared helpers)."""

from __future__ import annotations

from hypothesis import strategies as st

from _family_configs import _merge, booleans, core, dense_layers, routed, window, with_keys

ROPE = {"rope_type": "default", "rope_theta": 10000.0}


@st.composite
def cohere_compass_text(draw) -> dict:
    config = draw(with_keys(core(head_dim=False), attention_bias=booleans, sliding_window=window))
    if draw(booleans):  # else the class fills full attention everywhere
        layers = config["num_hidden_layers"]
        config["layer_types"] = draw(st.lists(st.sampled_from(["sliding_attention", "full_attention"]),
                                              min_size=layers, max_size=layers))
    # transformers 5.24.0 builds its rotary embedding from one rope_parameters entry per layer
    # type (a flat default raises KeyError 'full_attention'): count-neutral, but needed to build.
    config["rope_parameters"] = {"full_attention": dict(ROPE), "sliding_attention": dict(ROPE)}
    return config


@st.composite
def dots1(draw) -> dict:
    config = draw(_merge(core(), routed("n_routed_experts", shared_key="n_shared_experts", groups=True),
                         st.fixed_dictionaries({"attention_bias": booleans, "sliding_window": window,
                                                "max_window_layers": st.integers(0, 4)})).flatmap(dense_layers))
    if draw(booleans) and draw(booleans):  # Dots1Config's default: cannot route, counts the same
        config["num_experts_per_tok"] = None
    return config


CONFIGS: dict = {
    "cohere_compass_text": cohere_compass_text(),
    "dots1": dots1(),
    # Emu3TextConfig's pad_token_id (151643) does not fit a small vocabulary.
    "emu3": with_keys(core(), attention_bias=booleans, mlp_bias=booleans).map(
        lambda text: {"text_config": {**text, "pad_token_id": 0}}),
}
