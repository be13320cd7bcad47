"""`paramledger models`: every bundled release with its total, active count and embedding share."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger import registry


def test_lists_every_bundled_model_with_its_total(cli):
    status, out, err = cli("models")
    assert status == 0 and err == ""
    body = out.splitlines()
    assert body[0].split() == ["model", "repo", "model_type", "total", "active", "per", "token", "embedding", "share"]
    for name in registry.names():
        assert any(line.split()[:1] == [name] for line in body), name
    gpt2 = next(line for line in body if line.startswith("gpt2 "))
    assert gpt2.split() == ["gpt2", "openai-community/gpt2", "gpt2", "124,439,808", "(dense)", "31.02", "%"]
    assert f"{len(registry.names())} bundled models" in out


def test_moe_models_show_their_active_count(cli):
    _, out, _ = cli("models")
    mixtral = next(line for line in out.splitlines() if line.startswith("Mixtral-8x7B-v0.1 "))
    active = paramledger.inventory("Mixtral-8x7B-v0.1").active
    assert f"{active:,}" in mixtral and "46,702,792,704" in mixtral


def test_a_multimodal_release_is_counted_whole(cli):
    # gemma-4-31B-it was the last bundled release counted through its text decoder alone (issue #16)
    _, out, _ = cli("models")
    assert "multimodal: counts its text decoder (text_config) only" not in out
    _, out, _ = cli("models", "--json")
    by_name = {e["name"]: e for e in json.loads(out)}
    assert not any(e["text_decoder_only"] for e in by_name.values())
    assert by_name["gemma-4-31B-it"]["total"] == 31_273_086_512  # its vision tower and embed_vision beside the decoder


def test_json_is_one_list_counted_from_the_inventories(cli):
    status, out, _ = cli("models", "--json")
    assert status == 0
    entries = json.loads(out)
    assert [e["name"] for e in entries] == registry.names()
    for entry in entries:
        inv = paramledger.inventory(entry["name"])
        assert (entry["total"], entry["active"]) == (inv.total, inv.active)
        assert entry["embedding_share"] == float(inv.embedding_share)
        assert entry["source"].startswith("https://huggingface.co/")


@pytest.fixture
def registry_with_an_unsupported_family(tmp_path, monkeypatch):
    path = tmp_path / "made-up-lm-1b.json"
    path.write_text(json.dumps({"repo": "org/made-up-lm-1b", "source": "test",
                                "config": {"model_type": "made_up_lm", "vocab_size": 32000, "hidden_size": 4096}}))
    extra = registry.BundledModel("made-up-lm-1b", "org/made-up-lm-1b", "test", "made_up_lm", path)
    real = registry.bundled()
    monkeypatch.setattr(registry, "bundled", lambda: (*real, extra))


def test_an_unsupported_family_is_listed_with_the_reason(cli, registry_with_an_unsupported_family):
    status, out, err = cli("models")
    assert status == 0 and err == ""
    row = next(line for line in out.splitlines() if line.startswith("made-up-lm-1b "))
    assert row.split()[-3:] == ["-", "-", "-"]
    assert "made-up-lm-1b: not counted: model_type 'made_up_lm' is not supported yet" in out
    status, out, _ = cli("models", "--json")
    assert json.loads(out)[-1] == {"name": "made-up-lm-1b", "repo": "org/made-up-lm-1b",
                                   "model_type": "made_up_lm", "source": "test",
                                   "not_counted": "model_type 'made_up_lm' is not supported yet"}


def test_an_unknown_option_is_one_line_and_status_2(cli):
    status, _, err = cli("models", "--jsn")
    assert status == 2
    assert err.startswith("paramledger: error: unrecognized arguments: --jsn")


def test_filters_match_name_repo_or_family_and_sorts_put_the_largest_first(cli):
    status, out, _ = cli("models", "qwen3", "--sort", "total")
    assert status == 0
    table = out.split("\n\n")[0]  # the notes after it name models too
    listed = [line.split()[0] for line in table.splitlines()[1:]]
    expected = sorted((m.name for m in registry.bundled() if "qwen3" in f"{m.name} {m.repo} {m.model_type}".lower()),
                      key=lambda name: -paramledger.inventory(name).total)
    assert listed == expected and listed[0] == "Qwen3-235B-A22B"
    assert f"{len(expected)} bundled models of {len(registry.names())}" in out
    _, out, _ = cli("models", "meta-llama", "70", "--json")  # every TEXT must match (a repo's org here)
    assert {m["name"] for m in json.loads(out)} == {"Llama-2-70b-hf", "Llama-3.1-70B"}
    _, out, _ = cli("models", "--sort", "active", "--json")
    actives = [m["active"] for m in json.loads(out)]
    assert actives == sorted(actives, reverse=True)


def test_a_filter_that_matches_nothing_is_one_line_and_status_2(cli):
    status, out, err = cli("models", "no-such-model")
    assert (status, out) == (2, "")
    assert err.strip() == ("paramledger: error: models: no bundled model matches 'no-such-model'; "
                           "`paramledger models` lists them all")
