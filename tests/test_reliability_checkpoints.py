"""Issue 23: hostile checkpoints, indexes and tokenizer.json files beside them: one line,
exit 2, no traceback, bounded time and memory; names printed with control characters escaped."""

from __future__ import annotations

import json
import time

import pytest
from test_reliability_inputs import refused, refused_bounded

from paramledger.checkpoints import read


def safetensors_file(path, header: dict, data: bytes = b"") -> str:
    raw = json.dumps(header).encode()
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + data)
    return str(path)


def index_file(path, weight_map: dict) -> str:
    path.write_text(json.dumps({"metadata": {}, "weight_map": weight_map}), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- tracebacks 6, 7


def test_index_that_names_itself_is_refused(cli, tmp_path):
    index = index_file(tmp_path / "model.safetensors.index.json", {"w": "model.safetensors.index.json"})
    refused(cli, "inspect", index, match=r"shard 'model\.safetensors\.index\.json' is an index json")


def test_two_indexes_naming_each_other_are_refused(cli, tmp_path):
    index_file(tmp_path / "b.index.json", {"w": "a.index.json"})
    index = index_file(tmp_path / "a.index.json", {"w": "b.index.json"})
    refused(cli, "inspect", index, match=r"shard 'b\.index\.json' is an index json, not a weights file")


def checkpoint_with_tokenizer(tmp_path, tokenizer: dict) -> str:
    safetensors_file(tmp_path / "model.safetensors", {"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}},
                     bytes(8))
    (tmp_path / "tokenizer.json").write_text(json.dumps(tokenizer), encoding="utf-8")
    return str(tmp_path / "model.safetensors")


def test_tokenizer_json_with_added_tokens_5_does_not_break_inspect(cli, tmp_path):
    path = checkpoint_with_tokenizer(tmp_path, {"model": {"vocab": {"a": 0}}, "added_tokens": 5})
    status, out, err = cli("inspect", path)
    assert status == 0, err
    assert "Traceback" not in err


def test_tokenizer_with_negative_ids_is_counted_as_count_counts_it(tmp_path):
    from paramledger.checkpoints.inspection import tokenizer_vocabulary
    from paramledger.tokenizer_vocab import read_tokenizer_vocabulary

    path = checkpoint_with_tokenizer(tmp_path, {"model": {"vocab": {"a": -50, "b": -60}}, "added_tokens": []})
    tokenizer = tmp_path / "tokenizer.json"
    assert tokenizer_vocabulary(tokenizer) == read_tokenizer_vocabulary(tokenizer).size == 2
    assert read(path).tensors


def test_deeply_nested_tokenizer_json_is_reported_not_raised(tmp_path):
    from paramledger.tokenizer_vocab import tokenizer_note

    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "vocab_size": 10}), encoding="utf-8")
    (tmp_path / "tokenizer.json").write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    assert "nested too deeply" in tokenizer_note(tmp_path / "config.json")


def test_deeply_nested_index_json_is_refused(cli, tmp_path):
    (tmp_path / "model.safetensors.index.json").write_text('{"weight_map": ' + "[" * 5000 + "]" * 5000 + "}")
    refused(cli, "inspect", str(tmp_path), match=r"index\.json: nested too deeply")


# --------------------------------------------------------------------------- hangs 4, 5


def test_20000_u8_weights_are_sorted_in_linear_time(cli, tmp_path):
    header = {f"model.layers.{i}.weight": {"dtype": "U8", "shape": [1], "data_offsets": [i, i + 1]}
              for i in range(20_000)}
    path = safetensors_file(tmp_path / "model.safetensors", header, bytes(20_000))
    start = time.monotonic()
    status, out, err = cli("inspect", path, "--json")
    assert status == 0, err
    assert time.monotonic() - start < 10  # 73 s when every name was compared with every other
    assert json.loads(out)["kinds"]["parameter"]["tensors"] == 20_000


