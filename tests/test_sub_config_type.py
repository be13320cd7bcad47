"""A whole model's sub-config given without its model_type (issue #15): most config classes build their default kind
then, and paramledger counts that; Exaone4_5_Config and MusicFlamingoConfig read the key unguarded (a KeyError), so
paramledger refuses it in one line (towers.Whole.typed_sections).  Probed over every supported whole type's text,
vision and audio configs: these two were the only disagreements."""

from __future__ import annotations

import copy

import pytest

from _flag_parity import base
from _rope_parity import agree, paramledger_outcome, transformers_outcome

CASES = [("exaone4_5", "text_config"), ("musicflamingo", "audio_config"),  # refused by both
         ("llava", "text_config"), ("qwen2_audio", "audio_config"), ("exaone4_5", "vision_config")]  # built by both


@pytest.mark.parametrize("model_type, section", CASES)
def test_a_sub_config_without_its_model_type(model_type, section):
    config = copy.deepcopy(base(model_type)[0])
    del config[section]["model_type"]
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)
    if not theirs.startswith("builds "):
        assert ours == f"refuses: config: {section}.model_type: missing (required: the config class reads it " \
                       "unguarded, transformers 5.24.0 cannot load the config without it)"
