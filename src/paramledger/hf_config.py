"""A Hugging Face config.json (as a dict) becomes a declared architecture, by its family's table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import families
from ._exceptions import ArchitectureError, SourceError, UnsupportedFamilyError
from .architecture import Architecture


def architecture_from_config(config: Mapping[str, Any], where: str = "config.json") -> Architecture:
    if not isinstance(config, Mapping):
        raise SourceError(where, "a config must be a JSON object")
    model_type = config.get("model_type")
    if not model_type:
        raise ArchitectureError("model_type", "missing (required to choose the family)", where)
    family = families.get(model_type)
    if family is None:
        raise UnsupportedFamilyError(where, str(model_type), families.supported())
    notes: list[str] = []
    if family.text_config:
        text = config.get("text_config")
        if not isinstance(text, Mapping):
            raise ArchitectureError("text_config", f"missing (model_type {model_type} keeps its decoder there)", where)
        notes.append(f"{model_type} is multimodal: counting its text decoder (text_config) only")
        config = text
    known_fields = set(Architecture.field_names())
    values: dict[str, Any] = dict(family.defaults)
    not_understood: list[str] = []
    for key, value in config.items():
        target = family.keys.get(key) or (key if key in known_fields else None)
        if target is not None:
            if value is None and target in family.defaults:
                continue  # an explicit null means "the config class's default"
            values[target] = value
        elif key not in families.COUNT_NEUTRAL and key not in family.count_neutral:
            not_understood.append(key)
    for derive in family.derive:
        values.update(derive(config))
    values.update(family.switches)
    values["model_type"] = model_type
    if not_understood:
        notes.append("config keys not understood (they might change the count): " + ", ".join(sorted(not_understood)))
    return Architecture.from_mapping(values, where, tuple(notes))
