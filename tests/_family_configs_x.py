"""Hypothesis strategies: random small configs for the decoder families of set X (issue #15), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style); set D's strategies
(tests/_family_configs_d.py) are the base where it wrote one."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from _family_configs_d import longcat_flash as longcat_flash_d
from _family_configs_d import zaya as zaya_d
from hypothesis import strategies as st

from paramledger import families


@st.composite
def zaya(draw) -> dict:
    """Set D's (CCA's kernels and biases, the MLP router and its skip expert, the head's bias, hybrid and sliding
    layers), and a third of the time rope_parameters given per layer type, with a partial factor of its own (the
    rotary's width: its buffers), as a released config spells it."""
    config = draw(zaya_d())
    if draw(st.integers(0, 2)) == 0:
        factors = st.sampled_from([0.25, 0.5, 1.0])
        config["rope_parameters"] = {kind: {"rope_type": "default", "rope_theta": 10000.0,
                                            "partial_rotary_factor": draw(factors)}
                                     for kind in ("hybrid", "hybrid_sliding")}
    return config


@st.composite
def longcat_flash(draw) -> dict:
    """Set D's (two MLA sublayers and two FFNs per layer, the shortcut MoE with zero-compute experts, biases), with
    the depth given half the time as num_hidden_layers (LongcatFlashConfig's setter: num_layers = half of it, an
    odd count rounded down) and qk_head_dim spelt out now and then."""
    config = draw(longcat_flash_d())
    if draw(booleans):
        config["num_hidden_layers"] = 2 * config.pop("num_layers") + draw(st.integers(0, 1))
    if draw(booleans):
        config["qk_head_dim"] = config["qk_nope_head_dim"] + config["qk_rope_head_dim"]
    return config


_STRATEGIES = {"zaya": zaya, "longcat_flash": longcat_flash}
CONFIGS_X: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items() if families.get(model_type)}
