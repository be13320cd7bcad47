"""A hub that lies or stalls (tests/_hub_server.py's hostile files) costs bounded memory and time:
a header length of 2^40 is refused before anything past the 8 bytes is asked for, a server that
ignores the range or never ends its body is read no further than the bytes asked for, and a
stalled answer times out after HF_HUB_DOWNLOAD_TIMEOUT."""

from __future__ import annotations

import json
import struct

import pytest

pytest.importorskip("huggingface_hub")
from _hub_server import Hub, hub_env  # noqa: E402
from test_hub_remote import TINY, llama_tensors, one_error, run, save  # noqa: E402


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    save(folder / "model.safetensors", llama_tensors(TINY))
    (folder / "config.json").write_text(json.dumps(TINY))
    (folder / "huge.safetensors").write_bytes(struct.pack("<Q", 2**40) + b"{}" * 512)
    for name in ("ignore.safetensors", "endless.safetensors", "stall.safetensors"):
        (folder / name).write_bytes((folder / "model.safetensors").read_bytes())
    server = Hub()
    server.add("acme/hostile", folder, hostile={"ignore.safetensors": "ignore-range",
                                                "endless.safetensors": "endless", "stall.safetensors": "stall"})
    server.add("acme/endless-config", folder, hostile={"config.json": "endless"})
    yield server
    server.close()


def test_a_huge_header_length_is_refused_after_eight_bytes(hub, tmp_path):
    done = run("inspect", "acme/hostile", "--file", "huge.safetensors", env=hub_env(hub, tmp_path))
    one_error(done, "acme/hostile/huge.safetensors: header length 1,099,511,627,776 bytes exceeds the "
                    "100,000,000-byte bound")
    assert [r.range for r in hub.requests("huge.safetensors")] == ["bytes=0-7"]


def test_a_server_that_ignores_the_range_is_not_read(hub, tmp_path):
    done = run("inspect", "acme/hostile", "--file", "ignore.safetensors", env=hub_env(hub, tmp_path))
    one_error(done, "acme/hostile/ignore.safetensors: the hub answered HTTP 200 to a range request, not 206")
    assert done.seconds < 20


def test_an_endless_body_is_read_no_further_than_the_range(hub, tmp_path):
    done = run("inspect", "acme/hostile", "--file", "endless.safetensors", "--json", env=hub_env(hub, tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == sum(t.size for t in llama_tensors(TINY).values())
    assert done.seconds < 20


def test_an_endless_config_is_refused_at_its_bound(hub, tmp_path):
    # config.json answers 200 with no length and never ends: huggingface_hub's download stops at 16 MiB
    done = run("count", "acme/endless-config", env=hub_env(hub, tmp_path))
    one_error(done, "acme/endless-config/config.json: more than 16,777,216 bytes: beyond the bound for this file")


def test_a_stalled_answer_times_out(hub, tmp_path):
    env = hub_env(hub, tmp_path, HF_HUB_DOWNLOAD_TIMEOUT="1")
    done = run("inspect", "acme/hostile", "--file", "stall.safetensors", "--json", env=env)
    one_error(done, "acme/hostile: the hub at http://127.0.0.1:")
    assert "did not answer in time for stall.safetensors" in done.stderr
    assert done.seconds < 20
