"""Set M's token mixers: the one-line refusals of their keys' bad values (each family's tensors are checked against
transformers 5.24.0 by tests/test_families.py and tests/test_buffers.py, its strategy in tests/_family_configs_i.py)."""

from __future__ import annotations

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError

# a flat spec: the mixers' own keys given directly, as a spec file or --set gives them
FLAT = {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
        "intermediate_size": 32}
GATED = {**FLAT, "attention_output_gate": "per_channel"}


@pytest.mark.parametrize(("config", "changes", "message"), [
    (FLAT, {"gate_bias_attention_layers": [0]},
     r"gate_bias_attention_layers: needs attention_output_gate \(a bias of the output gate, and there is no gate\)"),
    (GATED, {"gate_bias_attention_layers": [2]}, r"gate_bias_attention_layers: layer 2 is outside 0..1"),
    (GATED, {"gate_bias_attention_layers": "all"}, r"gate_bias_attention_layers: must be a list of whole numbers"),
    (GATED, {"gate_bias_attention_layers": [0], "conv_layers": [0], "conv_L_cache": 3},
     r"gate_bias_attention_layers: layer 0 is in conv_layers too"),
])
def test_bad_mixer_keys_are_refused_in_one_line_naming_the_key(config, changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**config, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("config", ['{"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2, '
                                    '"num_attention_heads": 2, "intermediate_size": 32, '
                                    '"gate_bias_attention_layers": [0]}'])
def test_a_bad_mixer_key_exits_2_in_one_line(cli, tmp_path, config):
    path = tmp_path / "config.json"
    path.write_text(config)
    code, _, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0
