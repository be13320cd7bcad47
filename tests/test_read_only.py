"""A key its config class computes as a read-only property, given in a config (issue #15, families/read_only.py):
transformers 5.24.0 cannot set it and loads nothing, so paramledger refuses it in one line.  The table is held
against every supported type's decoder-section class: each setter-less property given (its own value, in the section
the decoder reads) is refused by transformers exactly where the table names it, and by paramledger there."""

from __future__ import annotations

import pytest

from paramledger.families.read_only import EVERY, READ_ONLY

from _flag_parity import base, decoder_sections, with_keys
from _rope_parity import paramledger_outcome, transformers_outcome


def _read_only(section) -> list[str]:
    cls = type(section)
    return sorted(name for name in dir(cls) if not name.startswith("_") and isinstance(getattr(cls, name, None), property)
                  and getattr(cls, name).fset is None and name not in EVERY)


def _tables() -> dict[str, str]:
    """Each reading table with a setter-less property of its own -> one type it reads for."""
    found: dict[str, str] = {}
    for model_type, table, section in decoder_sections():
        if section is not None and [name for name in _read_only(section)
                                    if name not in ("num_labels", "output_attentions", "name_or_path")]:
            found.setdefault(table, model_type)
    return found


TABLES = _tables()


@pytest.mark.parametrize("table", sorted(TABLES))
def test_a_read_only_key_is_refused_exactly_where_transformers_refuses_it(table):
    model_type = TABLES[table]
    config, paths, section = base(model_type)
    refused = set()
    for name in _read_only(section):
        value = getattr(section, name, None)
        variant = with_keys(config, paths, name, list(value) if isinstance(value, tuple) else value)
        theirs, ours = transformers_outcome(variant), paramledger_outcome(variant)
        if "has no setter" in theirs:
            refused.add(name)
            assert "is a read-only property" in ours, (name, ours)
        else:
            assert "is a read-only property" not in ours, (name, theirs)
    assert refused == set(READ_ONLY.get(table, ())), table


def test_the_tables_are_every_one_transformers_has():
    assert set(READ_ONLY) <= set(TABLES)


@pytest.mark.parametrize("name", sorted(EVERY))
def test_pretrainedconfigs_own_read_only_keys_are_refused_everywhere(name):
    config = {**base("llama")[0], name: True}
    assert "has no setter" in transformers_outcome(config)
    assert paramledger_outcome(config) == (f"refuses: config: {name}: is a read-only property of its config class: "
                                           "transformers 5.24.0 cannot load a config that gives it")
