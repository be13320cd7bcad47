"""Mixed layer-typed rope_parameters on the classes that declare layer_types but no rope_parameters field of their own
(families/even_rotary.py NO_ROPE_FIELD_LAYER_TYPED: Mamba, Jamba, Kimi-Linear, Nemotron-H, Zamba, the Inkling texts
...), issue #15, helper dec.

Nothing standardizes a dict such a class is given: validate_rope reads it layer-typed where a key is among the config's
layer_types (nested_rope_parameter_keys), else flat, each entry with its own partial_rotary_factor (else 1.0) and its
own keys.  paramledger held no layer types for these classes and refused an odd head size only where every reading
refused, and checked no entry's keys: {"partial_rotary_factor": 0.5, "hybrid": {}} with head_dim 5 was counted (the
entry is read, rotated whole: refused), so was an entry of yarn without factor (KeyError) or any yarn entry on Mamba
(its validation reads max_position_embeddings: AttributeError).  Random configs draw mixed dicts against transformers.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _family_configs import CONFIGS
from _rope_parity import agree, layer_types, paramledger_outcome, sections, transformers_outcome, with_rope
from test_even_rotary import _spelt, _with
from test_padding_idx import _reader, _smallest

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.families.even_rotary import NO_ROPE_FIELD_LAYER_TYPED, NO_ROPE_FIELD_TYPES

TYPES = sorted(t for t in families.supported() if _reader(_smallest(t))[0] in NO_ROPE_FIELD_LAYER_TYPED)
ENTRIES = {
    "default": {"rope_type": "default", "rope_theta": 10000.0},
    "linear": {"rope_type": "linear", "factor": 2.0},
    "yarn": {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 16},
    "yarn without factor": {"rope_type": "yarn", "original_max_position_embeddings": 16},
    "yarn without its length": {"rope_type": "yarn", "factor": 2.0},
    "llama3": {"rope_type": "llama3", "factor": 2.0, "original_max_position_embeddings": 8, "low_freq_factor": 1.0,
               "high_freq_factor": 4.0, "rope_theta": 10000.0},
    "bare": {},
}


def outcome(config: dict) -> tuple[str, str]:
    logging.disable(logging.WARNING)
    try:
        return transformers_outcome(config), paramledger_outcome(config)
    finally:
        logging.disable(logging.NOTSET)


def test_every_such_class_has_its_layer_types():
    assert set(NO_ROPE_FIELD_TYPES) == NO_ROPE_FIELD_LAYER_TYPED


@pytest.mark.parametrize(("model_type", "head", "rope", "said"), [
    ("inkling_text", 5, {"partial_rotary_factor": 0.5, "hybrid": {}}, "partial_rotary_factor 1.0 for hybrid"),
    ("zamba", 5, {"linear_attention": {"partial_rotary_factor": 0.5}, "hybrid": {}}, "for hybrid"),
    ("jamba", 6, {"full_attention": {"rope_type": "yarn"}}, "rope_type 'yarn' for full_attention requires factor"),
    ("mamba", None, {"linear_attention": ENTRIES["yarn"]}, "validated against max_position_embeddings"),
])
def test_a_mixed_dict_transformers_refuses_is_refused_in_one_line(model_type, head, rope, said):
    config = _smallest(model_type)
    reader, nested = _reader(config)
    if head is not None:
        config = _with(config, nested, **{_spelt(reader): head})
    config = with_rope(config, sections(model_type, config), rope)
    theirs, ours = outcome(config)
    assert not theirs.startswith("builds "), theirs
    with pytest.raises(ArchitectureError, match=said) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@st.composite
def _mixed(draw) -> dict:
    model_type = draw(st.sampled_from(TYPES))
    config = draw(CONFIGS[model_type])
    reader, nested = _reader(config)
    if draw(st.booleans()):
        config = _with(config, nested, **{_spelt(reader): draw(st.sampled_from((5, 6, 7)))})
    paths = sections(model_type, config)
    names = [*layer_types(config, paths), "full_attention", "hybrid", "linear_attention"]
    rope: dict = {}
    for name in draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)):
        entry = dict(ENTRIES[draw(st.sampled_from(sorted(ENTRIES)))])
        if (factor := draw(st.sampled_from((None, 0.5, 1.0)))) is not None:
            entry["partial_rotary_factor"] = factor
        rope[name] = entry
    if draw(st.booleans()):
        rope["partial_rotary_factor"] = draw(st.sampled_from((0.5, 1.0)))
    return with_rope(config, paths, rope)


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(config=_mixed())
def test_random_mixed_dicts_against_transformers(config):
    theirs, ours = outcome(config)
    assert agree(theirs, ours), (theirs, ours)
