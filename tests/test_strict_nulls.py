"""A null where the config class takes none (issue #15, families/strict_nulls.py): the package's table is what
transformers 5.24.0's classes declare, and a null there is refused as transformers refuses it, while a null the
class takes keeps its reading."""

from __future__ import annotations

import json

import pytest

from _flag_parity import case, first_of_each_table
from _rope_parity import agree, paramledger_outcome, transformers_outcome
from _strict_nulls import by_table


def test_the_table_is_what_the_classes_declare():
    import importlib.resources

    shipped = importlib.resources.files("paramledger.families").joinpath("strict_nulls.json").read_text("utf-8")
    assert json.loads(shipped) == by_table()


# (type, key): a null each built by transformers inside the test; before the table, the refused ones were counted
CASES = [("gemma2", "intermediate_size"), ("llama", "hidden_size"), ("qwen2", "use_sliding_window"),
         ("gemma3", "intermediate_size"), ("mixtral", "num_local_experts"), ("bert", "type_vocab_size"),
         ("t5", "d_ff"), ("albert", "embedding_size"), ("gpt2", "n_inner"),  # (GPT-2's n_inner takes null: 4 × width)
         ("llama", "head_dim"), ("mistral", "sliding_window"), ("qwen3_moe", "mlp_only_layers")]


@pytest.mark.parametrize("model_type, key", CASES, ids=[f"{t}-{k}" for t, k in CASES])
def test_a_null_counts_as_transformers_reads_it(model_type, key):
    config = case(model_type, key, None)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)
    if not theirs.startswith("builds "):  # (the family's own refusal where it has one, else the class's)
        assert f"{key}: may not be null" in ours or ours.endswith(
            f"{key}: null, where its config class takes none: transformers 5.24.0 refuses it (the field's type "
            "admits no None)"), ours


def _build_fails() -> list[tuple[str, str]]:
    from paramledger.families.strict_nulls import BUILD_FAILS

    first = first_of_each_table()
    return [(first[table], key) for table, keys in sorted(BUILD_FAILS.items()) for key in sorted(keys)]


@pytest.mark.parametrize("model_type, key", _build_fails(), ids=[f"{t}-{k}" for t, k in _build_fails()])
def test_a_null_its_model_cannot_be_built_with_is_refused(model_type, key):
    config = case(model_type, key, None)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert not theirs.startswith("builds "), theirs
    assert ours.endswith(f"{key}: null: its config class takes it, but transformers 5.24.0 cannot build the model "
                         "(its code reckons with the value)"), ours
