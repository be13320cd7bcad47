"""Every failure paramledger reports to a user.

Each error is one line that names what is wrong and where (the key, the file, the
model).  The CLI prints ``str(error)`` on stderr and exits with status 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to ``word``, or None when nothing is close."""
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def same_thing_misspelt(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` is a near-spelling of, with the same numbers in it ("lama" for "llama",
    "Qwen-2" for "qwen2"); None for another thing ("deepseek_v4" is not "deepseek_v3")."""
    def digits(text: str) -> str:
        return "".join(filter(str.isdigit, text))

    def plain(text: str) -> str:
        return "".join(char for char in text.lower() if char.isalnum())

    candidates = list(candidates)
    by_plain = {plain(candidate): candidate for candidate in candidates}
    if plain(word) in by_plain:
        return by_plain[plain(word)]
    found = difflib.get_close_matches(word.lower(), candidates, n=3, cutoff=0.8)
    return next((match for match in found if digits(match) == digits(word)), None)


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    match = closest(word, candidates)
    return f" (did you mean {match!r}?)" if match else ""


def quoted(value: object, limit: int = 80) -> str:
    """repr(value), cut to ``limit`` characters: a 1 M-dimension shape or a 10 MB name quoted in
    a message keeps the line short."""
    if isinstance(value, (list, tuple)) and len(value) > 16:
        value = [*value[:16], ...]
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class ParamledgerError(Exception):
    """Base class: a one-line message for the user."""


class ArchitectureError(ParamledgerError, ValueError):
    """A declared architecture is inconsistent; ``key`` names the field at fault."""

    def __init__(self, key: str, message: str, where: str | None = None) -> None:
        self.key = key
        self.message = message  # what is wrong, without where and key (said again under another key)
        self.where = where
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{key}: {message}")


class UnknownKeyError(ArchitectureError):
    """A key that no architecture field (and no family alias) understands.  The hint is a near-spelling of a known key
    ("hiden_size") or the key it starts ("vocab"), else the field another family's config names by ``key``
    (``synonyms``: GPT-2's n_layer is num_hidden_layers), never a different key that merely looks alike (n_layer is
    not conv_layers)."""

    def __init__(self, key: str, known: Iterable[str], where: str | None = None,
                 synonyms: Mapping[str, str] | None = None) -> None:
        known = list(known)
        match = same_thing_misspelt(key, known)
        if match is None and len(key) >= 4:  # a key cut short ("vocab" for vocab_size)
            match = min((name for name in known if name.startswith(key)), key=len, default=None)
        if match is None and synonyms:  # another family's name for a field, or a near-spelling of one
            near = key if key in synonyms else same_thing_misspelt(key, synonyms)
            match = synonyms[near] if near is not None and synonyms[near] in known else None
        hint = f" (did you mean {match!r}?)" if match else ""
        super().__init__(key, "unknown key" + hint, where)


class SourceError(ParamledgerError):
    """A source (file, folder, bundled name, hub id) that cannot be read."""

    def __init__(self, source: str, message: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")


class UnknownModelError(SourceError):
    """A name that is neither a bundled model nor a file."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(
            name, "not a file, a folder or a bundled model name" + did_you_mean(name, known)
            + " (see `paramledger models`)"
        )


class UnsupportedFamilyError(SourceError):
    """A config whose model_type has no family table."""

    def __init__(self, source: str, model_type: str, supported: Iterable[str], known: Iterable[str] = ()) -> None:
        """``known``: the types transformers has; one of them is said to be one (mllama is not llama), and a
        near-spelling of one is suggested as it (mllamax: mllama, not llama)."""
        reasons = known if isinstance(known, Mapping) else {}  # a type's reason where transformers cannot build it
        supported, known = sorted(supported), frozenset(known)
        self.model_type = model_type
        uncounted = "transformers builds it; paramledger does not count it yet"
        if model_type in known:
            hint = f" ({reasons.get(model_type) or uncounted})"
        else:
            match = same_thing_misspelt(model_type, sorted(known.union(supported)))
            hint = "" if match is None else f" (did you mean {match!r}?{'' if match in supported else ' ' + uncounted})"
        super().__init__(source, f"model_type {quoted(model_type, 60)} is not supported{hint}; `paramledger families "
                                 f"--supported` lists the {len(supported)} that are")


class FileFormatError(SourceError):
    """A malformed file (JSON, TOML, safetensors, GGUF); ``source`` is its path."""


