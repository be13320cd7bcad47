"""The values paramledger used to refuse as "not supported" where transformers 5.24.0 builds the config (issue #15,
helper req1): each family's random small configs with that value drawn, compared tensor by tensor with transformers
(names, shapes, aliases, total, named_parameters() order), and the values transformers itself refuses or fails on,
refused in one line that says transformers' reason (docs/notes/requires-req1.md)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings

import paramledger
from paramledger._exceptions import ParamledgerError

from _family_configs_req1 import CONFIGS_REQ1
from _rope_parity import transformers_outcome
from test_families import assert_matches_reference
from test_padding_idx import _smallest


@pytest.mark.parametrize("model_type", sorted(CONFIGS_REQ1))
def test_the_flag_drawn_matches_transformers(model_type):
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(CONFIGS_REQ1[model_type])
    def check(config):
        assert_matches_reference(config)

    check()


def _with(model_type: str, **changes) -> dict:
    config = copy.deepcopy(_smallest(model_type))
    for key, value in changes.items():
        section, _, inner = key.partition("__")
        if inner:
            config[section] = {**config.get(section, {}), inner: value}
        else:
            config[key] = value
    return config


# model_type, the config's change, what the one line says (transformers' own reason)
REFUSED = [
    ("gpt_bigcode", {"add_cross_attention": True, "multi_query": True}, "Cross-attention not implemented for MQA"),
    *[(model_type, {"add_cross_attention": True, "is_decoder": False}, "should be used as a decoder model")
      for model_type in ("megatron-bert", "rembert", "roberta-prelayernorm", "xlm-roberta-xl")],
    ("xlm", {"is_encoder": False}, "Currently XLM can only be used as an encoder"),
    ("flaubert", {"is_encoder": False}, "Currently Flaubert can only be used as an encoder"),
    ("xlm", {"asm": True}, "asm: true without asm_cutoffs: transformers cannot build it"),
    ("flaubert", {"asm": True}, "asm: true without asm_cutoffs: transformers cannot build it"),
    ("t5gemma2", {"is_encoder_decoder": False}, "T5Gemma2Model only support encoder-decoder modeling."),
    ("fsmt", {"pad_token_id": None}, "pad_token_id: null: transformers cannot build FSMT"),
]

@pytest.mark.parametrize(("model_type", "changes", "reason"), REFUSED,
                         ids=[f"{t}-{'-'.join(c)}" for t, c, _ in REFUSED])
def test_what_transformers_refuses_is_refused_in_one_line_with_its_reason(model_type, changes, reason):
    config = _with(model_type, **changes)
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ParamledgerError) as raised:
        paramledger.inventory(paramledger.load(config))
    assert reason in str(raised.value) and "\n" not in str(raised.value)
    assert "not supported" not in str(raised.value)


@pytest.mark.parametrize(("model_type", "changes", "reason"), REFUSED[-6:],
                         ids=[f"{t}-{'-'.join(c)}" for t, c, _ in REFUSED[-6:]])
def test_the_cli_says_transformers_reason_in_one_line_and_exits_2(tmp_path, cli, model_type, changes, reason):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(_with(model_type, **changes)))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1 and reason in err
