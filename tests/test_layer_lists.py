"""layer_types or mlp_layer_types that is not one entry per layer (issue #15, families/layer_lists.py): every
supported type whose decoder section has the list, given one entry more, and given one layer more beside it.  Where transformers 5.24.0
refuses it (PreTrainedConfig.validate_layer_type) or cannot build it (a layer indexing past the list) paramledger
refuses it in one line; where paramledger refuses it
for that reason, transformers refuses it or cannot build it."""

from __future__ import annotations

import pytest

from paramledger import families

from _flag_parity import base, with_keys
from _rope_parity import paramledger_outcome, transformers_outcome

OURS = "not num_hidden_layers="


def _with_list() -> list[tuple[str, str]]:
    found = []
    for model_type in families.supported():
        _, _, section = base(model_type)
        found += [(model_type, key) for key in ("layer_types", "mlp_layer_types")
                  if section is not None and isinstance(getattr(section, key, None), list)]
    return found


@pytest.mark.parametrize("model_type, key", _with_list())
@pytest.mark.parametrize("how", ["longer", "deeper"])
def test_a_list_off_the_depth_is_refused_where_transformers_refuses_it(model_type, key, how):
    config, paths, section = base(model_type)
    kinds, layers = list(getattr(section, key)), section.num_hidden_layers
    variant = (with_keys(config, paths, key, kinds + kinds[-1:]) if how == "longer" else
               with_keys(with_keys(config, paths, key, kinds), paths, "num_hidden_layers", layers + 1))
    theirs, ours = transformers_outcome(variant), paramledger_outcome(variant)
    if f"must be equal to the number of `{key}`" in theirs or "IndexError" in theirs:
        assert ours.startswith("refuses: "), ours
    if OURS in ours:
        assert not theirs.startswith("builds "), theirs
