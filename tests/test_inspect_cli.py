"""`paramledger inspect`: the text view, the JSON object, and one-line errors with status 2."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys

import numpy as np


def save_numpy(path, tensors, metadata=None):
    import safetensors.numpy

    safetensors.numpy.save_file(tensors, str(path), metadata=metadata)
    return path


TINY = {"model_type": "llama", "vocab_size": 16, "hidden_size": 8, "intermediate_size": 16, "num_hidden_layers": 1,
        "num_attention_heads": 2, "tie_word_embeddings": True}


def tiny_llama_folder(tmp_path, *, extra=None, drop=()):
    import paramledger

    inv = paramledger.inventory(TINY)
    tensors = {t.name: np.zeros(t.shape, np.float16) for t in inv.tensors if t.name not in drop}
    tensors.update(extra or {})
    folder = tmp_path / "tiny-llama-1m"
    folder.mkdir()
    save_numpy(folder / "model.safetensors", tensors)
    (folder / "config.json").write_text(json.dumps(TINY))
    return folder, inv


def test_text_view_with_the_config_beside(cli, tmp_path):
    folder, inv = tiny_llama_folder(tmp_path, extra={"model.rotary_emb.inv_freq": np.zeros(2, np.float32)})
    status, out, err = cli("inspect", str(folder))
    assert status == 0 and err == ""
    assert f"model.safetensors: safetensors, {len(inv.tensors) + 1} tensors, {inv.total + 2:,} stored values" in out
    assert "F16" in out and "buffer" in out
    assert "model.rotary_emb.inv_freq 2: a registered buffer (inv_freq), not learned" in out
    assert f"the config's inventory counts {inv.total:,}; the file stores {inv.total + 2:,} values (+2)" in out
    assert "tied head not stored: lm_head.weight is model.embed_tokens.weight" in out
    assert "the differences add up to +2: every value accounted for" in out
    assert f"name: the name 'tiny-llama-1m' says 1m (1,000,000): the config counts {inv.total:,}" in out


def test_json_has_total_and_tensors(cli, tmp_path):
    folder, inv = tiny_llama_folder(tmp_path)
    status, out, _ = cli("inspect", str(folder / "model.safetensors"), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["total"] == data["parameters"] == inv.total
    assert len(data["tensors"]) == len(inv.tensors)
    embed = next(t for t in data["tensors"] if t["name"] == "model.embed_tokens.weight")
    assert embed == {"name": "model.embed_tokens.weight", "dtype": "F16", "shape": [16, 8], "values": 128,
                     "bytes": 256, "kind": "parameter", "component": "embedding", "layer": None,
                     "parameters": 128, "matches": "model.embed_tokens.weight", "file": None}
    assert data["by_dtype"] == {"F16": {"tensors": len(inv.tensors), "values": inv.total, "bytes": 2 * inv.total}}
    assert data["reconcile"]["balanced"] is True
    assert data["reconcile"]["differences"][0]["kind"] == "tied_head_not_stored"


def test_explicit_config_and_tensor_listing(cli, tmp_path):
    folder, inv = tiny_llama_folder(tmp_path, drop=("model.norm.weight",))
    weights = tmp_path / "elsewhere.safetensors"
    weights.write_bytes((folder / "model.safetensors").read_bytes())
    status, out, _ = cli("inspect", str(weights), "--config", str(folder / "config.json"), "--tensors")
    assert status == 0
    assert "missing: 1 tensors of the config are not stored (-8 values): model.norm.weight" in out
    assert "model.layers.0.mlp.up_proj.weight" in out.split("tensor ", 1)[1]


def test_without_a_config(cli, tmp_path):
    path = save_numpy(tmp_path / "w.safetensors", {"a": np.zeros((2, 3), np.float32)})
    status, out, _ = cli("inspect", str(path))
    assert status == 0
    assert "reconciled" not in out
    assert re.search(r"^other +6$", out, re.MULTILINE) and re.search(r"^parameters +6$", out, re.MULTILINE)


def test_gguf_file(cli, tmp_path):
    import gguf

    path = tmp_path / "m.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_tensor("token_embd.weight", np.zeros((16, 32), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    status, out, _ = cli("inspect", str(path), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["format"] == "gguf v3" and data["total"] == 512
    assert data["metadata"]["general.architecture"] == "llama"
    assert data["tensors"][0]["component"] == "embedding"


def test_malformed_file_is_one_line_and_status_2(cli, tmp_path):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", 10**9) + b"{}")
    status, out, err = cli("inspect", str(path))
    assert status == 2 and out == ""
    assert err == f"paramledger: error: {path}: header length 1,000,000,000 bytes exceeds the 100,000,000-byte bound\n"


def test_missing_path(cli, tmp_path):
    status, _, err = cli("inspect", str(tmp_path / "nope"))
    assert status == 2
    assert err.strip() == f"paramledger: error: {tmp_path / 'nope'}: no such file or folder"


def test_folder_without_a_checkpoint(cli, tmp_path):
    status, _, err = cli("inspect", str(tmp_path))
    assert status == 2
    assert "no checkpoint here (no index json, .safetensors, .gguf, .bin or .pt)" in err


def test_unknown_file_kind(cli, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    status, _, err = cli("inspect", str(path))
    assert status == 2 and "not a .safetensors, .gguf, .bin/.pt file or an index json" in err


def test_explicit_config_that_does_not_load(cli, tmp_path):
    folder, _ = tiny_llama_folder(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"model_type": "speecht5"}')
    status, _, err = cli("inspect", str(folder), "--config", str(bad))
    assert status == 2 and "model_type 'speecht5' is not supported" in err


def test_several_files_without_an_index(cli, tmp_path):
    for i in range(2):
        save_numpy(tmp_path / f"part{i}.safetensors", {"a": np.zeros(1, np.float32)})
    status, _, err = cli("inspect", str(tmp_path))
    assert status == 2 and "2 *.safetensors files and no index json; pass one file (e.g. part0.safetensors)" in err


def test_packed_and_quantization_tensors_without_a_config(cli, tmp_path):
    # A GPTQ layer as AutoGPTQ stores it: 4-bit values eight to an int32 (bits default to 4).
    path = save_numpy(tmp_path / "gptq.safetensors", {
        "layer.q_proj.qweight": np.zeros((4, 32), np.int32), "layer.q_proj.scales": np.zeros((1, 32), np.float16),
        "layer.q_proj.qzeros": np.zeros((1, 4), np.int32), "layer.q_proj.g_idx": np.zeros(32, np.int32)})
    status, out, _ = cli("inspect", str(path))
    assert status == 0
    assert "layer.q_proj.qweight 4 × 32: 128 I32 elements for 1,024 parameters (low-bit values packed into 32-bit " \
           "integers)" in out
    assert "layer.q_proj.scales 1 × 32: quantization" in out
    data = json.loads(cli("inspect", str(path), "--json")[1])
    assert data["parameters"] == 1024 and data["total"] == 128 + 32 + 4 + 32
    assert data["kinds"] == {"packed": {"tensors": 1, "values": 128}, "quantization": {"tensors": 3, "values": 68}}


def test_name_option(cli, tmp_path):
    folder, inv = tiny_llama_folder(tmp_path)
    status, out, _ = cli("inspect", str(folder), "--name", "org/Tiny-8x1M-A1M")
    assert status == 0
    assert "name: the name 'Tiny-8x1M-A1M' says 8x1M (8 × 1,000,000 = 8,000,000)" in out
    assert "name: the name's A1M is an active count per token (1,000,000), not the total" in out


def test_headers_are_read_without_torch_numpy_safetensors_or_gguf(tmp_path):
    """The readers are the standard library only: a fresh interpreter that refuses torch,
    transformers, numpy, safetensors and gguf still inspects and reconciles both formats."""
    import subprocess
    import sys
    import textwrap

    import gguf

    folder, inv = tiny_llama_folder(tmp_path)
    gguf_path = tmp_path / "m.gguf"
    writer = gguf.GGUFWriter(str(gguf_path), "llama")
    writer.add_tensor("token_embd.weight", np.zeros((16, 32), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    script = textwrap.dedent(f"""
        import sys
        from importlib.abc import MetaPathFinder

        BLOCKED = ("torch", "transformers", "numpy", "safetensors", "gguf")

        class Refuse(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ImportError(name + " is blocked in this test")
                return None

        sys.meta_path.insert(0, Refuse())
        from paramledger.cli import main
        assert main(["inspect", {str(folder)!r}, "--json"]) == 0
        assert main(["inspect", {str(gguf_path)!r}]) == 0
        assert not any(name.split(".")[0] in BLOCKED for name in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.split("\n}\n")[0] + "\n}")["total"] == inv.total
    assert "gguf v3, 1 tensors, 512 stored values" in result.stdout


def test_a_pipe_is_refused_not_read(tmp_path):
    """Headers are read by offset; opening a pipe would block until a writer came (it hung before)."""
    pipe = tmp_path / "model.safetensors"
    os.mkfifo(pipe)
    process = subprocess.run([sys.executable, "-m", "paramledger", "inspect", str(pipe)],
                             capture_output=True, text=True, timeout=60)
    assert process.returncode == 2
    assert process.stderr == f"paramledger: error: {pipe}: not a regular file or a folder\n"
