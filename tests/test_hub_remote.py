"""Hub ids against a hub on 127.0.0.1 (tests/_hub_server.py) through huggingface_hub's real client,
pointed at with HF_ENDPOINT, each run with its own cache: config.json downloads, safetensors and
GGUF headers read by range requests, sharded repos, and inspect of a hub id reconciling exactly as
inspect of the same folder does.  Nothing touches the internet."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time

import numpy as np
import pytest

import paramledger

pytest.importorskip("huggingface_hub")
from _hub_server import Hub, hub_env  # noqa: E402

TINY = {"model_type": "llama", "vocab_size": 16, "hidden_size": 8, "intermediate_size": 16, "num_hidden_layers": 2,
        "num_attention_heads": 2, "tie_word_embeddings": True}
GIB = 2**30


def save(path, tensors, metadata=None):
    import safetensors.numpy

    path.parent.mkdir(parents=True, exist_ok=True)
    safetensors.numpy.save_file(tensors, str(path), metadata=metadata)


def llama_tensors(config, dtype=np.float16):
    return {t.name: np.zeros(t.shape, dtype) for t in paramledger.inventory(config).tensors}


def tiny_repo(folder):
    save(folder / "model.safetensors", llama_tensors(TINY))
    (folder / "config.json").write_text(json.dumps(TINY))
    return folder


def sharded_repo(folder):
    """Two shards and their index: a multi-token-prediction layer beyond num_hidden_layers
    (DeepSeek-V3's layout) and an FP8 scale, as save_pretrained lays them out."""
    config = TINY | {"num_nextn_predict_layers": 1}
    tensors = llama_tensors(TINY)
    for name in [n for n in tensors if n.startswith("model.layers.1.")]:
        tensors[name.replace("model.layers.1.", "model.layers.2.")] = tensors[name].copy()
    tensors["model.layers.0.mlp.down_proj.weight_scale_inv"] = np.ones((1, 1), np.float32)
    names = sorted(tensors)
    shards = {"model-00001-of-00002.safetensors": names[: len(names) // 2],
              "model-00002-of-00002.safetensors": names[len(names) // 2:]}
    for shard, members in shards.items():
        save(folder / shard, {n: tensors[n] for n in members}, {"format": "pt"})
    index = {"metadata": {"total_size": sum(t.nbytes for t in tensors.values())},
             "weight_map": {n: shard for shard, members in shards.items() for n in members}}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def gpt2_repo(folder):
    """The hub's gpt2 layout: no "transformer." prefix, no head (tied), a causal mask per block."""
    config = {"model_type": "gpt2", "vocab_size": 100, "n_positions": 16, "n_embd": 8, "n_layer": 2, "n_head": 2}
    tensors = {t.name.removeprefix("transformer."): np.zeros(t.shape, np.float32)
               for t in paramledger.inventory(config).tensors}
    for i in range(2):
        tensors[f"h.{i}.attn.bias"] = np.tril(np.ones((16, 16), np.float32)).reshape(1, 1, 16, 16)
    save(folder / "model.safetensors", tensors, {"format": "pt"})
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def sparse_gigabyte(folder):
    """A 1 GiB safetensors file that takes no disk: its header, then a hole."""
    entries = {"big": {"dtype": "F32", "shape": [16384, 16384], "data_offsets": [0, GIB]}}
    raw = json.dumps({"__metadata__": {"format": "pt"}, **entries}).encode()
    raw += b" " * (-len(raw) % 8)
    path = folder / "model.safetensors"
    folder.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(raw)) + raw)
        handle.truncate(8 + len(raw) + GIB)
    return path


def gguf_file(path, tokens=30_000):
    """A GGUF written by the gguf package, its vocabulary long enough that the header spans several
    of the reader's growing ranges."""
    import gguf

    path.parent.mkdir(parents=True, exist_ok=True)
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_token_list([f"token-{i}" for i in range(tokens)])
    writer.add_tensor("token_embd.weight", np.zeros((16, 8), np.float32))
    writer.add_tensor("output_norm.weight", np.ones(8, np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    root = tmp_path_factory.mktemp("repos")
    server = Hub()
    server.add("acme/tiny-llama", tiny_repo(root / "tiny-llama"))
    server.add("acme/sharded", sharded_repo(root / "sharded"))
    server.add("acme/gpt2-tiny", gpt2_repo(root / "gpt2-tiny"))
    sparse_gigabyte(root / "big")
    server.add("acme/big", root / "big")
    gguf_file(root / "gguf" / "tiny-Q8_0.gguf")
    server.add("acme/gguf", root / "gguf")
    gguf_file(root / "ggufs" / "a.gguf", 10)
    gguf_file(root / "ggufs" / "b.gguf", 10)
    server.add("acme/ggufs", root / "ggufs")
    server.add("acme/gated", tiny_repo(root / "gated"), token="hf_secret")
    server.add("acme/tagged", tiny_repo(root / "tagged"), revisions={"v1": "1" * 40})
    server.root = root
    yield server
    server.close()


def run(*argv, env, timeout=120):
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "paramledger", *argv], env=env, capture_output=True, text=True,
                          timeout=timeout)
    done.seconds = time.monotonic() - started
    return done


def one_error(done, start):
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"paramledger: error: {start}"), done.stderr
    return done.stderr


def test_count_and_memory_of_a_hub_id(hub, tmp_path):
    env = hub_env(hub, tmp_path)
    done = run("count", "acme/tiny-llama", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == paramledger.inventory(TINY).total
    assert done.stderr == ""
    memory = run("memory", "acme/tiny-llama", "--dtype", "bf16", "--json", env=env)
    assert memory.returncode == 0, memory.stderr
    priced = json.loads(memory.stdout)  # the parameters at bf16, and RoPE's buffers beside them
    assert priced["weights_bytes"] - priced["buffers_bytes"] == 2 * paramledger.inventory(TINY).total
    (tmp_path / "local.json").write_text(json.dumps(TINY))
    plans = [run("fit", source, "--gpu", "rtx4090", "--dtype", "bf16", "--context", "2k", "--json", env=env)
             for source in ("acme/tiny-llama", str(tmp_path / "local.json"))]
    assert plans[0].returncode == 0, plans[0].stderr
    assert json.loads(plans[0].stdout)["per_device"] == json.loads(plans[1].stdout)["per_device"]  # as its config


def test_load_and_report_take_a_revision(hub, tmp_path):
    env = hub_env(hub, tmp_path)
    code = "import paramledger; print(paramledger.load('acme/tagged@v1').num_hidden_layers)"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout == "2\n", done.stderr
    assert any("/resolve/v1/config.json" in r.path for r in hub.requests("acme/tagged"))
    report = run("report", "acme/tagged@v1", "-o", str(tmp_path / "r.html"), env=env)
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "r.html").read_text().count("model.layers.1.mlp.up_proj.weight") >= 1


def test_verify_a_hub_id_against_transformers(hub, tmp_path):
    pytest.importorskip("transformers")
    done = run("verify", "acme/tiny-llama", env=hub_env(hub, tmp_path))
    assert done.returncode == 0, done.stderr
    assert f"match: 20 tensors, total {paramledger.inventory(TINY).total:,}" in done.stdout


def inspect_json(target, env, *extra):
    done = run("inspect", target, "--json", *extra, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


@pytest.mark.parametrize("repo", ["sharded", "gpt2-tiny", "tiny-llama", "gguf"])
def test_inspect_of_a_hub_id_reconciles_as_inspect_of_its_folder(hub, tmp_path, repo):
    env = hub_env(hub, tmp_path)
    remote = json.loads(inspect_json(f"acme/{repo}", env))
    local = json.loads(inspect_json(str(hub.root / repo), env).replace(str(hub.root / repo), f"acme/{repo}"))
    if repo == "gguf":  # the folder holds one file; PATH names the folder, the hub id names the repo
        local["path"] = remote["path"]
    assert remote == local
    kinds = {d["kind"] for d in (remote.get("reconcile") or {}).get("differences", [])}
    if repo == "sharded":
        assert remote["format"] == "safetensors (sharded, 2 files)"
        assert "extra_modules" in kinds and "quantization" in remote["kinds"]
        assert remote["reconcile"]["balanced"] is True
    if repo == "gpt2-tiny":
        assert remote["kinds"]["buffer"] == {"tensors": 2, "values": 512}


def test_a_gigabyte_file_costs_its_header_only(hub, tmp_path):
    data = json.loads(inspect_json("acme/big", hub_env(hub, tmp_path)))
    assert data["bytes"] == GIB and data["total"] == 16384 * 16384
    ranges = [r for r in hub.requests("/acme/big/resolve/") if r.range]
    assert [r.range.split("-")[0] for r in ranges] == ["bytes=0", "bytes=8"]  # the length, then the header
    sent = sum(r.sent for r in ranges)
    assert sent < GIB // 100
    assert sent < 2_000  # two answers' headers and about 120 bytes of safetensors header


def test_a_gguf_header_is_read_in_growing_ranges(hub, tmp_path):
    before = len(hub.requests("/acme/gguf/resolve/"))
    inspect_json("acme/gguf", hub_env(hub, tmp_path))
    ranges = [r for r in hub.requests("/acme/gguf/resolve/")[before:] if r.range]
    size = (hub.root / "gguf" / "tiny-Q8_0.gguf").stat().st_size
    assert len(ranges) >= 3 and sum(r.sent for r in ranges) < size + 4_000


def test_one_gguf_of_several_is_named_with_file(hub, tmp_path):
    env = hub_env(hub, tmp_path)
    err = one_error(run("inspect", "acme/ggufs", env=env), "acme/ggufs (on the hub): 2 *.gguf files")
    assert "name one with --file (e.g. a.gguf)" in err
    assert json.loads(inspect_json("acme/ggufs", env, "--file", "b.gguf"))["path"] == "acme/ggufs/b.gguf"
    one_error(run("inspect", "acme/ggufs", "--file", "c.gguf", env=env), "acme/ggufs: the repo has no file 'c.gguf'")


def test_a_cached_repo_works_offline_for_inspect_too(hub, tmp_path):
    env = hub_env(hub, tmp_path)
    download = ("from huggingface_hub import hf_hub_download\n"
                f"for name in {sorted(p.name for p in (hub.root / 'sharded').iterdir())!r}:\n"
                "    hf_hub_download('acme/sharded', name)")
    done = subprocess.run([sys.executable, "-c", download], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    online = inspect_json("acme/sharded", env)
    before = len(hub.log)
    offline = hub_env(hub, tmp_path, HF_HUB_OFFLINE="1")
    assert inspect_json("acme/sharded", offline) == online
    assert run("count", "acme/sharded", env=offline).returncode == 0
    assert len(hub.log) == before  # nothing asked of the hub


def test_offline_and_not_cached(hub, tmp_path):
    env = hub_env(hub, tmp_path, HF_HUB_OFFLINE="1")
    err = one_error(run("count", "acme/tiny-llama", env=env), "acme/tiny-llama: offline (HF_HUB_OFFLINE=1) and")
    assert "config.json is not in the local cache" in err
    one_error(run("inspect", "acme/tiny-llama", env=env), "acme/tiny-llama: offline (HF_HUB_OFFLINE=1)")


def test_offline_with_only_the_config_cached_names_the_missing_weights(hub, tmp_path):
    assert run("count", "acme/tiny-llama", env=hub_env(hub, tmp_path)).returncode == 0
    err = one_error(run("inspect", "acme/tiny-llama", env=hub_env(hub, tmp_path, HF_HUB_OFFLINE="1")),
                    "acme/tiny-llama: offline (HF_HUB_OFFLINE=1) and no weights file of the repo is in the local cache")
    assert err


def test_a_gated_repo_needs_its_token(hub, tmp_path):
    err = one_error(run("count", "acme/gated", env=hub_env(hub, tmp_path)), "acme/gated: gated repo: accept its terms")
    assert "log in with `hf auth login` or set HF_TOKEN" in err
    one_error(run("inspect", "acme/gated", env=hub_env(hub, tmp_path)), "acme/gated: gated repo")
    env = hub_env(hub, tmp_path, HF_TOKEN="hf_secret")
    before = len(hub.log)
    assert json.loads(inspect_json("acme/gated", env))["total"] == paramledger.inventory(TINY).total
    assert all(r.authorization == "Bearer hf_secret" for r in hub.log[before:])


def test_a_missing_repo_revision_or_file(hub, tmp_path):
    env = hub_env(hub, tmp_path)
    err = one_error(run("count", "acme/nothing-here", env=env), "acme/nothing-here: no such repo on http://127.0.0.1")
    assert "a private repo needs a token" in err
    one_error(run("count", "acme/tiny-llama@v7", env=env), "acme/tiny-llama@v7: no revision 'v7' in acme/tiny-llama")
    one_error(run("inspect", "acme/tiny-llama@v7", env=env), "acme/tiny-llama@v7: no revision 'v7'")
    one_error(run("count", "acme/big", env=env), "acme/big: the repo has no config.json")


def test_the_network_refused(tmp_path):
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = hub_env(None, tmp_path, HF_ENDPOINT=f"http://127.0.0.1:{port}")
    err = one_error(run("count", "acme/tiny-llama", env=env), "acme/tiny-llama: the hub at http://127.0.0.1:")
    assert "refused the connection or cannot be reached, and config.json is not in the local cache" in err


def test_without_the_hub_extra_the_error_says_how_to_fetch(tmp_path):
    code = ("import sys; sys.modules['huggingface_hub'] = None; from paramledger.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "count", "acme/anything"], capture_output=True, text=True,
                          timeout=60, env=hub_env(None, tmp_path))
    one_error(done, "acme/anything: not bundled, and its config.json comes from the hub: pip install "
                    '"paramledger[hub]"')


def _on_a_terminal(*argv, env) -> tuple[int, str]:
    """The CLI run with its stderr on a pseudo-terminal: (exit status, what the terminal got)."""
    import pty

    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "paramledger", *argv], env=env, stdout=subprocess.DEVNULL,
                              stderr=slave, timeout=120)
    finally:
        os.close(slave)
    got = b""
    try:
        while chunk := os.read(master, 65536):
            got += chunk
    except OSError:  # the terminal's other side closed: all read
        pass
    os.close(master)
    return done.returncode, got.decode()


def test_progress_after_a_second_on_a_terminal_and_none_in_a_log_or_with_json(hub, tmp_path):
    hub.delay = 1.1
    try:
        code, terminal = _on_a_terminal("inspect", "acme/tiny-llama", env=hub_env(hub, tmp_path))
        log = run("inspect", "acme/tiny-llama", env=hub_env(hub, tmp_path / "log"))
        quiet = run("inspect", "acme/tiny-llama", "--json", env=hub_env(hub, tmp_path / "other"))
    finally:
        hub.delay = 0.0
    assert code == 0 and log.returncode == 0 and quiet.returncode == 0
    assert "fetching acme/tiny-llama/config.json from the hub" in terminal
    assert "reading the headers of acme/tiny-llama" in terminal
    assert terminal.endswith("\r\x1b[K")  # the status line cleared at the end
    assert log.stderr == "" and quiet.stderr == ""  # a log gets no status lines: a refusal there is one line
