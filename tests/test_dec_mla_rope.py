"""An odd qk_rope_head_dim on the MLA classes whose config sets head_dim to it (families/even_rotary.py QK_ROPE_HEAD,
issue #15, helper dec): transformers 5.24.0's validate_rope refuses an odd head_dim > 4 rotated whole, and these
configs' head_dim is qk_rope_head_dim (DeepseekV3Config.__post_init__ and its kin).  paramledger read head_dim and
counted them (deepseek_v3's smallest config at 5: 65 counted, refused by transformers).  Random configs of each type
draw widths 1 to 8 and a partial_rotary_factor, each checked against transformers."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _family_configs import CONFIGS
from _rope_parity import paramledger_outcome
from test_dec_rotary_alpha import check as agreed
from test_padding_idx import _reader, _smallest

from paramledger import families
from paramledger.families.even_rotary import QK_ROPE_HEAD

TYPES = sorted(t for t in families.supported() if _reader(_smallest(t))[0] in QK_ROPE_HEAD)


def _width(config: dict, width: int, factor: float | None = None) -> dict:
    config = copy.deepcopy(config)
    nested = _reader(config)[1]
    section = config.setdefault(nested, {}) if nested else config
    section["qk_rope_head_dim"] = width
    if factor is not None:
        section["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": factor}
    return config


def check(config: dict) -> str:
    """paramledger's outcome, once it agrees with transformers' (test_dec_rotary_alpha.check)."""
    agreed(config, buffers=False)
    return paramledger_outcome(config)


def test_every_listed_class_is_supported():
    assert {_reader(_smallest(t))[0] for t in TYPES} == QK_ROPE_HEAD


@pytest.mark.parametrize("model_type", TYPES)
@pytest.mark.parametrize("width", [5, 7])
def test_an_odd_rotary_head_is_refused_naming_qk_rope_head_dim(model_type, width):
    ours = check(_width(_smallest(model_type), width))
    assert ours.startswith("refuses: ") and f"qk_rope_head_dim: {width} is odd and rotated whole" in ours


@pytest.mark.parametrize("model_type", TYPES)
def test_half_of_it_rotated_builds(model_type):
    assert check(_width(_smallest(model_type), 5, 0.5)).startswith("counts ")


@st.composite
def _drawn(draw) -> dict:
    config = draw(CONFIGS[draw(st.sampled_from(TYPES))])
    return _width(config, draw(st.integers(1, 8)), draw(st.sampled_from((None, None, 0.5, 1.0))))


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(config=_drawn())
def test_random_widths_against_transformers(config):
    check(config)
