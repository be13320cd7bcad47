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


@st.composite
def deberta_v2_conv(draw, dividing: bool = True) -> dict:
    """DeBERTa-v2 with its encoder's ConvLayer (conv_kernel_size above 0: built; 0 or below: none) over groups that
    divide hidden_size (or, with ``dividing`` false, groups nn.Conv1d refuses), legacy drawn."""
    config = draw(CONFIGS["deberta-v2"])
    width = config["hidden_size"]
    if dividing:
        groups = draw(st.sampled_from([g for g in range(1, width + 1) if width % g == 0]))
        kernel = draw(st.integers(-1, 5))
    else:
        groups = draw(st.one_of(st.integers(-2, 0), st.integers(2, 3 * width).filter(lambda g: width % g)))
        kernel = draw(st.integers(1, 5))
    config.update(conv_kernel_size=kernel, legacy=draw(booleans))
    if groups != 1 or draw(booleans):  # (unset: 1)
        config["conv_groups"] = groups
    return config


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
    # ConvBertLayer.crossattention: the mixed attention again (with is_decoder)
    "convbert/add_cross_attention": _with("convbert", add_cross_attention=booleans, is_decoder=st.just(True),
                                          num_groups=st.integers(1, 3)),
    # DebertaOnlyMLMHead / DebertaV2OnlyMLMHead as lm_predictions where legacy is false
    "deberta": _with("deberta", legacy=booleans),
    "deberta-v2": _with("deberta-v2", legacy=booleans),
    "deberta-v2/conv_kernel_size": deberta_v2_conv(),
}

REFUSED_REQ2: dict[str, st.SearchStrategy] = {
    "ibert": _with("ibert", hidden_act=st.sampled_from(["relu", "gelu_new", "silu", "tanh"])),
    "esm": _with("esm", add_cross_attention=st.just(True), is_decoder=st.just(False)),
    "convbert": st.one_of(_with("convbert", num_groups=st.integers(-3, 0)),
                          _with("convbert", add_cross_attention=st.just(True), is_decoder=st.just(False))),
    "deberta-v2": deberta_v2_conv(dividing=False),
}
