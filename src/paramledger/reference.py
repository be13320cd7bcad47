"""The reference: what transformers itself builds for a config, and how an inventory differs.

The reference model is built on the meta device (shapes, no memory, no weights), so even
a 671B config builds in a fraction of a second.  Its tensors are
``named_parameters(remove_duplicate=False)``: a name whose Parameter object was already
seen under an earlier name is an alias of that name (a tied LM head).

torch and transformers are imported here and only here, lazily: ``pip install
"paramledger[reference]"`` brings the pinned versions (torch 2.13.0, transformers 5.24.0).
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._exceptions import ParamledgerError, ReferenceUnavailableError
from .inventory import Inventory

INSTALL_HINT = 'verification needs torch and transformers: pip install "paramledger[reference]"'


@dataclass(frozen=True)
class Reference:
    """The tensors transformers builds for one config, in its own order."""

    model_type: str
    class_name: str  # e.g. "LlamaForCausalLM"
    tensors: tuple[tuple[str, tuple[int, ...]], ...]  # unique parameters: (name, shape)
    aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> first name of the same Parameter

    @property
    def total(self) -> int:
        return sum(math.prod(shape) for _, shape in self.tensors)


@dataclass(frozen=True)
class Diff:
    """Inventory (ours) against reference (transformers'), tensor by tensor."""

    missing: tuple[tuple[str, tuple[int, ...]], ...]  # in the reference, not in the inventory
    extra: tuple[tuple[str, tuple[int, ...]], ...]  # in the inventory, not in the reference
    shapes: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]  # name, ours, reference
    tying: tuple[tuple[str, str | None, str | None], ...]  # alias, our target, reference target
    tensors: int  # reference tensor count
    ours_total: int
    reference_total: int

    @property
    def matches(self) -> bool:
        return not (self.missing or self.extra or self.shapes or self.tying) and self.ours_total == self.reference_total

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.matches,
            "tensors": self.tensors,
            "total": self.ours_total,
            "reference_total": self.reference_total,
            "missing": [{"name": n, "shape": list(s)} for n, s in self.missing],
            "extra": [{"name": n, "shape": list(s)} for n, s in self.extra],
            "shape_mismatches": [{"name": n, "ours": list(a), "reference": list(b)} for n, a, b in self.shapes],
            "tying_differences": [{"alias": a, "ours": x, "reference": y} for a, x, y in self.tying],
        }


def _import_reference() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError:
        raise ReferenceUnavailableError(INSTALL_HINT) from None
    transformers.logging.set_verbosity_error()  # no warnings about unused keys or rope defaults
    transformers.logging.disable_progress_bar()
    return torch, transformers


def hf_config(config: Mapping[str, Any]) -> Any:
    """transformers' config object for a config dict (model_type chooses the class)."""
    _, transformers = _import_reference()
    values = dict(config)
    model_type = values.pop("model_type", None)
    if not model_type:
        raise ParamledgerError("model_type: missing (required to choose the reference class)")
    for key in ("architectures", "transformers_version", "_name_or_path", "auto_map"):
        values.pop(key, None)
    try:
        return transformers.AutoConfig.for_model(model_type, **values)
    except Exception as error:  # transformers' own validation: one line, never a traceback
        raise ParamledgerError(f"transformers refuses the config: {_one_line(error)}") from None


def build_reference(config: Mapping[str, Any], *, text_config: bool = False) -> Reference:
    """Build ``<Family>ForCausalLM`` for ``config`` on the meta device and list its tensors.

    ``text_config``: the config is multimodal; the reference is the CausalLM of its text
    decoder (e.g. Gemma3ForCausalLM from a gemma3 config's text_config)."""
    torch, transformers = _import_reference()
    cfg = hf_config(config)
    if text_config:
        cfg = cfg.get_text_config()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            with torch.device("meta"):
                model = transformers.AutoModelForCausalLM.from_config(cfg)
        except Exception as error:
            raise ParamledgerError(f"transformers cannot build {cfg.model_type}: {_one_line(error)}") from None
    return reference_of(model, cfg.model_type)


def reference_of(model: Any, model_type: str = "") -> Reference:
    """The tensors and aliases of a live nn.Module (any device)."""
    seen: dict[int, str] = {}
    tensors: list[tuple[str, tuple[int, ...]]] = []
    aliases: dict[str, str] = {}
    for name, parameter in model.named_parameters(remove_duplicate=False):
        first = seen.get(id(parameter))
        if first is None:
            seen[id(parameter)] = name
            tensors.append((name, tuple(int(n) for n in parameter.shape)))
        else:
            aliases[name] = first
    return Reference(model_type, type(model).__name__, tuple(tensors), aliases)


def diff(inventory: Inventory, reference: Reference) -> Diff:
    ours = {t.name: t.shape for t in inventory.tensors}
    theirs = dict(reference.tensors)
    missing = tuple((n, s) for n, s in reference.tensors if n not in ours)
    extra = tuple((t.name, t.shape) for t in inventory.tensors if t.name not in theirs)
    shapes = tuple((n, ours[n], s) for n, s in reference.tensors if n in ours and ours[n] != s)
    tying = tuple(
        (alias, inventory.aliases.get(alias), reference.aliases.get(alias))
        for alias in sorted(set(inventory.aliases) | set(reference.aliases))
        if inventory.aliases.get(alias) != reference.aliases.get(alias)
    )
    return Diff(missing, extra, shapes, tying, len(reference.tensors), inventory.total, reference.total)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{error.__class__.__name__}: {text[:300]}" if text else error.__class__.__name__