def test_header_with_a_million_tensors_is_refused_at_once(tmp_path):
    entries = ",".join(f'"t{i}":{{"dtype":"U8","shape":[1],"data_offsets":[{i},{i + 1}]}}' for i in range(1_000_000))
    raw = ("{" + entries + "}").encode()
    (tmp_path / "many.safetensors").write_bytes(len(raw).to_bytes(8, "little") + raw + bytes(1_000_000))
    refused_bounded(tmp_path, "inspect", "many.safetensors",
                    match=r"about 1,000,000 tensors in one header: beyond the bound of 200,000")


def test_shape_with_49_million_dimensions_is_refused_at_once(tmp_path):
    raw = b'{"w":{"dtype":"U8","shape":[' + b"1," * 49_000_000 + b'1],"data_offsets":[0,1]}}'
    (tmp_path / "dims.safetensors").write_bytes(len(raw).to_bytes(8, "little") + raw + b"\0")
    refused_bounded(tmp_path, "inspect", "dims.safetensors", match=r"more than 2,000,000 values")


# --------------------------------------------------------------------------- wrong 4: as the library reads it


@pytest.mark.parametrize("shape", [[0, 10**400], [0, 2**64], [2**40, 2**40, 0], [2**63, 4]])
def test_shape_the_safetensors_library_refuses_is_refused(cli, tmp_path, shape):
    safe_open = pytest.importorskip("safetensors").safe_open
    path = tmp_path / "x.safetensors"
    raw = ('{"w": {"dtype": "U8", "shape": [' + ", ".join(map(str, shape)) + '], "data_offsets": [0, 0]}}').encode()
    path.write_bytes(len(raw).to_bytes(8, "little") + raw)
    with pytest.raises(Exception):
        safe_open(str(path), "np")
    refused(cli, "inspect", str(path), match=r"tensor 'w': ")


@pytest.mark.parametrize("shape", [[0, 2**63], [2**32, 0, 2**32 - 1]])
def test_shape_the_safetensors_library_accepts_is_accepted(tmp_path, shape):
    safe_open = pytest.importorskip("safetensors").safe_open
    path = tmp_path / "x.safetensors"
    raw = json.dumps({"w": {"dtype": "U8", "shape": shape, "data_offsets": [0, 0]}}).encode()
    path.write_bytes(len(raw).to_bytes(8, "little") + raw)
    with safe_open(str(path), "np") as opened:
        assert list(opened.keys()) == ["w"]
    assert read(path).tensors[0].shape == tuple(shape)


# --------------------------------------------------------------------------- files and terminal 2, 3, 4


def test_escape_sequence_in_a_tensor_name_is_printed_escaped(cli, tmp_path):
    name = "\x1b]0;PWNED\x07model.weight\nsecond line"
    path = safetensors_file(tmp_path / "model.safetensors", {name: {"dtype": "F32", "shape": [2],
                                                                     "data_offsets": [0, 8]}}, bytes(8))
    status, out, err = cli("inspect", path, "--tensors")
    assert status == 0, err
    assert "\x1b" not in out and "\x07" not in out
    assert r"\x1b]0;PWNED\x07model.weight\nsecond line" in out
    status, out, err = cli("inspect", path, "--json")
    assert json.loads(out)["tensors"][0]["name"] == name  # JSON keeps the exact name, escaped by JSON


def test_newline_in_a_shard_name_makes_one_error_line(cli, tmp_path):
    index = index_file(tmp_path / "model.safetensors.index.json", {"w": "shard\nname.safetensors"})
    line = refused(cli, "inspect", index, match=r"shard\\nname\.safetensors")
    assert "\n" not in line


def test_newline_in_a_source_path_makes_one_error_line(cli, tmp_path):
    refused(cli, "count", str(tmp_path / "a\nb.json"), match=r"a\\nb\.json: no such file")


def test_million_dimension_shape_mismatch_is_one_short_line(cli, tmp_path):
    shape = [1] * 1_000_000
    path = safetensors_file(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": shape,
                                                               "data_offsets": [0, 8]}}, bytes(8))
    line = refused(cli, "inspect", path, match=r"tensor 'w': F32 \[1, 1, .*takes 4 bytes but data_offsets span 8")
    assert len(line) < 500


