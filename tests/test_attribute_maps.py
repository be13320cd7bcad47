"""A config class's attribute_map alias given beside its target (issue #15): transformers 5.24.0 sets the alias after
the class's own __post_init__, so it wins (families/attribute_maps.py).  The table is checked against each supported
type's config class, and the counts against transformers' builds on the meta device."""

from __future__ import annotations

import pytest

from paramledger.families.attribute_maps import DERIVED_FIRST, MAPS, TARGET_WINS

from _flag_parity import base, decoder_sections, with_keys
from _rope_parity import agree, paramledger_outcome, transformers_outcome


def test_the_table_is_each_reading_familys_config_class_map():
    declared: dict[str, dict[str, str]] = {}
    for _, table, section in decoder_sections():
        amap = {alias: target for alias, target in (getattr(type(section), "attribute_map", {}) or {}).items()
                if alias != target}
        if amap:
            declared.setdefault(table, amap)
    declared["dbrx"] = {k: v for k, v in declared["dbrx"].items() if k != "hidden_size"}  # (families/dbrx.py's)
    layer_lists = {"layer_types", "layers_block_type"}  # (the hybrids' own rules read them: attribute_maps.MAPS)
    declared = {t: kept for t, amap in declared.items()
                if (kept := {k: v for k, v in amap.items() if k not in layer_lists})}
    assert MAPS == declared


def test_the_aliases_that_are_fields_of_their_class_are_the_ones_whose_given_target_wins():
    import dataclasses

    declared: dict[str, frozenset[str]] = {}
    for _, table, section in decoder_sections():
        if section is None or not dataclasses.is_dataclass(section):
            continue
        fields = {field.name for field in dataclasses.fields(section)}
        wins = frozenset(alias for alias, target in (getattr(type(section), "attribute_map", {}) or {}).items()
                         if alias != target and alias in fields and target not in fields)
        if wins:
            declared.setdefault(table, wins)
    assert TARGET_WINS == declared


# (type, alias, value): each built by transformers inside the test; before the table, each was counted as if the
# alias were absent (T5 given hidden_size 2: 29 where transformers builds 56)
CASES = [
    *((t, alias, 2) for t in ("t5", "mt5", "umt5", "longt5") for alias in
      ("hidden_size", "num_attention_heads", "num_hidden_layers", "head_dim")),
    ("udop", "hidden_size", 2), ("udop", "num_hidden_layers", 2),
    *((t, "num_hidden_layers", 2) for t in ("bart", "mbart", "marian", "pegasus", "plbart", "mvp", "led", "fsmt",
                                             "blenderbot", "blenderbot-small", "bigbird_pegasus", "pegasus_x")),
    ("m2m_100", "num_hidden_layers", 3), ("nllb-moe", "num_hidden_layers", 3),
    ("m2m_100", "num_attention_heads", 3), ("fsmt", "vocab_size", 8), ("switch_transformers", "hidden_size", 2),
    ("switch_transformers", "num_hidden_layers", 2), ("glm4_moe_lite", "head_dim", 4), ("jetmoe", "head_dim", 4),
    ("longcat_flash", "num_local_experts", 2), ("longcat_flash", "intermediate_size", 2),
    ("minimax_m3_vl_text", "num_experts", 2), ("minimax_m3_vl", "num_experts", 2),
    ("pix2struct", "decoder_layers", 2), ("pix2struct", "encoder_attention_heads", 2),
    ("xlnet", "n_token", 8), ("xlnet", "num_hidden_layers", 2),
    # (Florence-2's BART encoder is read from the raw text_config: families/florence2.py resolves it too)
    ("florence2", "num_hidden_layers", 2), ("florence2", "hidden_size", 4),
    # GPT-Neo's depth, alias or not, against the layers attention_types expands to: both refuse (was counted 88)
    ("gpt_neo", "num_hidden_layers", 2), ("gpt_neo", "num_layers", 2), ("gpt_neo", "num_layers", 1),
    # XLNet's d_head is derived from d_model // n_head before the alias: a new width or head count refused by both
    ("xlnet", "hidden_size", 4), ("xlnet", "num_attention_heads", 2), ("xlnet", "d_model", 4), ("xlnet", "n_head", 2),
    # the alias is a dataclass field of the class (TARGET_WINS): its given target wins over it (Kolibri-1 built 2,662
    # where paramledger counted 2,634 with the alias's one expert, scripts/combo_parity.py)
    ("kolibri1", "num_local_experts", 2), ("mellum", "num_local_experts", 2), ("qwen3_moe", "num_local_experts", 2),
    ("qwen3_vl_moe", "num_local_experts", 2), ("bailing_hybrid", "num_experts", 2), ("kimi_linear", "num_experts", 2),
    ("bailing_hybrid", "num_shared_experts", 2), ("kimi_linear", "num_shared_experts", 2),
]


@pytest.mark.parametrize("model_type, alias, value", CASES, ids=[f"{t}-{a}={v}" for t, a, v in CASES])
def test_a_given_alias_counts_as_transformers_builds_it(model_type, alias, value):
    config, paths, _ = base(model_type)
    config = with_keys(config, paths, alias, value)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)


def test_what_a_class_derives_before_the_alias_keeps_its_value():
    assert set(DERIVED_FIRST) == {"t5", "mt5", "umt5", "longt5", "udop", "xlnet"}


def test_an_alias_that_changes_a_value_is_said_once_and_not_listed_as_not_understood():
    import paramledger

    notes = paramledger.load({"model_type": "t5", "hidden_size": 512, "d_model": 768}).notes
    assert "read as t5's config class maps them: hidden_size=512 as d_model (a given alias wins over its key)" in notes
    assert not any("not understood" in note for note in notes)
    # an alias equal to its key (bart-large's num_hidden_layers 12 beside encoder_layers 12): nothing said
    assert not any(note.startswith("read as") for note in paramledger.load("bart-large").notes)


@pytest.mark.parametrize("pairs", [(("encoder_layers", 2), ("decoder_layers", 3)),
                                   (("decoder_layers", 3), ("encoder_layers", 2))],
                         ids=["decoder-last", "encoder-last"])
def test_of_two_aliases_of_one_key_the_later_in_the_config_wins(pairs):
    """Pix2Struct's text config maps both onto num_layers; transformers sets them in the config's order (67 and 53)."""
    config, paths, _ = base("pix2struct")
    for alias, value in pairs:
        config = with_keys(config, paths, alias, value)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)
