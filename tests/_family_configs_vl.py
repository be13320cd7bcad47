"""Hypothesis strategies: random small configs for the whole multimodal families of set VL (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_l import _set, whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def _large4_layers(draw, config: dict) -> dict:
    """GLM-5's draw (DSA latent attention, experts, dense layers, indexer_types by any spelling) as
    MistralLarge4TextConfig spells it: no q LoRA, NoPE layers by no_rope_layers (a list at least as long as the
    layers) or no_rope_layer_interval, layers reading an earlier layer's latent (kv_source_layers), the experts
    sometimes by num_experts (its BC key)."""
    config = {key: value for key, value in config.items() if key != "q_lora_rank"}
    # what runs (the slow checks' forward pass), neither changing a tensor: the latent expanded to every head
    # (repeat_kv reads num_attention_heads // num_key_value_heads), two experts a group at least (the router's topk(2))
    config["num_key_value_heads"] = config["num_attention_heads"]
    config["n_routed_experts"] = max(config["n_routed_experts"], 2)
    layers = config["num_hidden_layers"]
    how = draw(st.sampled_from(["default", "interval", "list"]))
    if how == "interval":
        config["no_rope_layer_interval"] = draw(st.integers(1, 4))
    elif how == "list":
        config["no_rope_layers"] = draw(st.lists(st.sampled_from([0, 1]), min_size=layers, max_size=layers + 2))
    if draw(booleans):
        sources: list[int] = []
        for layer in range(layers):
            owners = [i for i in range(layer) if sources[i] == i]
            sources.append(draw(st.sampled_from([layer, *owners])))
        config["kv_source_layers"] = sources
    if draw(booleans):
        config["num_experts"] = config.pop("n_routed_experts")
    return config


MISTRAL_LARGE4_TEXT = _set("glm_moe_dsa").flatmap(_large4_layers)

CONFIGS_VL: dict[str, st.SearchStrategy] = {
    "mistral_large4": whole(
        "mistral_large4", "mistral_large4_text", MISTRAL_LARGE4_TEXT, vit("pixtral", step=2),
        spatial_merge_size=st.integers(1, 3),
        vision_feature_layer=st.one_of(st.integers(-2, -1), st.lists(st.integers(-3, -1), min_size=1, max_size=3)),
        multimodal_projector_bias=booleans),
}
