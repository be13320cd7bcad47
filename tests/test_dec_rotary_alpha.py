"""Mistral Large 4's learned rotary alpha (issue #15, helper dec): zeros_like(inv_freq), so as long as its rope_type's
init function makes inv_freq at qk_rope_head_dim (modeling_mistral_large4.py lines 88-98; modeling_rope_utils.py).

paramledger counted (width + 1) // 2 whatever the rope_type: YaRN (the class default) at width 1 makes 0 entries (123
built, 124 counted on the smallest config), proportional at width 3 makes 1, the class's own default ignores
partial_rotary_factor.  Random configs draw the widths 1 to 8 (odd and even), every rope_type transformers computes,
partial_rotary_factor in the dict or beside it, each checked against transformers 5.24.0 on the meta device: the total
and the rotary's buffers, or both refusing.
"""

from __future__ import annotations

import copy
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _family_configs import CONFIGS
from _rope_parity import agree, paramledger_outcome, transformers_outcome
from test_buffers import ours, reference
from test_padding_idx import _smallest

import paramledger
from paramledger._exceptions import ArchitectureError

KINDS = ("default", "linear", "dynamic", "yarn", "llama3", "proportional", "longrope")


def rope(kind: str, short_factors: int = 1) -> dict:
    """A flat rope_parameters of ``kind`` with the keys its _validate_*_rope_parameters requires."""
    out = {"rope_type": kind, "rope_theta": 10000.0}
    if kind in ("linear", "dynamic", "yarn", "llama3"):
        out["factor"] = 2.0
    if kind in ("yarn", "llama3", "longrope"):
        out["original_max_position_embeddings"] = 16
    if kind == "llama3":
        out.update(low_freq_factor=1.0, high_freq_factor=4.0)
    if kind == "longrope":
        out.update(short_factor=[1.0] * short_factors, long_factor=[1.0] * short_factors)
    return out


def large4(text: dict, width: int, rope_parameters: dict | None, factor: float | None = None) -> dict:
    config = copy.deepcopy(text)
    config["text_config"].update(qk_rope_head_dim=width, max_position_embeddings=64)
    if rope_parameters is not None:
        config["text_config"]["rope_parameters"] = copy.deepcopy(rope_parameters)
    if factor is not None:
        config["text_config"]["partial_rotary_factor"] = factor
    return config


def _rotary_buffers(buffers: dict) -> dict:
    return {name: shape for name, shape in buffers.items() if "rotary_emb" in name}


def check(config: dict, buffers: bool = True) -> str:
    logging.disable(logging.WARNING)
    try:
        theirs, ours_ = transformers_outcome(config), paramledger_outcome(config)
    finally:
        logging.disable(logging.NOTSET)
    assert agree(theirs, ours_), (theirs, ours_)
    assert "\n" not in ours_
    if buffers and theirs.startswith("builds "):
        assert _rotary_buffers(ours(config)) == _rotary_buffers(reference(config))
    return theirs


@pytest.mark.parametrize(("width", "kind", "built"), [
    (1, None, 123), (1, "yarn", 123), (1, "proportional", 123), (3, "proportional", 132), (1, "default", 124),
    (3, "yarn", 133), (2, "yarn", 128)])
def test_the_alpha_follows_the_rope_type_on_the_smallest_config(width, kind, built):
    config = large4(_smallest("mistral_large4"), width, None if kind is None else rope(kind))
    assert check(config) == f"builds {built}"


@pytest.mark.parametrize(("width", "kind", "factor", "said"), [
    (5, "yarn", None, "qk_rope_head_dim: 5 is odd and rotated whole"),
    (10, "yarn", 0.5, r"yarn at an odd rotary width \(5\) fails"),
    (2, "dynamic", None, "dynamic at a rotary width of 2 fails"),
])
def test_a_width_transformers_cannot_make_is_refused_in_one_line(width, kind, factor, said):
    config = large4(_smallest("mistral_large4"), width, rope(kind), factor)
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError, match=said):
        paramledger.load(config)


@pytest.mark.parametrize(("given", "said"), [
    ({"rope_type": "yarn"}, "rope_type 'yarn' requires factor"),
    ({"rope_type": "nope"}, "rope_type 'nope' is none transformers 5.24.0 computes"),
    # (transformers builds this one, an alpha of 3, but its forward cannot run: cos and sin 6 wide against 2)
    (rope("longrope", 3), "longrope's short_factor has 3 entries where the rotary width 2 makes 1"),
])
def test_a_rope_parameters_transformers_cannot_use_is_refused(given, said):
    config = large4(_smallest("mistral_large4"), 2, given)
    assert "\n" not in paramledger_outcome(config)
    with pytest.raises(ArchitectureError, match=said):
        paramledger.load(config)


@st.composite
def _rope_config(draw) -> dict:
    text = draw(CONFIGS["mistral_large4"])
    width = draw(st.integers(1, 8))
    kind = draw(st.sampled_from((None, *KINDS)))
    factor, beside = draw(st.sampled_from((None, 0.25, 0.5, 0.75, 1.0))), draw(st.booleans())
    given = None
    if kind is not None:  # (longrope: a short_factor list that broadcasts; others are refused on purpose, below)
        pairs = (int(width * (factor or 1.0)) + 1) // 2
        given = rope(kind, draw(st.sampled_from((1, pairs))) if kind == "longrope" and pairs else 1)
    if factor is not None and given is not None and not beside:
        given["partial_rotary_factor"] = factor
        factor = None
    return large4(text, width, given, factor)


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(config=_rope_config())
def test_random_rope_types_and_widths_against_transformers(config):
    check(config)


@st.composite
def _mistral4_config(draw) -> dict:
    """Mistral 4 (no alpha: its rotary's width only decides whether transformers can build it): head_dim
    qk_nope_head_dim + qk_rope_head_dim, rotated by qk_rope_head_dim / head_dim unless the dict says."""
    config = {**draw(CONFIGS["mistral4"]), "qk_rope_head_dim": draw(st.integers(1, 8)),
              "qk_nope_head_dim": draw(st.integers(0, 3)) or None, "max_position_embeddings": 64}
    if config["qk_nope_head_dim"] is None:
        del config["qk_nope_head_dim"]  # (its default, 64)
    kind = draw(st.sampled_from((None, "default", "linear", "dynamic", "yarn", "llama3", "proportional")))
    if kind is not None:
        config["rope_parameters"] = rope(kind)
        if draw(st.booleans()):
            config["rope_parameters"]["partial_rotary_factor"] = draw(st.sampled_from((0.5, 1.0)))
    return config


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(config=_mistral4_config())
def test_mistral4_random_rope_types_and_widths_against_transformers(config):
    check(config, buffers=False)


@pytest.mark.parametrize(("rope_width", "nope", "said"), [
    (5, 2, r"yarn at an odd rotary width \(5\) fails"),  # (the class default: counted before)
    (5, None, "qk_rope_head_dim: 5 with qk_nope_head_dim 0 makes an odd head_dim"),
])
def test_mistral4_refuses_a_width_its_rotary_cannot_make(rope_width, nope, said):
    config = {**_smallest("mistral4"), "qk_rope_head_dim": rope_width, "qk_nope_head_dim": nope}
    if nope is None:
        config["qk_nope_head_dim"] = 0
        config["rope_parameters"] = {"rope_type": "default", "partial_rotary_factor": 1.0}
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError, match=said):
        paramledger.load(config)