class OptionError(ParamledgerError, ValueError):
    """A command option or API argument that makes no sense (a negative context, an unknown dtype)."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"{option}: {message}")


class ReferenceUnavailableError(ParamledgerError):
    """Verification needs torch and transformers, which are not installed."""


# --------------------------------------------------------------------------- checkpoints
# Reading stored weights (safetensors, GGUF, PyTorch) header-only.  Each malformed-file case
# has its own class (the safetensors Rust core, safetensors/src/tensor.rs, names the same
# cases); every message is one line naming the file and, where there is one, the tensor.


class CheckpointFormatError(FileFormatError):
    """A checkpoint file that breaks its format's rules; ``tensor`` names the entry at fault."""

    def __init__(self, path: str, message: str, tensor: str | None = None) -> None:
        self.tensor = tensor
        super().__init__(str(path), f"tensor {quoted(tensor, 200)}: {message}" if tensor is not None else message)


class HeaderTooSmallError(CheckpointFormatError):
    """Fewer bytes than the fixed-size prefix (8 for safetensors)."""


class HeaderTooLargeError(CheckpointFormatError):
    """A declared header length beyond the bound (100,000,000 bytes, as the Rust core)."""


class HeaderBeyondFileError(CheckpointFormatError):
    """A declared header length that runs past the end of the file."""


class HeaderEncodingError(CheckpointFormatError):
    """A header that is not UTF-8."""


class HeaderJSONError(CheckpointFormatError):
    """A header that is not valid JSON."""


class HeaderNotObjectError(CheckpointFormatError):
    """A header (or index) whose JSON is not an object."""


class MetadataError(CheckpointFormatError):
    """``__metadata__`` that is not a string -> string map."""


class TensorEntryError(CheckpointFormatError):
    """A tensor entry missing a field, or with a field of the wrong kind."""


class UnknownDtypeError(CheckpointFormatError):
    """A dtype (or GGML type) the format does not define."""


class ShapeError(CheckpointFormatError):
    """A shape that is not a list of non-negative integers."""


class OverlappingOffsetsError(CheckpointFormatError):
    """Two tensors whose byte spans overlap."""


class OffsetGapError(CheckpointFormatError):
    """Bytes between two tensors that no tensor claims."""


class ByteSpanError(CheckpointFormatError):
    """A byte span that is not shape × dtype size."""


class TruncatedDataError(CheckpointFormatError):
    """A data section shorter than the tensors the header declares."""


class DataSizeError(CheckpointFormatError):
    """A data section longer than the tensors the header declares (the last offset is not its end)."""


class DuplicateTensorError(CheckpointFormatError):
    """One tensor name declared twice (in one header, or in two shards)."""


class ShardIndexError(CheckpointFormatError):
    """A sharded checkpoint's index json without a valid ``weight_map``."""


class MissingShardError(CheckpointFormatError):
    """A shard the index names that is not in the folder."""


class ShardTensorMissingError(CheckpointFormatError):
    """A tensor the index places in a shard whose header does not hold it."""


class GGUFMagicError(CheckpointFormatError):
    """A file that does not start with the GGUF magic."""


class GGUFVersionError(CheckpointFormatError):
    """A GGUF version other than 2 or 3 (or a big-endian file)."""


class GGUFCountError(CheckpointFormatError):
    """A tensor, key-value, array or dimension count beyond what the file can hold."""


class GGUFTruncatedError(CheckpointFormatError):
    """A GGUF header or data section cut short (a string, a value, a tensor's data)."""


class GGUFValueTypeError(CheckpointFormatError):
    """A metadata value type GGUF does not define."""


class GGUFTensorError(CheckpointFormatError):
    """A tensor info that breaks the rules (dims, block size, offsets)."""


class CheckpointDependencyError(SourceError):
    """Reading this checkpoint needs a library that is not installed (torch for .bin/.pt)."""


class UnsafePickleError(CheckpointFormatError):
    """A PyTorch file that cannot be read without executing pickled code (weights_only refused it)."""


class UnknownCheckpointError(SourceError):
    """A path that is no checkpoint paramledger can read."""


# --------------------------------------------------------------------------- live modules


class TorchRequiredError(SourceError):
    """Counting a live nn.Module (or a factory) needs torch, which is not installed."""


class ModuleFactoryError(SourceError):
    """A ``pkg.mod:factory`` that cannot be imported, called, or does not return an nn.Module."""


class TorchFileError(CheckpointFormatError):
    """A .bin/.pt file torch.load cannot read (corrupt, truncated, not a torch.save file)."""


# --------------------------------------------------------------------------- adapters


class AdapterError(ParamledgerError, ValueError):
    """A LoRA adapter (adapter_config.json or an inline spec) PEFT would refuse on this model; ``key`` names the
    adapter's field at fault, ``where`` the file or "--lora"."""

    def __init__(self, key: str, message: str, where: str | None = None) -> None:
        self.key = key
        self.where = where
        super().__init__(f"{where + ': ' if where else ''}{key}: {message}")
