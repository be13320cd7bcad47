"""Hub ids through the real huggingface_hub, offline: a cache in the hub's own layout resolves and
counts; an id outside it is one clear line and exit status 2.  Nothing touches the network
(HF_HUB_OFFLINE=1; the cache is a temporary folder)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import paramledger
from paramledger._exceptions import SourceError

pytest.importorskip("huggingface_hub")

COMMIT = "0123456789abcdef0123456789abcdef01234567"
TINY_LLAMA = {"model_type": "llama", "vocab_size": 1000, "hidden_size": 64, "intermediate_size": 128,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2}


@pytest.fixture
def hub_cache(tmp_path):
    """huggingface_hub's cache layout (file_download.py): models--{org}--{name}/refs/main holds
    the commit; snapshots/{commit}/ holds the files."""
    cache = tmp_path / "hub"
    repo = cache / "models--acme--tiny-llama"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(COMMIT)
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps(TINY_LLAMA))
    return cache


def offline_env(cache):
    # Set before huggingface_hub is imported: it reads these into huggingface_hub.constants once.
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HUB_CACHE=str(cache), HF_HOME=str(cache.parent / "hf_home"), HF_HUB_OFFLINE="1")
    return env


def run_cli(*argv, env):
    return subprocess.run([sys.executable, "-m", "paramledger", *argv], env=env, capture_output=True, text=True,
                          timeout=120)


def expected_total():
    return paramledger.inventory(dict(TINY_LLAMA)).total


def test_cached_hub_id_resolves_and_counts(hub_cache):
    done = run_cli("count", "acme/tiny-llama", "--json", env=offline_env(hub_cache))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["total"] == expected_total() == (64 * 1000 * 2 + 2 * (64 * 64 * 2 + 64 * 32 * 2 + 3 * 64 * 128 + 128)
                                                   + 64)
    assert result["source"] == "acme/tiny-llama"


def test_hub_id_missing_from_the_cache_is_one_line_and_status_2(hub_cache):
    done = run_cli("count", "acme/missing-model", env=offline_env(hub_cache))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("paramledger: error: acme/missing-model: offline (HF_HUB_OFFLINE=1) and config.json "
                                  "is not in the local cache (")


@pytest.fixture
def offline_constants(hub_cache, monkeypatch):
    """In-process: huggingface_hub's documented constants, patched for this test only."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(hub_cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    return hub_cache


def test_load_reads_a_cached_hub_id(offline_constants):
    arch = paramledger.load("acme/tiny-llama")
    assert (arch.source, arch.num_key_value_heads) == ("acme/tiny-llama", 2)
    assert paramledger.inventory(arch).total == expected_total()


def test_load_refuses_an_uncached_hub_id(offline_constants):
    with pytest.raises(SourceError, match=r"^acme/absent: offline \(HF_HUB_OFFLINE=1\) and config.json is not in the "
                                          r"local cache \(.+\)$"):
        paramledger.load("acme/absent")


def test_a_bundled_name_with_an_org_never_reaches_the_hub(offline_constants):
    # "openai-community/gpt2" is bundled: found before any hub lookup, so no cache entry is needed.
    assert paramledger.inventory("openai-community/gpt2").total == 124_439_808
