"""A PyTorch .bin/.pt file (torch.save), read for its tensors' dtypes and shapes only.

Pickle can run arbitrary code, so the file is opened with ``weights_only=True`` (torch's
restricted unpickler: tensors, dicts, lists and numbers only) and a file that needs more
is refused, never executed.  A zip-format file (torch >= 1.6) is memory-mapped
(``mmap=True``): no weight is read, and tensors that share storage (a tied head pickled
twice) are recognized by address.  A legacy-format file is loaded onto the meta device,
where shared storage cannot be recognized (said in a note).
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Mapping
from typing import Any

from .._exceptions import CheckpointDependencyError, SourceError, TorchFileError, UnsafePickleError
from ..limits import MAX_DEPTH
from ._stored import Checkpoint, StoredTensor
from .safetensors import natural_key

# Keys training scripts wrap a state dict in (a {"model": ..., "optimizer": ...} checkpoint).
_WRAPPERS = ("state_dict", "model", "model_state_dict", "module")


def read_torch(path: str | os.PathLike[str], *, file_label: str | None = None) -> Checkpoint:
    path = os.fspath(path)
    try:
        import torch
    except ImportError:
        raise CheckpointDependencyError(path, "reading a PyTorch .bin/.pt file needs torch "
                                              "(pip install torch), or convert it to .safetensors") from None
    if not os.path.isfile(path):
        raise SourceError(path, "no such file")
    zipped = zipfile.is_zipfile(path)
    notes: list[str] = []
    try:
        if zipped:
            loaded = torch.load(path, map_location="cpu", mmap=True, weights_only=True)
        else:
            loaded = torch.load(path, map_location="meta", weights_only=True)
            notes.append("legacy (non-zip) torch.save format: loaded on the meta device, where tensors sharing "
                         "storage cannot be recognized")
    except Exception as error:  # torch raises UnpicklingError, RuntimeError, EOFError, ... for bad files
        raise _refusal(path, error) from None
    flat, skipped, unwrapped = _flatten(loaded, torch, path)
    if unwrapped:
        notes.append(f"the tensors are under the {unwrapped!r} key; other keys are ignored")
    if skipped:
        notes.append(f"{skipped} non-tensor value(s) ignored")
    tensors: list[StoredTensor] = []
    aliases: dict[str, str] = {}
    owners: dict[tuple[Any, ...], str] = {}
    for name, tensor in flat.items():  # file order: the first name owns shared storage
        if tensor.device.type != "meta":
            key = (tensor.untyped_storage().data_ptr(), tensor.storage_offset(), tuple(tensor.shape),
                   tensor.stride(), tensor.dtype)
            if key in owners:
                aliases[name] = owners[key]
                continue
            owners[key] = name
        dtype = str(tensor.dtype).removeprefix("torch.")
        tensors.append(StoredTensor(name, dtype, tuple(tensor.shape), tensor.numel() * tensor.element_size(),
                                    file_label))
    tensors.sort(key=lambda t: natural_key(t.name))
    if aliases:
        notes.append(f"{len(aliases)} name(s) share storage with another tensor (stored once): "
                     + ", ".join(f"{a} -> {t}" for a, t in list(aliases.items())[:3]))
    return Checkpoint(path, "pytorch", tuple(tensors), {}, aliases, tuple(notes))


def _refusal(path: str, error: Exception) -> Exception:
    """One line from torch's many-line message: a disallowed global is a refusal, anything
    else a file torch cannot read."""
    text = str(error)
    detail = text.split("WeightsUnpickler error:", 1)[1] if "WeightsUnpickler error:" in text else text
    detail = next((line.strip() for line in detail.splitlines() if line.strip()), error.__class__.__name__)
    if "Unsupported global" in detail:
        culprit = detail.split("Unsupported global:", 1)[1].split(" was not", 1)[0].strip()
        return UnsafePickleError(path, f"refused: it pickles {culprit}, and paramledger never executes pickled "
                                       "code (weights_only=True)")
    return TorchFileError(path, f"not a readable torch.save file ({detail[:120]})")


def _flatten(loaded: Any, torch: Any, path: str) -> tuple[dict[str, Any], int, str | None]:
    unwrapped = None
    if isinstance(loaded, Mapping) and not any(isinstance(v, torch.Tensor) for v in loaded.values()):
        for key in _WRAPPERS:
            if isinstance(loaded.get(key), Mapping):
                loaded, unwrapped = loaded[key], key
                break
    flat: dict[str, Any] = {}
    skipped = 0
    stack: list[tuple[Any, str, int]] = [(loaded, "", 0)]  # walked without recursion, in file order
    while stack:
        value, prefix, depth = stack.pop()
        if isinstance(value, torch.Tensor):
            flat[prefix] = value
            continue
        if isinstance(value, Mapping):
            items = [(str(key), item) for key, item in value.items()]
        elif isinstance(value, (list, tuple)):
            items = [(str(i), item) for i, item in enumerate(value)]
        else:
            skipped += 1
            continue
        if depth >= MAX_DEPTH:
            raise TorchFileError(path, f"nested more than {MAX_DEPTH} levels deep (at {prefix[:80] or 'the top'}): "
                                       "no state dict is")
        stack.extend((item, f"{prefix}.{key}" if prefix else key, depth + 1) for key, item in reversed(items))
    return flat, skipped, unwrapped
