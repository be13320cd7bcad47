"""layer_types or mlp_layer_types that is not one entry per layer (issue #15, families/layer_lists.py): every
supported type whose decoder section has the list, given one entry more, and given one layer more beside it.  Where transformers 5.24.0
refuses it (PreTrainedConfig.validate_layer_type) or cannot build it (a layer indexing past the list) paramledger
refuses it in one line; where paramledger refuses it
for that reason, transformers refuses it or cannot build it."""

from __future__ import annotations

import pytest

from paramledger import families

from _flag_parity import base, with_keys
from _rope_parity import agree, paramledger_outcome, transformers_outcome

OURS = "not num_hidden_layers="


def test_the_kinds_are_transformers_own():
    from transformers import configuration_utils as utils

    from paramledger.families.layer_lists import ALLOWED, LEGACY

    assert ALLOWED == {"layer_types": utils.ALLOWED_ATTN_LAYER_TYPES, "mlp_layer_types": utils.ALLOWED_MLP_LAYER_TYPES}
    assert LEGACY["layer_types"] == tuple(utils._LEGACY_LAYER_TYPE_REMAP)


def _with_list() -> list[tuple[str, str]]:
    found = []
    for model_type in families.supported():
        _, _, section = base(model_type)
        found += [(model_type, key) for key in ("layer_types", "mlp_layer_types")
                  if section is not None and isinstance(getattr(section, key, None), list)]
    return found


@pytest.mark.parametrize("model_type, key", _with_list())
@pytest.mark.parametrize("how", ["longer", "deeper", "misspelt"])
def test_a_list_off_the_depth_is_refused_where_transformers_refuses_it(model_type, key, how):
    config, paths, section = base(model_type)
    kinds, layers = list(getattr(section, key)), section.num_hidden_layers
    variant = {"longer": lambda: with_keys(config, paths, key, kinds + kinds[-1:]),
               "deeper": lambda: with_keys(with_keys(config, paths, key, kinds), paths, "num_hidden_layers", layers + 1),
               "misspelt": lambda: with_keys(config, paths, key, kinds[:-1] + ["bogus_attention"])}[how]()
    theirs, ours = transformers_outcome(variant), paramledger_outcome(variant)
    if how == "misspelt":  # refused by both, or by paramledger alone (naming the list) where transformers builds it dense
        assert ours.startswith("refuses: ") or agree(theirs, ours), (theirs, ours)
        if theirs.startswith("builds ") and not agree(theirs, ours):
            assert f"{key}: " in ours, ours
        return
    if f"must be equal to the number of `{key}`" in theirs or "IndexError" in theirs:
        assert ours.startswith("refuses: "), ours
    if OURS in ours:
        assert not theirs.startswith("builds "), theirs
