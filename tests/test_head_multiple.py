"""A hidden_size that num_attention_heads does not divide, head_dim given (issue #15, families/head_multiple.py): every
supported type's smallest config with two heads of a given width and a hidden_size one wider than both.  Where
transformers 5.24.0 refuses it (its config class's validate_architecture, or the build), paramledger refuses it in
one line; where paramledger refuses it for that reason alone, transformers does too.  Every other outcome (a class
that builds it, or a design paramledger refuses as inconsistent without a head_dim) is not this test's.
"""

from __future__ import annotations

import pytest

from paramledger import families
from paramledger.families.head_multiple import HIDDEN_IN_HEADS
from paramledger.reference import hf_config
from paramledger._exceptions import ParamledgerError

from _flag_parity import base, with_keys
from _rope_parity import paramledger_outcome, transformers_outcome

REFUSAL = "refuses it whatever head_dim is"


def _variant(model_type: str) -> dict | None:
    config, paths, section = base(model_type)
    if section is None:
        return None
    given = section.to_dict()
    if not isinstance(given.get("hidden_size"), int) or not isinstance(given.get("num_attention_heads"), int):
        return None
    width = given.get("head_dim") or max(2, given["hidden_size"] // given["num_attention_heads"])
    variant = with_keys(config, paths, "num_attention_heads", 2)
    if "num_key_value_heads" in given:
        variant = with_keys(variant, paths, "num_key_value_heads", 2)
    variant = with_keys(variant, paths, "hidden_size", 2 * width + 1)
    return with_keys(variant, paths, "head_dim", width) if "head_dim" in given else variant


@pytest.mark.parametrize("model_type", families.supported())
def test_refused_where_transformers_refuses(model_type):
    variant = _variant(model_type)
    if variant is None:
        pytest.skip("no hidden_size and num_attention_heads in its decoder's section")
    ours = paramledger_outcome(variant)
    try:
        hf_config(variant)
        class_refuses = False
    except ParamledgerError as error:
        class_refuses = "is not a multiple of the number of attention heads" in str(error)
    if class_refuses:
        assert ours.startswith("refuses: "), f"transformers' class refuses it, paramledger {ours}"
    if REFUSAL in ours:
        assert class_refuses or not transformers_outcome(variant).startswith("builds "), ours


def test_every_table_is_a_decoder_table():
    """(a type named in the table reads a decoder: a misspelt one would never be checked)"""
    tables = {family.model_type for family in map(families.get, families.supported()) if family is not None}
    assert set(HIDDEN_IN_HEADS) <= tables | set(families.supported())
