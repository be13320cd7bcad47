"""A flat rope_parameters whose rope_type lacks the keys its validation requires (issue #15, helper dec): transformers
5.24.0's validate_rope raises KeyError as the config is made (_check_received_keys, modeling_rope_utils.py lines
1151-1153: yarn, linear and dynamic without factor, llama3 without its frequency factors, longrope without its
factor lists; rope_theta and original_max_position_embeddings are filled in by standardize_rope_params where the
class declares the field).  paramledger counted them: Llama's smallest with {"rope_type": "yarn"} was counted 44.
Measured over every supported type (yarn and linear without factor, llama3 without low/high_freq_factor): all
refuse but Gemma 3's, Gemma 3n's, OLMo 3's and Step 3.7's configs, which fill the dict (rope_form.FILLS_FLAT)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _family_configs import CONFIGS
from _rope_parity import sections, with_rope
from test_dec_rotary_alpha import check
from test_padding_idx import _smallest

import paramledger
from paramledger._exceptions import ArchitectureError

LACKING = {"yarn without factor": {"rope_type": "yarn", "rope_theta": 10000.0},
           "linear without factor": {"rope_type": "linear", "rope_theta": 10000.0},
           "llama3 without its frequency factors": {"rope_type": "llama3", "factor": 2.0, "rope_theta": 10000.0},
           "longrope without long_factor": {"rope_type": "longrope", "short_factor": [1.0]}}


def _given(config: dict, model_type: str, rope: dict) -> dict:
    return with_rope(config, sections(model_type, config), rope)


@pytest.mark.parametrize("model_type", ["llama", "qwen2", "mistral_large4", "deepseek_v3", "t5", "gemma3", "gemma3n",
                                        "olmo3", "step3p7", "jamba", "aya_vision"])
@pytest.mark.parametrize("lacking", sorted(LACKING))
def test_a_rope_type_without_its_keys_against_transformers(model_type, lacking):
    check(_given(_smallest(model_type), model_type, LACKING[lacking]), buffers=False)


def test_the_refusal_names_the_missing_keys():
    with pytest.raises(ArchitectureError, match=r"rope_parameters: rope_type 'yarn' requires factor \(transformers'"):
        paramledger.load({"model_type": "llama", "rope_parameters": {"rope_type": "yarn"}})
    assert paramledger.inventory(paramledger.load(
        {"model_type": "llama", "rope_parameters": {"rope_type": "yarn", "factor": 4.0}})).total > 0


@st.composite
def _drawn(draw) -> dict:
    model_type = draw(st.sampled_from(sorted(CONFIGS)))
    return _given(draw(CONFIGS[model_type]), model_type, LACKING[draw(st.sampled_from(sorted(LACKING)))])


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(config=_drawn())
def test_random_types_and_configs_against_transformers(config):
    check(config, buffers=False)
