"""Pix2Struct's text attention with num_heads × d_kv ≠ hidden_size (issue #15, helper dec): transformers 5.24.0
builds q, k, v and o hidden_size × hidden_size whatever d_kv says and the first block's relative table (buckets, num_heads)
(modeling_pix2struct.py Pix2StructTextAttention, lines 604-610).  paramledger refused it (rules.heads_fill_hidden);
it now counts what transformers builds and says in a note that the forward runs only where d_kv divides hidden_size
and num_heads is 1 (the position bias broadcasts).  Random configs draw the three sizes apart, checked against
transformers on the meta device tensor by tensor."""

from __future__ import annotations

import copy
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _family_configs import CONFIGS
from test_padding_idx import _smallest

import paramledger
from paramledger.reference import build_reference, diff


def _with_text(config: dict, **keys) -> dict:
    config = copy.deepcopy(config)
    config["text_config"] = {**config.get("text_config", {}), **keys}
    config["text_config"].pop("num_attention_heads", None)  # (num_heads spells it)
    return config


def check(config: dict) -> paramledger.Inventory:
    logging.disable(logging.WARNING)
    try:
        inventory = paramledger.inventory(paramledger.load(config))
        result = diff(inventory, build_reference(config))
    finally:
        logging.disable(logging.NOTSET)
    assert result.matches, result.to_json()
    return inventory


@pytest.mark.parametrize(("d_kv", "heads", "hidden", "total"), [
    (1, 1, 2, 78), (1, 3, 4, 208), (2, 2, 6, 396), (3, 1, 4, 204)])
def test_counted_as_transformers_builds_it_on_the_smallest_config(d_kv, heads, hidden, total):
    inventory = check(_with_text(_smallest("pix2struct"), d_kv=d_kv, num_heads=heads, hidden_size=hidden))
    assert inventory.total == total


def test_the_defaults_with_another_d_kv_count_and_say_the_forward_cannot_run():
    """google/pix2struct-base's sizes (768 wide, 12 heads) with d_kv 32: the same tensors as d_kv 64."""
    arch = paramledger.load({"model_type": "pix2struct", "text_config": {"d_kv": 32}})
    assert paramledger.inventory(arch).total == paramledger.inventory(paramledger.load(
        {"model_type": "pix2struct", "text_config": {"d_kv": 64}})).total
    assert any("cannot run it: num_heads 12 × d_kv 32 is not hidden_size 768" in note for note in arch.notes)
    assert not any("d_kv" in note for note in paramledger.load({"model_type": "pix2struct"}).notes)


@pytest.mark.parametrize(("d_kv", "heads", "hidden", "runs"), [
    (1, 1, 4, True), (2, 1, 6, True), (3, 1, 4, False), (2, 2, 6, False), (1, 3, 2, False)])
def test_the_note_says_where_the_forward_fails_as_measured(d_kv, heads, hidden, runs):
    """Measured with Pix2StructTextModel's forward (eager, 3 tokens over 2 encoder states): it runs only with one
    head whose d_kv divides hidden_size (the (1, 1, q, k) position bias broadcasts over hidden_size / d_kv heads)."""
    arch = paramledger.load(_with_text(_smallest("pix2struct"), d_kv=d_kv, num_heads=heads, hidden_size=hidden))
    assert (arch.forward_fails is None) == runs


@st.composite
def _apart(draw) -> dict:
    config = draw(CONFIGS["pix2struct"])
    text = config.get("text_config", {})
    return _with_text(config, d_kv=draw(st.integers(1, 4)), num_heads=draw(st.integers(1, 4)),
                      hidden_size=draw(st.integers(1, 8)), num_layers=text.get("num_layers", 1))


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(config=_apart())
def test_random_d_kv_heads_and_widths_against_transformers(config):
    check(config)
