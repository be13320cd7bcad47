"""An adapter put on a source: the base it names checked against the model it is counted on, then the family's
naming handed to the LoRA rules."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .._exceptions import AdapterError
from ..inventory import Inventory
from .config import LoraSpec, read_adapter
from .lora import apply_lora


def lora_inventory(inv: Inventory, adapter: LoraSpec | str | os.PathLike | dict[str, Any]) -> Inventory:
    """``inv`` with the LoRA adapter on it: what get_peft_model(model, LoraConfig(...)) holds."""
    from .. import families

    spec = adapter if isinstance(adapter, LoraSpec) else read_adapter(adapter)
    note = check_base(spec, inv)
    arch = inv.architecture
    naming = families.naming_of(arch) if arch is not None and families.get(arch.model_type) else None
    adapted = apply_lora(inv, spec, conv1d=bool(naming and naming.conv1d),
                         lm_head=(naming.output_embeddings or naming.lm_head) if naming else "lm_head",
                         experts_in_out=bool(naming and naming.experts_in_out))
    if note:
        object.__setattr__(adapted, "notes", (*adapted.notes, note))  # the inventory is ours, just made
    return adapted


def check_base(spec: LoraSpec, inv: Inventory) -> str | None:
    """None when the adapter's base_model_name_or_path is the source (or unsaid); a note when it names another
    model of the same model_type, or one paramledger cannot look up offline; AdapterError when it names a model of
    another model_type (PEFT would find none of its modules, or modules of other shapes)."""
    base = spec.base_model_name_or_path
    source = inv.source or ""
    if not base or _short(base) == _short(source):
        return None
    base_type = _model_type(base)
    ours = inv.architecture.model_type if inv.architecture is not None else None
    if base_type is not None and ours is not None and base_type != ours:
        raise AdapterError("base_model_name_or_path", f"{base} is a {base_type} model; the adapter cannot go on "
                                                      f"{source or 'this'} ({ours})", spec.where)
    return f"the adapter names {base} as its base model; counted on {source or 'this model'}"


def _short(name: str) -> str:
    path = Path(name)
    if path.name == "config.json":
        path = path.parent
    return path.name.lower()


def _model_type(base: str) -> str | None:
    """The model_type of a bundled model or a local folder's config.json; None for anything else (no network)."""
    from ..sources import find_bundled, raw_config

    if find_bundled(base) is None and not (Path(base) / "config.json").is_file():
        return None
    try:
        config = raw_config(base)
    except Exception:  # an unreadable base is reported as a note, not in place of the count
        return None
    return None if config is None else config.get("model_type")
