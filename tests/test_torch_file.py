"""PyTorch .bin/.pt files, written by torch.save: read with weights_only (never executing
pickled code), memory-mapped, shared storage recognized as one tensor."""

from __future__ import annotations

import sys

import pytest

torch = pytest.importorskip("torch")

from paramledger._exceptions import (  # noqa: E402
    CheckpointDependencyError,
    SourceError,
    TorchFileError,
    UnsafePickleError,
)
from paramledger.checkpoints import read  # noqa: E402
from paramledger.checkpoints.torch_file import read_torch  # noqa: E402


def tied_state(embed_rows: int = 10) -> dict:
    table = torch.zeros(embed_rows, 4)
    return {"model.embed_tokens.weight": table, "model.norm.weight": torch.ones(4, dtype=torch.bfloat16),
            "lm_head.weight": table}


def test_zip_file_shapes_dtypes_and_bytes(tmp_path):
    path = tmp_path / "pytorch_model.bin"
    torch.save({"a": torch.zeros(3, 5, dtype=torch.float16), "b": torch.zeros(7, dtype=torch.int8)}, path)
    ck = read(path)
    assert ck.format == "pytorch"
    assert {t.name: (t.dtype, t.shape, t.nbytes) for t in ck.tensors} == {
        "a": ("float16", (3, 5), 30), "b": ("int8", (7,), 7)}


def test_shared_storage_is_one_tensor_and_an_alias(tmp_path):
    path = tmp_path / "model.pt"
    torch.save(tied_state(), path)
    ck = read_torch(path)
    assert ck.names() == ["model.embed_tokens.weight", "model.norm.weight"]
    assert ck.aliases == {"lm_head.weight": "model.embed_tokens.weight"}  # the first name in the file owns it
    assert ck.total_values == 44
    assert any("share storage" in note for note in ck.notes)


def test_a_view_is_counted_by_its_own_elements(tmp_path):
    path = tmp_path / "v.pt"
    base = torch.zeros(100)
    torch.save({"slice": base[10:20]}, path)
    assert read_torch(path)["slice"].values == 10


def test_legacy_format_on_the_meta_device(tmp_path):
    path = tmp_path / "legacy.bin"
    torch.save(tied_state(), path, _use_new_zipfile_serialization=False)
    ck = read_torch(path)
    assert ck.total_values == 84  # sharing cannot be seen on the meta device: both tables listed
    assert any("legacy" in note for note in ck.notes)


def test_training_checkpoint_wrapper_is_unwrapped(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"model": {"w": torch.zeros(2, 2)}, "step": 1000, "optimizer": {"lr": 0.1}}, path)
    ck = read_torch(path)
    assert ck.names() == ["w"]
    assert any("'model' key" in note for note in ck.notes)


class _Payload:
    """Unpickling this would run os.system-like code: here, it would create a marker file."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_pickled_code_is_refused_and_never_run(tmp_path):
    path = tmp_path / "evil.bin"
    marker = tmp_path / "executed"
    torch.save({"w": torch.zeros(2), "payload": _Payload(str(marker))}, path)
    with pytest.raises(UnsafePickleError, match=r"evil\.bin: refused: it pickles GLOBAL io\.open, and "
                                                r"paramledger never executes pickled code"):
        read_torch(path)
    assert not marker.exists()


def test_corrupt_file(tmp_path):
    path = tmp_path / "broken.pt"
    path.write_bytes(b"not a pickle at all")
    with pytest.raises(TorchFileError, match=r"broken\.pt: not a readable torch\.save file \(Unsupported operand"):
        read_torch(path)


def test_missing_file(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        read_torch(tmp_path / "nope.bin")


def test_without_torch_a_one_line_error(tmp_path, monkeypatch):
    path = tmp_path / "model.bin"
    torch.save({"w": torch.zeros(2)}, path)
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    with pytest.raises(CheckpointDependencyError, match=r"model\.bin: reading a PyTorch \.bin/\.pt file needs torch"):
        read_torch(path)


def test_sharded_pytorch_folder(tmp_path):
    import json

    torch.save({"a": torch.zeros(2)}, tmp_path / "pytorch_model-00001-of-00002.bin")
    torch.save({"b": torch.zeros(3)}, tmp_path / "pytorch_model-00002-of-00002.bin")
    (tmp_path / "pytorch_model.bin.index.json").write_text(json.dumps(
        {"weight_map": {"a": "pytorch_model-00001-of-00002.bin", "b": "pytorch_model-00002-of-00002.bin"}}))
    ck = read(tmp_path)
    assert ck.names() == ["a", "b"] and ck.format.startswith("pytorch (sharded, 2 files)")
