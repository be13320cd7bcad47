"""Hypothesis strategies drawing the keys paramledger once refused for the encoder families of req2
(docs/notes/requires-req2.md): each family's own strategy (tests/_family_configs.py's CONFIGS) with the key drawn.

``CONFIGS_REQ2`` maps a name (model_type, or model_type/key) to a strategy whose configs transformers builds;
``REFUSED_REQ2`` maps a model_type to a strategy of configs transformers refuses (paramledger refuses them too)."""

from __future__ import annotations

from _family_configs import CONFIGS
from hypothesis import strategies as st

booleans = st.booleans()


def _with(model_type: str, **extra: st.SearchStrategy) -> st.SearchStrategy:
    """``model_type``'s own strategy plus the keys ``extra`` draws."""
    return st.tuples(CONFIGS[model_type], st.fixed_dictionaries(extra)).map(lambda pair: {**pair[0], **pair[1]})


def _text_with(model_type: str, **extra: st.SearchStrategy) -> st.SearchStrategy:
    """A whole multimodal config whose text_config gains the keys ``extra`` draws."""
    return st.tuples(CONFIGS[model_type], st.fixed_dictionaries(extra)).map(
        lambda pair: {**pair[0], "text_config": {**pair[0].get("text_config", {}), **pair[1]}})


# add_cross_attention where the class ignores it (no crossattention module): counted as if false
IGNORED = ("layoutlm", "luke", "mobilebert", "mra", "squeezebert", "yoso")
CONFIGS_REQ2: dict[str, st.SearchStrategy] = {
    **{model_type: _with(model_type, add_cross_attention=booleans, is_decoder=booleans) for model_type in IGNORED},
    "kosmos-2.5": _text_with("kosmos-2.5", add_cross_attention=booleans),
    # built: Kosmos2TextBlock's encoder_attn; EsmLayer's crossattention (with is_decoder)
    "kosmos-2": _text_with("kosmos-2", add_cross_attention=booleans),
    "esm": _with("esm", add_cross_attention=booleans, is_decoder=st.just(True)),
    # several layers a group (AlbertLayerGroup.albert_layers)
    "albert": _with("albert", inner_group_num=st.integers(1, 3)),
    # GroupedLinearLayer FFNs (any count of groups: they need not divide the widths, the weights' sizes floor)
    "convbert": _with("convbert", num_groups=st.integers(1, 9)),
    # DebertaOnlyMLMHead / DebertaV2OnlyMLMHead as lm_predictions where legacy is false
    "deberta": _with("deberta", legacy=booleans),
    "deberta-v2": _with("deberta-v2", legacy=booleans),
}

REFUSED_REQ2: dict[str, st.SearchStrategy] = {
    "ibert": _with("ibert", hidden_act=st.sampled_from(["relu", "gelu_new", "silu", "tanh"])),
    "esm": _with("esm", add_cross_attention=st.just(True), is_decoder=st.just(False)),
    "convbert": _with("convbert", num_groups=st.integers(-3, 0)),
}