def test_million_dimension_shape_is_printed_as_one_short_cell(cli, tmp_path):
    shape = [1] * 100_000
    path = safetensors_file(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": shape,
                                                               "data_offsets": [0, 4]}}, bytes(4))
    status, out, err = cli("inspect", path, "--tensors")
    assert status == 0, err
    assert "(100,000 dimensions)" in out
    assert max(len(line) for line in out.splitlines()) < 500


def test_gguf_size_label_of_5000_digits_is_ignored_not_raised(cli, tmp_path):
    import struct

    def text(raw: bytes) -> bytes:
        return struct.pack("<Q", len(raw)) + raw

    label = text(b"general.size_label") + struct.pack("<I", 8) + text(b"9" * 5000 + b"B")
    path = tmp_path / "label.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + label)
    status, out, err = cli("inspect", str(path), "--json")
    assert status == 0, err
    assert json.loads(out)["name_size"] is None or json.loads(out)["name_size"]["label"] != "9" * 5000 + "B"


def gguf_with_strings(path, key: str, strings: list[str]) -> str:
    """A GGUF file written by the gguf package: one string array (or string) and one small tensor."""
    gguf = pytest.importorskip("gguf")
    import numpy as np

    writer = gguf.GGUFWriter(str(path), "llama")
    if len(strings) == 1:
        writer.add_string(key, strings[0])
    else:
        writer.add_array(key, strings)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return str(path)


def test_gguf_string_array_beyond_its_bound_is_refused_at_once(tmp_path, monkeypatch):
    """25 M empty strings took 31 s to read one by one: a string array is bounded by count (MAX_STRINGS,
    2,097,152 in the reader; 1,000 here so the file stays small)."""
    from paramledger._exceptions import FileFormatError
    from paramledger.checkpoints import gguf as reader

    monkeypatch.setattr(reader, "MAX_STRINGS", 1000)
    path = gguf_with_strings(tmp_path / "many.gguf", "tokenizer.ggml.tokens", [""] * 1001)
    with pytest.raises(FileFormatError, match=r"array length of 'tokenizer.ggml.tokens' 1,001 is beyond the 1,000"):
        read(path)


def test_gguf_strings_past_the_kept_budget_are_read_over_not_kept(tmp_path, monkeypatch):
    """16 strings of 64 MiB made 1.2 GB: past MAX_KEPT bytes of kept strings, a string is skipped and said
    to be (a budget of 1 MiB here, strings of 400 kB)."""
    from paramledger.checkpoints import gguf as reader

    monkeypatch.setattr(reader, "MAX_KEPT", 1 << 20)
    path = tmp_path / "long.gguf"
    gguf = pytest.importorskip("gguf")
    import numpy as np

    writer = gguf.GGUFWriter(str(path), "llama")
    for i in range(4):
        writer.add_string(f"general.note{i}", "x" * 400_000)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    checkpoint = read(str(path))
    notes = [value for key, value in checkpoint.metadata.items() if key.startswith("general.note")]
    assert notes[:2] == ["x" * 400_000] * 2
    assert notes[2:] == ["<400,000 bytes not kept: the strings kept already hold 1,048,576>"] * 2


def test_torch_file_nested_5000_deep_is_refused_in_one_line(cli, tmp_path):
    """A list nested 5,000 deep beside the weights raised RecursionError; the walk is now a loop, bounded."""
    torch = pytest.importorskip("torch")
    import sys

    nested: list = []
    inner = nested
    for _ in range(5000):
        inner.append([])
        inner = inner[0]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)  # torch.save pickles it recursively
    try:
        torch.save({"weight": torch.zeros(2, 2), "nested": nested}, tmp_path / "nested.pt")
    finally:
        sys.setrecursionlimit(limit)
    code, out, err = cli("inspect", str(tmp_path / "nested.pt"))
    assert code == 2 and not out and err.count("\n") == 1
    assert "nested more than 64 levels deep" in err
