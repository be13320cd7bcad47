"""The safetensors header reader: real files written by the safetensors library, and one
hand-written file per rule of the format (safetensors/src/tensor.rs), each refused with
its own error class and a one-line message naming the file and the tensor."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from paramledger._exceptions import (
    ByteSpanError,
    CheckpointFormatError,
    DataSizeError,
    DuplicateTensorError,
    HeaderBeyondFileError,
    HeaderEncodingError,
    HeaderJSONError,
    HeaderNotObjectError,
    HeaderTooLargeError,
    HeaderTooSmallError,
    MetadataError,
    MissingShardError,
    OffsetGapError,
    OverlappingOffsetsError,
    ShapeError,
    ShardIndexError,
    ShardTensorMissingError,
    SourceError,
    TensorEntryError,
    TruncatedDataError,
    UnknownDtypeError,
)
from paramledger.checkpoints import read
from paramledger.checkpoints.safetensors import DTYPE_BITS, MAX_HEADER_SIZE, read_safetensors


def write_raw(path, header, data: bytes = b"", *, length: int | None = None) -> str:
    """A safetensors file by hand: 8-byte length, header bytes, data."""
    raw = header if isinstance(header, bytes) else json.dumps(header).encode()
    n = len(raw) if length is None else length
    path.write_bytes(struct.pack("<Q", n) + raw + data)
    return str(path)


# ------------------------------------------------------------------ real files


def test_numpy_file_reads_every_dtype_shape_and_byte_size(tmp_path):
    import safetensors.numpy

    tensors = {
        "model.embed_tokens.weight": np.zeros((10, 4), np.float32),
        "model.norm.weight": np.zeros((4,), np.float16),
        "counter": np.zeros((), np.int64),
        "mask": np.zeros((2, 3), np.bool_),
        "empty": np.zeros((0, 5), np.float32),
    }
    path = tmp_path / "model.safetensors"
    safetensors.numpy.save_file(tensors, str(path), metadata={"format": "np"})
    ck = read_safetensors(path)
    assert {t.name: t.shape for t in ck.tensors} == {k: v.shape for k, v in tensors.items()}
    assert {t.name: t.nbytes for t in ck.tensors} == {k: v.nbytes for k, v in tensors.items()}
    assert ck["counter"].dtype == "I64" and ck["mask"].dtype == "BOOL"
    assert ck.total_values == 40 + 4 + 1 + 6 + 0
    assert ck.metadata == {"format": "np"}


def test_torch_file_agrees_with_safe_open(tmp_path):
    import torch
    from safetensors import safe_open
    from safetensors.torch import save_file

    tensors = {"a": torch.zeros(3, 5, dtype=torch.bfloat16), "b": torch.zeros(7, dtype=torch.float8_e4m3fn),
               "c": torch.zeros(2, 2, 2, dtype=torch.float64)}
    path = str(tmp_path / "t.safetensors")
    save_file(tensors, path)
    ck = read_safetensors(path)
    with safe_open(path, "pt") as handle:
        reference = {key: tuple(handle.get_slice(key).get_shape()) for key in handle.keys()}
        dtypes = {key: handle.get_slice(key).get_dtype() for key in handle.keys()}
    assert {t.name: t.shape for t in ck.tensors} == reference
    assert {t.name: t.dtype for t in ck.tensors} == dtypes == {"a": "BF16", "b": "F8_E4M3", "c": "F64"}
    assert ck.by_dtype() == {"F64": (8, 64), "BF16": (15, 30), "F8_E4M3": (7, 7)}


def test_sub_byte_dtype_counts_values_not_bytes(tmp_path):
    # F4 packs two values per byte (Dtype::bitsize = 4): 6 values in 3 bytes.
    path = write_raw(tmp_path / "f4.safetensors", {"w": {"dtype": "F4", "shape": [2, 3], "data_offsets": [0, 3]}},
                     b"\0" * 3)
    t = read_safetensors(path)["w"]
    assert (t.values, t.nbytes) == (6, 3)


def test_known_dtypes_are_the_rust_cores():
    assert set(DTYPE_BITS) == {"BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
                               "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"}


def test_sharded_folder_written_by_save_pretrained(tmp_path):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(vocab_size=96, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2)
    with torch.device("cpu"):
        model = LlamaForCausalLM(config)
    model.save_pretrained(tmp_path, max_shard_size="8KB")
    assert len(list(tmp_path.glob("*.safetensors"))) > 1
    ck = read(tmp_path)
    assert ck.format.startswith("safetensors (sharded")
    state = model.state_dict()
    assert {t.name: t.shape for t in ck.tensors} == {k: tuple(v.shape) for k, v in state.items()}
    assert ck.total_values == sum(p.numel() for p in model.parameters())
    assert {t.file for t in ck.tensors} == {p.name for p in tmp_path.glob("*.safetensors")}


def _two_shards(tmp_path, weight_map):
    import safetensors.numpy

    safetensors.numpy.save_file({"a": np.zeros(2, np.float32)}, str(tmp_path / "s1.safetensors"))
    safetensors.numpy.save_file({"b": np.zeros(3, np.float32)}, str(tmp_path / "s2.safetensors"))
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    return tmp_path


def test_hand_written_index_reads_both_shards(tmp_path):
    ck = read(_two_shards(tmp_path, {"a": "s1.safetensors", "b": "s2.safetensors"}))
    assert ck.names() == ["a", "b"] and ck.total_values == 5


def test_missing_shard(tmp_path):
    folder = _two_shards(tmp_path, {"a": "s1.safetensors", "b": "s3.safetensors"})
    with pytest.raises(MissingShardError, match=r"index\.json: tensor 'b': the index places it in s3\.safetensors"):
        read(folder)


def test_tensor_listed_in_the_index_but_absent_from_its_shard(tmp_path):
    folder = _two_shards(tmp_path, {"a": "s1.safetensors", "b": "s1.safetensors"})
    with pytest.raises(ShardTensorMissingError, match=r"tensor 'b': the index places it in s1\.safetensors, whose "
                                                      r"header does not hold it"):
        read(folder)


def test_shard_outside_the_folder_is_refused(tmp_path):
    folder = _two_shards(tmp_path, {"a": "../s1.safetensors"})
    with pytest.raises(ShardIndexError, match=r"shard '\.\./s1\.safetensors' is not a file name"):
        read(folder)


def test_index_without_weight_map(tmp_path):
    (tmp_path / "model.safetensors.index.json").write_text('{"metadata": {}}')
    with pytest.raises(ShardIndexError, match="needs a 'weight_map' object"):
        read(tmp_path)


def test_tensor_in_two_shards(tmp_path):
    import safetensors.numpy

    folder = _two_shards(tmp_path, {"a": "s1.safetensors", "b": "s2.safetensors"})
    safetensors.numpy.save_file({"b": np.zeros(3, np.float32), "a": np.zeros(2, np.float32)},
                                str(folder / "s2.safetensors"))
    with pytest.raises(DuplicateTensorError, match=r"tensor 'a': stored in both s1\.safetensors and s2\.safetensors"):
        read(folder)


# ------------------------------------------------------------------ hostile files, one rule each

ONE = {"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}


def test_file_shorter_than_the_length_prefix(tmp_path):
    path = tmp_path / "x.safetensors"
    path.write_bytes(b"\x01\x02")
    with pytest.raises(HeaderTooSmallError, match=r"x\.safetensors: 2 bytes: shorter than the 8-byte header length"):
        read_safetensors(path)


def test_header_length_beyond_the_bound_is_refused_before_reading(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b"{}", length=MAX_HEADER_SIZE + 1)
    with pytest.raises(HeaderTooLargeError, match="header length 100,000,001 bytes exceeds the 100,000,000-byte bound"):
        read_safetensors(path)


def test_header_length_beyond_the_file(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b"{}", length=5000)
    with pytest.raises(HeaderBeyondFileError, match="header length 5,000 bytes runs past the end of the 10-byte file"):
        read_safetensors(path)


def test_truncated_data_section(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", ONE, b"\0" * 5)
    with pytest.raises(TruncatedDataError, match=r"tensor 'w': needs bytes up to 8 but the data section holds 5: "
                                                 "the file is truncated"):
        read_safetensors(path)


def test_header_not_utf8(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b'{"\xff": 1}')
    with pytest.raises(HeaderEncodingError, match=r"header is not UTF-8 \(byte 2 of the header\)"):
        read_safetensors(path)


def test_header_invalid_json(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b'{"w": ')
    with pytest.raises(HeaderJSONError, match="header is not valid JSON: Expecting value"):
        read_safetensors(path)


def test_header_nested_too_deep_for_the_parser(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b"[" * 200_000)
    with pytest.raises(HeaderJSONError, match="nested too deeply"):
        read_safetensors(path)


def test_header_with_nan_is_not_json(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b'{"__metadata__": {"x": NaN}}')
    with pytest.raises(HeaderJSONError, match="NaN is not JSON"):
        read_safetensors(path)


def test_header_not_an_object(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", b"[1, 2]")
    with pytest.raises(HeaderNotObjectError, match="header is a JSON list, not an object"):
        read_safetensors(path)


def test_unknown_dtype(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F128", "shape": [1], "data_offsets": [0, 16]}},
                     b"\0" * 16)
    with pytest.raises(UnknownDtypeError, match=r"tensor 'w': unknown dtype 'F128'"):
        read_safetensors(path)


@pytest.mark.parametrize("shape", [[-1, 2], [2.0], "2", [True], None])
def test_shape_negative_or_not_integers(tmp_path, shape):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": shape, "data_offsets": [0, 8]}},
                     b"\0" * 8)
    with pytest.raises(ShapeError, match=r"tensor 'w': shape must be a list of non-negative integers"):
        read_safetensors(path)


def test_entry_missing_a_field(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": [2]}}, b"\0" * 8)
    with pytest.raises(TensorEntryError, match=r"tensor 'w': entry has no 'data_offsets'"):
        read_safetensors(path)


def test_offsets_not_two_integers(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": [2], "data_offsets": [0]}})
    with pytest.raises(TensorEntryError, match=r"tensor 'w': data_offsets must be two non-negative integers"):
        read_safetensors(path)


def test_overlapping_offsets(tmp_path):
    header = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
              "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}
    path = write_raw(tmp_path / "x.safetensors", header, b"\0" * 12)
    with pytest.raises(OverlappingOffsetsError, match=r"tensor 'b': bytes \[4, 12\) overlap 'a' \(which ends at 8\)"):
        read_safetensors(path)


def test_gap_between_offsets(tmp_path):
    header = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
              "b": {"dtype": "F32", "shape": [2], "data_offsets": [12, 20]}}
    path = write_raw(tmp_path / "x.safetensors", header, b"\0" * 20)
    with pytest.raises(OffsetGapError, match=r"tensor 'b': starts at byte 12: bytes \[8, 12\) after 'a' belong to no "
                                             "tensor"):
        read_safetensors(path)


def test_first_tensor_not_at_zero(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}},
                     b"\0" * 8)
    with pytest.raises(OffsetGapError, match=r"tensor 'w': starts at byte 4: bytes \[0, 4\) belong to no tensor"):
        read_safetensors(path)


def test_byte_span_not_shape_times_dtype(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}},
                     b"\0" * 8)
    with pytest.raises(ByteSpanError, match=r"tensor 'w': F32 \[3\] takes 12 bytes but data_offsets span 8"):
        read_safetensors(path)


def test_span_not_whole_bytes(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}},
                     b"\0" * 2)
    with pytest.raises(ByteSpanError, match=r"tensor 'w': F4 \[3\] is 12 bits, not a whole number of bytes"):
        read_safetensors(path)


def test_absurd_shape_refused_without_computing_it(tmp_path):
    shape = [10**18] * 1000  # a 18,000-digit product: the checked multiplication stops at once
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": shape, "data_offsets": [0, 8]}},
                     b"\0" * 8)
    with pytest.raises(ByteSpanError, match="the byte count overflows 64 bits"):
        read_safetensors(path)


def test_end_before_begin(tmp_path):
    header = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
              "b": {"dtype": "F32", "shape": [0], "data_offsets": [8, 4]}}
    path = write_raw(tmp_path / "x.safetensors", header, b"\0" * 8)
    with pytest.raises(ByteSpanError, match=r"tensor 'b': data_offsets \[8, 4\) end before they begin"):
        read_safetensors(path)


def test_empty_tensors_may_share_an_offset(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]},
                                                  "v": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}})
    assert read_safetensors(path).total_values == 0  # as the Rust core allows


def test_last_offset_not_the_data_size(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", ONE, b"\0" * 12)
    with pytest.raises(DataSizeError, match="the tensors end at byte 8 of a 12-byte data section: 4 bytes belong to "
                                            "no tensor"):
        read_safetensors(path)


@pytest.mark.parametrize("metadata", [{"format": 1}, ["pt"], "pt"])
def test_metadata_not_string_to_string(tmp_path, metadata):
    path = write_raw(tmp_path / "x.safetensors", {"__metadata__": metadata, **ONE}, b"\0" * 8)
    with pytest.raises(MetadataError, match="__metadata__ must map strings to strings"):
        read_safetensors(path)


def test_tensor_declared_twice(tmp_path):
    raw = b'{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, "w": {"dtype": "F32", "shape": [2], ' \
          b'"data_offsets": [0, 8]}}'
    path = write_raw(tmp_path / "x.safetensors", raw, b"\0" * 8)
    with pytest.raises(DuplicateTensorError, match=r"tensor 'w': declared twice in the header"):
        read_safetensors(path)


def test_entry_not_an_object(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"w": [1, 2]})
    with pytest.raises(TensorEntryError, match=r"tensor 'w': entry is a JSON list, not an object"):
        read_safetensors(path)


def test_a_name_with_a_newline_stays_on_one_line(tmp_path):
    path = write_raw(tmp_path / "x.safetensors", {"a\nb": {"dtype": "X", "shape": [], "data_offsets": [0, 0]}})
    with pytest.raises(UnknownDtypeError) as caught:
        read_safetensors(path)
    assert "\n" not in str(caught.value) and "'a\\nb'" in str(caught.value)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        read_safetensors(tmp_path / "nope.safetensors")
    with pytest.raises(SourceError, match="is a folder"):
        read_safetensors(tmp_path)


def test_every_error_is_a_file_format_error():
    for cls in (HeaderTooLargeError, HeaderBeyondFileError, ByteSpanError, OffsetGapError, MissingShardError):
        assert issubclass(cls, CheckpointFormatError)
