"""The GGUF header reader: files written by the real gguf library (GGUFWriter), checked
against gguf's own GGUFReader, and hand-written bytes for each way a header can lie."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from paramledger._exceptions import (
    DuplicateTensorError,
    GGUFCountError,
    GGUFMagicError,
    GGUFTensorError,
    GGUFTruncatedError,
    GGUFValueTypeError,
    GGUFVersionError,
    UnknownDtypeError,
)
from paramledger.checkpoints import read
from paramledger.checkpoints.gguf import GGML_TYPES, MAX_ENTRIES, ArraySummary, hf_name, read_gguf
from paramledger.naming import LLAMA


def write_gguf(path, tensors, *, kv=None, arch="llama"):
    """tensors: name -> numpy array (F32/F16) or (raw uint8 bytes array, shape, GGMLQuantizationType)."""
    import gguf

    writer = gguf.GGUFWriter(str(path), arch)
    for key, value in (kv or {}).items():
        if isinstance(value, list) and value and isinstance(value[0], str):
            writer.add_array(key, value)
        elif isinstance(value, str):
            writer.add_string(key, value)
        elif isinstance(value, list):
            writer.add_array(key, value)
        else:
            writer.add_uint32(key, value)
    for name, value in tensors.items():
        if isinstance(value, tuple):
            raw, shape, qtype = value
            writer.add_tensor(name, raw, raw_shape=shape, raw_dtype=qtype)
        else:
            writer.add_tensor(name, value)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def quantized(rows: int, cols: int, qtype_name: str):
    """A raw quantized tensor of rows × cols values, as GGUFWriter stores it (bytes per row)."""
    import gguf

    qtype = gguf.GGMLQuantizationType[qtype_name]
    block, block_bytes = gguf.GGML_QUANT_SIZES[qtype]
    raw = np.zeros((rows, cols // block * block_bytes), np.uint8)
    return raw, (rows, cols // block * block_bytes), qtype


def test_written_file_agrees_with_gguf_reader(tmp_path):
    import gguf

    path = write_gguf(tmp_path / "m.gguf", {
        "token_embd.weight": np.zeros((100, 64), np.float32),
        "blk.0.attn_norm.weight": np.zeros((64,), np.float16),
        "blk.0.attn_q.weight": quantized(64, 64, "Q8_0"),
        "blk.0.ffn_up.weight": quantized(96, 256, "Q4_K"),
        "blk.0.ffn_down.weight": quantized(64, 96, "Q4_0"),
    }, kv={"general.name": "tiny", "tokenizer.ggml.tokens": [f"t{i}" for i in range(100)]})
    ck = read_gguf(path)
    reference = gguf.GGUFReader(str(path))
    ours = {t.name: t for t in ck.tensors}
    for t in reference.tensors:
        mine = ours[t.name]
        assert mine.values == int(t.n_elements)
        assert mine.nbytes == int(t.n_bytes)
        assert mine.shape == tuple(int(d) for d in reversed(t.shape))  # GGUF dims are innermost first
        assert mine.dtype == t.tensor_type.name
    assert ck.metadata["general.name"] == "tiny"
    assert ck.metadata["tokenizer.ggml.tokens"] == ArraySummary("STRING", 100)
    assert ck.format == "gguf v3"


def test_packed_types_count_values_apart_from_bytes(tmp_path):
    path = write_gguf(tmp_path / "q.gguf", {"a.weight": quantized(4, 256, "Q4_K"), "b.weight": quantized(4, 64, "Q4_0"),
                                            "c.weight": quantized(2, 32, "Q8_0")})
    ck = read_gguf(path)
    # Q4_K: 256 values in 144 bytes; Q4_0: 32 in 18; Q8_0: 32 in 34 (ggml type_traits).
    assert (ck["a.weight"].values, ck["a.weight"].nbytes) == (1024, 4 * 144)
    assert (ck["b.weight"].values, ck["b.weight"].nbytes) == (256, 4 * 2 * 18)
    assert (ck["c.weight"].values, ck["c.weight"].nbytes) == (64, 2 * 34)
    assert ck.by_dtype()["Q4_K"] == (1024, 576)


def test_type_table_matches_gguf_library():
    import gguf

    for qtype, (block, block_bytes) in gguf.GGML_QUANT_SIZES.items():
        assert GGML_TYPES[qtype.value] == (qtype.name, block, block_bytes)


def test_read_dispatches_on_suffix_and_magic(tmp_path):
    path = write_gguf(tmp_path / "m.gguf", {"output_norm.weight": np.zeros(8, np.float32)})
    renamed = tmp_path / "weights.bin.part"
    renamed.write_bytes(path.read_bytes())
    assert read(renamed).names() == ["output_norm.weight"]


def test_gguf_names_map_onto_a_family_naming():
    assert hf_name("blk.3.attn_q.weight", LLAMA) == "model.layers.3.self_attn.q_proj.weight"
    assert hf_name("blk.0.ffn_norm.weight", LLAMA) == "model.layers.0.post_attention_layernorm.weight"
    assert hf_name("token_embd.weight", LLAMA) == "model.embed_tokens.weight"
    assert hf_name("output.weight", LLAMA) == "lm_head.weight"
    assert hf_name("blk.0.ffn_gate_exps.weight", LLAMA) is None
    assert hf_name("rope_freqs.weight", LLAMA) is None


# ------------------------------------------------------------------ hand-written bytes


def gstr(text: str | bytes) -> bytes:
    raw = text.encode() if isinstance(text, str) else text
    return struct.pack("<Q", len(raw)) + raw


def header(n_tensors: int, n_kv: int, version: int = 3, magic: bytes = b"GGUF") -> bytes:
    return magic + struct.pack("<IQQ", version, n_tensors, n_kv)


def tensor_info(name: str, dims: list[int], ggml_type: int = 0, offset: int = 0) -> bytes:
    return gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims) \
        + struct.pack("<IQ", ggml_type, offset)


def write(tmp_path, data: bytes):
    path = tmp_path / "x.gguf"
    path.write_bytes(data)
    return path


def padded(data: bytes, alignment: int = 32) -> bytes:
    return data + b"\0" * (-len(data) % alignment)


def test_hand_written_file_reads(tmp_path):
    body = header(1, 1) + gstr("general.architecture") + struct.pack("<I", 8) + gstr("llama") \
        + tensor_info("w", [4, 2])
    path = write(tmp_path, padded(body) + b"\0" * 32)
    ck = read_gguf(path)
    assert ck["w"].shape == (2, 4) and ck["w"].nbytes == 32
    assert ck.metadata == {"general.architecture": "llama"}


def test_bad_magic(tmp_path):
    with pytest.raises(GGUFMagicError, match=r"x\.gguf: not a GGUF file"):
        read_gguf(write(tmp_path, header(0, 0, magic=b"GGML")))


def test_unsupported_version(tmp_path):
    with pytest.raises(GGUFVersionError, match=r"GGUF version 1 is not supported \(only 2, 3\)"):
        read_gguf(write(tmp_path, header(0, 0, version=1)))


def test_big_endian_file(tmp_path):
    with pytest.raises(GGUFVersionError, match=r"big-endian GGUF \(version 3\) is not supported"):
        read_gguf(write(tmp_path, b"GGUF" + struct.pack(">I", 3) + b"\0" * 16))


def test_absurd_tensor_count(tmp_path):
    with pytest.raises(GGUFCountError, match="tensor count 18,446,744,073,709,551,615 is more than the 0 bytes left"):
        read_gguf(write(tmp_path, header(2**64 - 1, 0)))


def test_absurd_key_value_count(tmp_path):
    with pytest.raises(GGUFCountError, match="key-value count 1,000,000,000 is more than"):
        read_gguf(write(tmp_path, header(0, 10**9) + b"\0" * 64))


def test_string_length_beyond_the_file(tmp_path):
    data = header(0, 1) + struct.pack("<Q", 10**6) + b"general"
    with pytest.raises(GGUFTruncatedError,
                       match="metadata key needs 1,000,000 bytes at offset 32 but the file has 7 left"):
        read_gguf(write(tmp_path, data))


def test_string_length_beyond_the_bound(tmp_path):
    data = header(0, 1) + struct.pack("<Q", 2**63) + b"\0" * 16
    with pytest.raises(GGUFCountError, match="metadata key claims 9,223,372,036,854,775,808 bytes"):
        read_gguf(write(tmp_path, data))


def test_truncated_scalar(tmp_path):
    data = header(0, 1) + gstr("general.alignment") + struct.pack("<I", 4) + b"\x20\x00"
    with pytest.raises(GGUFTruncatedError, match=r"value of 'general.alignment' needs 4 bytes"):
        read_gguf(write(tmp_path, data))


def test_unknown_value_type(tmp_path):
    data = header(0, 1) + gstr("x") + struct.pack("<I", 13) + b"\0" * 16
    with pytest.raises(GGUFValueTypeError, match="metadata key 'x' has unknown value type 13"):
        read_gguf(write(tmp_path, data))


def test_array_of_unknown_type(tmp_path):
    data = header(0, 1) + gstr("x") + struct.pack("<IIQ", 9, 77, 1) + b"\0" * 16
    with pytest.raises(GGUFValueTypeError, match="'x' is an array of unknown value type 77"):
        read_gguf(write(tmp_path, data))


def test_array_of_arrays(tmp_path):
    data = header(0, 1) + gstr("x") + struct.pack("<IIQ", 9, 9, 1) + b"\0" * 16
    with pytest.raises(GGUFValueTypeError, match="'x' is an array of arrays"):
        read_gguf(write(tmp_path, data))


def test_absurd_array_length(tmp_path):
    data = header(0, 1) + gstr("x") + struct.pack("<IIQ", 9, 10, 2**40) + b"\0" * 16
    with pytest.raises(GGUFCountError, match="array length of 'x' 1,099,511,627,776 is more than the 16 bytes left"):
        read_gguf(write(tmp_path, data))


def test_long_array_is_summarized_not_kept(tmp_path):
    data = header(0, 1) + gstr("x") + struct.pack("<IIQ", 9, 4, 1000) + b"\0" * 4000
    assert read_gguf(write(tmp_path, data)).metadata["x"] == ArraySummary("UINT32", 1000)


def test_duplicate_key(tmp_path):
    pair = gstr("x") + struct.pack("<II", 4, 1)
    with pytest.raises(GGUFValueTypeError, match="metadata key 'x' appears twice"):
        read_gguf(write(tmp_path, header(0, 2) + pair + pair))


def test_alignment_not_a_power_of_two(tmp_path):
    data = header(0, 1) + gstr("general.alignment") + struct.pack("<II", 4, 24)
    with pytest.raises(GGUFValueTypeError, match="general.alignment must be a power of two, got 24"):
        read_gguf(write(tmp_path, data))


def test_unknown_ggml_type(tmp_path):
    with pytest.raises(UnknownDtypeError, match=r"tensor 'w': unknown ggml type 4"):
        read_gguf(write(tmp_path, padded(header(1, 0) + tensor_info("w", [32], ggml_type=4))))


def test_too_many_dims(tmp_path):
    with pytest.raises(GGUFTensorError, match=r"tensor 'w': 5 dims \(GGML allows at most 4\)"):
        read_gguf(write(tmp_path, padded(header(1, 0) + tensor_info("w", [1, 1, 1, 1, 1]))))


def test_dims_overflow(tmp_path):
    with pytest.raises(GGUFTensorError, match=r"tensor 'w': dims \[4294967296, 4294967296\] overflow"):
        read_gguf(write(tmp_path, padded(header(1, 0) + tensor_info("w", [2**32, 2**32]))))


def test_row_not_a_whole_number_of_blocks(tmp_path):
    with pytest.raises(GGUFTensorError, match=r"tensor 'w': innermost dim 48 is not a multiple of the Q4_K block"):
        read_gguf(write(tmp_path, padded(header(1, 0) + tensor_info("w", [48], ggml_type=12))))


def test_offset_not_where_the_previous_tensor_ends(tmp_path):
    body = header(2, 0) + tensor_info("a", [4]) + tensor_info("b", [4], offset=64)
    with pytest.raises(GGUFTensorError, match=r"tensor 'b': offset 64 where the previous tensors end at 32"):
        read_gguf(write(tmp_path, padded(body) + b"\0" * 128))


def test_truncated_data_section(tmp_path):
    body = header(1, 0) + tensor_info("w", [1024])
    with pytest.raises(GGUFTruncatedError, match=r"the tensor data ends at byte 4,160 but the file has 1,088 bytes"):
        read_gguf(write(tmp_path, padded(body) + b"\0" * 1024))


def test_duplicate_tensor_name(tmp_path):
    body = header(2, 0) + tensor_info("w", [8]) + tensor_info("w", [8], offset=32)
    with pytest.raises(DuplicateTensorError, match=r"tensor 'w': declared twice"):
        read_gguf(write(tmp_path, padded(body) + b"\0" * 64))


def test_tensor_name_too_long(tmp_path):
    with pytest.raises(GGUFCountError, match=r"tensor name claims 64 bytes \(at most 63\)"):
        read_gguf(write(tmp_path, padded(header(1, 0) + tensor_info("x" * 64, [8]))))


def test_truncated_tensor_info(tmp_path):
    with pytest.raises(GGUFTruncatedError, match=r"tensor 'w': dims needs 8 bytes"):
        read_gguf(write(tmp_path, header(1, 0) + gstr("w") + struct.pack("<I", 2) + struct.pack("<Q", 4)
                        + b"\0" * 5))


def test_version_2_reads_like_version_3(tmp_path):
    body = header(1, 0, version=2) + tensor_info("w", [8])
    ck = read_gguf(write(tmp_path, padded(body) + b"\0" * 32))
    assert ck.format == "gguf v2" and ck["w"].values == 8


def test_tensor_count_beyond_the_entry_bound_even_when_the_file_is_large(tmp_path):
    path = write(tmp_path, header(MAX_ENTRIES + 1, 0))
    with open(path, "r+b") as handle:
        handle.truncate(64 * MAX_ENTRIES)  # sparse: room for the count, so only the bound refuses it
    with pytest.raises(GGUFCountError, match="tensor count 1,048,577 is beyond the 1,048,576 bound"):
        read_gguf(path)
