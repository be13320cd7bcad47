"""Instruct, -it and -Chat names: a release whose config is its bundled base's but for keys no
view reads counts as that base, offline; any other is never "did you mean" a different model, and
the error says how to fetch its config."""

from __future__ import annotations

import pytest

import paramledger
from paramledger import registry
from paramledger._exceptions import SourceError, UnknownModelError
from paramledger.hf_config import architecture_from_config
from paramledger.hub.aliases import ALIASES, alias_of


@pytest.mark.parametrize("alias", ALIASES, ids=[a.repo for a in ALIASES])
def test_each_alias_has_its_base_config_but_for_keys_no_view_reads(alias):
    base = registry.get(alias.base).config
    assert alias.quoted["model_type"] == base["model_type"]
    as_read = architecture_from_config(base | alias.quoted, alias.repo)
    assert as_read == architecture_from_config(base, alias.base)  # every field alike (source and notes aside)
    for key in {k for k in alias.quoted if alias.quoted[k] != base.get(k)}:  # each key that differs, alone
        assert architecture_from_config(base | {key: alias.quoted[key]}, alias.repo) == as_read, key
    assert alias.repo.split("/")[1].lower().endswith(("-instruct", "-it", "-chat"))
    assert alias.base not in [a.repo.split("/")[1] for a in ALIASES]


def test_the_bundled_instruct_and_base_pair_agree_as_the_rule_says():
    # Llama 3.2 3B ships both: their configs make the same Architecture, as each alias asserts of its own
    assert paramledger.load("Llama-3.2-3B-Instruct") == paramledger.load("Llama-3.2-3B")


@pytest.mark.parametrize("name", ["Meta-Llama-3-8B-Instruct", "meta-llama/Meta-Llama-3-8B-Instruct",
                                  "meta-llama/llama-3.1-8b-instruct"])
def test_an_alias_counts_as_its_base_without_the_hub(name):
    arch = paramledger.load(name)
    base = paramledger.load(alias_of(name).base)
    assert arch == base and arch.source == alias_of(name).repo
    assert paramledger.inventory(arch).total == paramledger.inventory(base).total
    assert any("has the config of" in note for note in arch.notes)


def test_another_orgs_repo_of_the_same_name_is_no_alias():
    assert alias_of("someone/Meta-Llama-3-8B-Instruct") is None


@pytest.mark.parametrize("name", ["Llama-3.1-70B-Instruct", "Qwen2.5-7B-Instruct", "gemma-2-2b-it",
                                  "Mistral-7B-Instruct-v0.3"])
def test_a_variant_that_is_no_alias_says_how_to_fetch_its_config(name):
    with pytest.raises(SourceError) as caught:
        paramledger.load(name)
    message = str(caught.value)
    assert not isinstance(caught.value, UnknownModelError) and "did you mean" not in message
    assert message == (f"{name}: not a file, a folder or a bundled model name (see `paramledger models`); give its "
                       'hub id (org/name) to fetch its config.json through huggingface_hub ("paramledger[hub]")')


def test_a_misspelt_name_still_offers_the_bundled_one():
    with pytest.raises(UnknownModelError, match=r"Lama-3.1-8B: .*\(did you mean 'Llama-3.1-8B'\?\)"):
        paramledger.load("Lama-3.1-8B")
