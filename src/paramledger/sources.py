"""Every input becomes a declared architecture: a bundled design or model name, a spec
file (TOML), a config.json or the folder holding it, or a mapping."""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ._exceptions import FileFormatError, OptionError, SourceError, UnknownKeyError, UnknownModelError
from .architecture import DESIGN_MODEL_TYPE, Architecture

SPEC_METADATA = ("description", "reference")  # spec-file keys that describe, not declare


def _data_dir(name: str) -> Path:
    return Path(str(resources.files("paramledger") / name))


@lru_cache(maxsize=1)
def bundled_designs() -> dict[str, Path]:
    """Design name -> spec file shipped in paramledger/designs."""
    folder = _data_dir("designs")
    return {p.stem: p for p in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


@lru_cache(maxsize=1)
def bundled_models() -> dict[str, Path]:
    """Model name (as released, without the org) -> entry file in paramledger/models."""
    folder = _data_dir("models")
    return {p.stem: p for p in sorted(folder.glob("*.json"))} if folder.is_dir() else {}


def bundled_names() -> list[str]:
    return [*bundled_designs(), *bundled_models()]


def find_bundled(name: str) -> tuple[str, Path] | None:
    designs, models = bundled_designs(), bundled_models()
    if name in designs:
        return "design", designs[name]
    short = name.split("/")[-1]  # the org prefix is optional
    for candidate in (short, short.lower()):
        if candidate in models:
            return "model", models[candidate]
    lowered = {key.lower(): path for key, path in models.items()}
    if short.lower() in lowered:
        return "model", lowered[short.lower()]
    return None


def read_json(path: Path, kind: str = "config") -> Any:
    """A JSON file within the bounds of its kind (limits.JSON_BOUNDS): only a bounded prefix
    is read, so a 2 GB weights file named as a config costs no more than the bound."""
    from .limits import JSON_BOUNDS, json_text

    limit = JSON_BOUNDS[kind][0]
    try:
        with open(path, "rb") as file:  # bytes, decoded below: faster than a text stream
            data = file.read(limit + 1)
        if not data.lstrip()[:1] in (b"{", b"["):
            if hint := _binary_hint(path, data[:9]):
                raise FileFormatError(str(path), f"not a JSON config{hint}")
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise SourceError(str(path), "no such file") from None
    except UnicodeDecodeError:
        hint = _binary_hint(path, data)
        raise FileFormatError(str(path), f"cannot be read (UnicodeDecodeError){hint}") from None
    except OSError as error:
        raise FileFormatError(str(path), f"cannot be read ({error.__class__.__name__})") from None
    if len(data) > limit:
        raise FileFormatError(str(path), f"larger than the {limit:,}-byte bound for a {kind} json"
                                         f"{_binary_hint(path, data)}")
    return json_text(text, str(path), kind)


def _binary_hint(path: Path, head: bytes) -> str:
    """A pointer to `paramledger inspect` when the file is a checkpoint, not a config."""
    from .checkpoints import looks_like_checkpoint

    return "; it is a checkpoint: read it with `paramledger inspect`" if looks_like_checkpoint(path, head) else ""


def read_spec(path: Path, label: str | None = None) -> Architecture:
    from .limits import JSON_BOUNDS, check_values, toml_text

    limit = JSON_BOUNDS["config"][0]
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise SourceError(str(path), "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise FileFormatError(str(path), f"cannot be read ({error.__class__.__name__})") from None
    spec = toml_text(text, str(path))
    for key in SPEC_METADATA:
        spec.pop(key, None)
    check_values(spec, label or str(path))
    return Architecture.from_mapping(spec, label or str(path))


def read_config(path: Path, label: str | None = None) -> Architecture:
    """A config.json; a tokenizer.json beside it adds a note comparing its vocabulary with
    the table's rows (padded rows still count)."""
    # imported when first needed: a design never needs them
    from .hf_config import architecture_from_config
    from .tokenizer_vocab import tokenizer_note

    config = read_json(path)
    arch = architecture_from_config(config, label or str(path))
    note = tokenizer_note(path)
    return keep_config(dataclasses.replace(arch, notes=(*arch.notes, note)) if note else arch, config,
                       label or str(path))


def keep_config(arch: Architecture, config: Mapping[str, Any], where: str) -> Architecture:
    """``arch`` holding the config it was read from, unvalidated and unseen by every view: at another depth
    (Architecture.replace) it is read again there, so the family's rules place the layers as its config class
    does (design/values.config_at_depth).  Set in the fresh instance's dict: no copy."""
    arch.__dict__["_config"] = (config, where)
    return arch


def load(source: str | os.PathLike[str] | Mapping[str, Any] | Architecture, /, **overrides: Any) -> Architecture:
    """The declared architecture of ``source``, with ``overrides`` (field -> value) applied.

    ``source``: a bundled design or model name, a spec file (.toml), a config.json or a
    folder holding one, a config mapping (with model_type) or a field mapping."""
    arch = _load(source)
    return with_overrides(arch, overrides, f"{arch.source} (override)") if overrides else arch


def with_overrides(arch: Architecture, overrides: Mapping[str, Any], where: str) -> Architecture:
    """``arch`` with ``overrides`` applied (--set, --vary), each refusal said under ``where``: a field by its name
    or by its family's config key (GPT-2's n_head), an encoder-decoder's own key by reading its config again."""
    if arch.towers:
        arch, overrides = _beside_decoder(arch, overrides, where)
    if overrides:
        changes = _field_names(arch, overrides, where)
        _check_overrides(arch, changes, where)
        held = arch.__dict__.get("_config")
        arch = arch.replace(where=where, **changes)
        if held is not None:  # its config's own refusals, with the changes
            from .hf_config import RECHECKED, recheck_changes

            if not RECHECKED.isdisjoint(changes):
                recheck_changes(held, arch, changes, where)
    return arch


def override_keys(arch: Architecture) -> list[str]:
    """Every key ``with_overrides`` takes for ``arch``: the fields, its family's config keys, an encoder-decoder's
    own."""
    from . import families

    family = families.get(arch.model_type)
    return [*Architecture.field_names(), *(family.keys if family is not None else ()), *_encoder_keys(arch, family)]


def _encoder_keys(arch: Architecture, family: Any) -> set[str]:
    """An encoder-decoder's own config keys that its decoder's table does not read (BART's encoder_layers), where the
    config the design was read from is kept to read them again; else none."""
    spec = family.seq2seq if family is not None else None
    if spec is None or vars(arch).get("_config") is None:
        return set()
    own = {*spec.keys, *spec.defaults, spec.tie_key, *([spec.shared_key] if spec.shared_key else [])}
    return own - set(family.keys) - set(Architecture.field_names())


def _beside_decoder(arch: Architecture, overrides: Mapping[str, Any],
                    where: str) -> tuple[Architecture, Mapping[str, Any]]:
    """An encoder-decoder's own config keys among ``overrides`` applied to the config the design was read from,
    read again as its family reads it; the other overrides, left for the decoder's design."""
    from . import families

    own = _encoder_keys(arch, families.get(arch.model_type))
    given = {key: value for key, value in overrides.items() if key in own}
    if not given:
        return arch, overrides
    from .hf_config import _parse_value, architecture_from_config

    config, read_from = vars(arch)["_config"]
    config = {**config, **{key: _parse_value(value) for key, value in given.items()}}
    again = keep_config(architecture_from_config(config, where), config, read_from)
    return again.with_fields(source=arch.source), {k: v for k, v in overrides.items() if k not in given}


def _check_overrides(arch: Architecture, changes: Mapping[str, Any], where: str) -> None:
    from .limits import check_values, number_text

    if "model_type" in changes and changes["model_type"] != arch.model_type:
        raise OptionError("--set", f"model_type is {arch.model_type!r} for {arch.source}: a design's family is "
                                   "its own (give a config.json of the other family instead)")
    for name, value in changes.items():
        if isinstance(value, str):
            number_text(value, f"--set {name}")
    check_values(changes, where, strict_bools=False)


def _field_names(arch: Architecture, overrides: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Overrides by field name; a key of the architecture's family stands for its field, as in the
    family's config.json (GPT-2's n_head is num_attention_heads)."""
    fields = Architecture.field_names()
    if all(key in fields for key in overrides):
        return dict(overrides)
    from . import families
    from .hf_config import overridden_fields

    family = families.get(arch.model_type)
    reads = family.keys if family is not None else {}
    for key in overrides:
        if key not in fields and key not in reads:
            raise UnknownKeyError(key, [*fields, *reads], where, families.key_synonyms())
    return {name: overrides[key] for name, key in overridden_fields(overrides, reads).items()}


def _load(source: Any) -> Architecture:
    if isinstance(source, Architecture):
        return source
    if type(source) is not str and isinstance(source, Mapping):  # a name skips the ABC check
        if "model_type" in source and source["model_type"] != DESIGN_MODEL_TYPE:
            from .hf_config import architecture_from_config

            return keep_config(architecture_from_config(source, "config"), source, "config")
        return Architecture.from_mapping(source, "mapping")
    text = os.fspath(source)
    kind, file = _locate(text)
    if kind == "hub":
        return read_config(file, text)
    if kind == "spec":
        return read_spec(file)
    if kind == "config":
        return read_config(file)
    if kind == "design":
        return read_spec(file, text)
    from . import registry  # imported when first needed: a design never needs it

    if kind == "alias":
        return _alias_architecture(text, registry.architecture(file))
    return registry.architecture(file)


def _locate(text: str) -> tuple[str, Path]:
    """``_resolve``, else ``_not_local`` (an alias of a bundled base, a hub id, or one line)."""
    resolved = _resolve(text)
    if resolved is not None:
        return resolved
    return _not_local(text)


def _not_local(text: str) -> tuple[str, Path]:
    """A name that is neither bundled nor a file: a variant whose config is its bundled base's
    ("alias"), the config.json of a hub id ("hub"), else one line that says how to fetch it."""
    from . import hub
    from .hub.aliases import alias_of, is_variant

    hub_id = hub.parse(text)
    alias = alias_of(text) if hub_id is None or hub_id.revision is None else None
    if alias is not None:
        return "alias", bundled_models()[alias.base]
    if hub_id is not None:
        try:
            import huggingface_hub  # noqa: F401
        except ImportError:
            raise SourceError(text, 'not bundled, and its config.json comes from the hub: pip install '
                                    '"paramledger[hub]" (or pass a local config.json or its folder)') from None
        from .hub.files import config_file

        return "hub", config_file(hub_id)
    from ._exceptions import same_thing_misspelt

    match = None if is_variant(text) else same_thing_misspelt(text, bundled_names())
    if match is not None:  # a misspelt name; a different model (another size, a chat variant) is no match
        raise UnknownModelError(text, [match])
    raise SourceError(text, "not a file, a folder or a bundled model name (see `paramledger models`); give its hub "
                            'id (org/name) to fetch its config.json through huggingface_hub ("paramledger[hub]")')


def _alias_architecture(text: str, base: Architecture) -> Architecture:
    from .hub.aliases import alias_of

    alias = alias_of(text)
    if alias is None:  # not reached: _not_local found it
        return base
    note = f"{alias.repo} has the config of {base.source} but for keys no view reads (hub/aliases.py)"
    return dataclasses.replace(base, source=alias.repo, notes=(*base.notes, note))


def _resolve(text: str) -> tuple[str, Path] | None:
    """Where a source string points: ("spec" | "config" | "design" | "model", file), or None
    when nothing local matches (it may be a hub id)."""
    try:  # os.access answers "nothing there" (a bundled name) without raising; os.stat tells a folder from a file
        mode = os.stat(text).st_mode if os.access(text, os.F_OK) else 0
    except (OSError, ValueError):  # gone in between, or a NUL in the name
        mode = 0
    if stat.S_ISDIR(mode):
        config = Path(text) / "config.json"
        if not config.is_file():
            raise SourceError(text, "folder has no config.json")
        return "config", config
    if stat.S_ISREG(mode):
        path = Path(text)
        return ("spec" if path.suffix == ".toml" else "config"), path
    found = find_bundled(text)
    if found is not None:
        return found
    if mode:  # there, but a device, a pipe or a socket
        raise SourceError(text, "not a regular file or a folder")
    if Path(text).suffix in (".json", ".toml") or os.sep in text and not text.count("/") == 1 and not _hub_like(text):
        raise SourceError(text, "no such file")
    return None


def _hub_like(text: str) -> bool:
    """A hub id whose revision holds slashes (org/name@refs/pr/1)."""
    from . import hub

    return hub.looks_like(text)


def raw_config(source: str | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any] | None:
    """The config.json object behind ``source``, or None for a declared design (a spec file,
    a bundled design, a mapping of fields)."""
    if isinstance(source, Mapping):
        return dict(source) if source.get("model_type", DESIGN_MODEL_TYPE) != DESIGN_MODEL_TYPE else None
    text = os.fspath(source)
    kind, file = _locate(text)
    if kind in ("spec", "design"):
        return None
    if kind in ("config", "hub"):
        return _config_object(read_json(file), text)
    from . import registry  # a bundled model, or an alias of one (the same config but for unread keys)

    return dict(registry.read_entry(file)["config"])


def _config_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FileFormatError(where, "a config must be a JSON object")
    return dict(value)
