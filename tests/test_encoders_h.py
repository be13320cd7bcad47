"""Set H's encoders (issue #17) against the masked-LM classes transformers 5.24.0 builds on the meta device.

tests/test_families.py checks each registered family against its reference class (the CausalLM class where the type
registers one: RobertaForCausalLM, ...); here the masked-LM class of the same config is checked to hold the same
tensors (names, shapes, aliases, total, order), and the types registered only as masked-LM models (families'
MASKED_LM_ONLY, held out of the registry until test_families takes a ForMaskedLM class) against it in full."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest
from _family_configs_h import CONFIGS_H
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger import families
from paramledger.buffers import every_buffer
from paramledger.families import bert_variants, mpnet
from paramledger.reference import default_config, diff, hf_config, reference_of

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

MASKED_LM_ONLY = {family.model_type: family for family in bert_variants.MASKED_LM_ONLY + mpnet.MASKED_LM_ONLY}
# Every set H type that has a CausalLM class, whose masked-LM class is checked to build the same tensors
WITH_CAUSAL_LM = sorted(set(CONFIGS_H) - {"bert"} - set(MASKED_LM_ONLY))


def masked_lm(config: dict, **kwargs):
    """AutoModelForMaskedLM's model of ``config`` on the meta device."""
    transformers.logging.set_verbosity_error()
    cfg = hf_config(config)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), torch.device("meta"):
        warnings.simplefilter("ignore")
        return transformers.AutoModelForMaskedLM.from_config(cfg, **kwargs)


def assert_matches_masked_lm(config: dict) -> None:
    """tests/test_families.py's assert_matches_reference, the reference being the masked-LM class."""
    inventory = paramledger.inventory(paramledger.load(config))
    reference = reference_of(masked_lm(config), config["model_type"])
    assert reference.class_name.endswith(("ForMaskedLM", "WithLMHeadModel"))
    result = diff(inventory, reference)
    assert result.matches, result.to_json()
    assert inventory.total == reference.total
    assert [t.name for t in inventory.tensors] == [name for name, _ in reference.tensors]


@pytest.mark.parametrize("model_type", sorted(MASKED_LM_ONLY) + WITH_CAUSAL_LM)
def test_class_defaults_match_the_masked_lm_class(model_type):
    assert_matches_masked_lm(default_config(model_type))


@pytest.mark.parametrize("model_type", sorted(MASKED_LM_ONLY) + WITH_CAUSAL_LM)
@given(data=st.data())
def test_random_small_configs_match_the_masked_lm_class(model_type, data):
    """The "ci" profile draws 40 configs per model_type (at least 25 required)."""
    assert_matches_masked_lm(data.draw(CONFIGS_H[model_type], label="config"))


@pytest.mark.parametrize("model_type", sorted(MASKED_LM_ONLY))
@given(data=st.data())
def test_masked_lm_only_buffers_match(model_type, data):
    """tests/test_buffers.py's check (name, shape, dtype, persistence) for the held-out types."""
    config = data.draw(CONFIGS_H[model_type], label="config")
    model = masked_lm(config, dtype=torch.bfloat16)
    persistent = set(model.state_dict(keep_vars=True))
    theirs = {name: (tuple(b.shape), str(b.dtype).removeprefix("torch."), name in persistent)
              for name, b in model.named_buffers()}
    inventory = paramledger.inventory(paramledger.load(config))
    assert {b.name: (b.shape, b.dtype or "bfloat16", b.persistent) for b in every_buffer(inventory)} == theirs


@pytest.mark.parametrize("model_type", sorted(MASKED_LM_ONLY))
def test_masked_lm_only_family_reads_or_classifies_every_config_class_key(model_type):
    keys = set(hf_config(default_config(model_type)).to_dict())
    assert sorted(keys - families.get(model_type).understood) == []
