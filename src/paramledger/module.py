"""The inventory of a live torch ``nn.Module``, by object identity.

Seed 000's counting rule, applied to real objects: a parameter object counts once however
many names reach it (``named_parameters(remove_duplicate=False)``: the first name owns the
tensor, later names are aliases -- a tied head); a frozen parameter (requires_grad=False)
still counts and is marked; two independent parameters count twice even when their values
are equal.  Buffers (causal masks, rotary inv_freq) are not learned: they are listed in
``Inventory.buffers`` and the notes, never counted.

Components: when the module carries a transformers ``config`` whose family paramledger
knows, each parameter takes the component of the same-named tensor in the config-derived
inventory; otherwise the name decides (checkpoints/names.py COMPONENT_RULES, first
substring match; "other" when none matches).
"""

from __future__ import annotations

import importlib
from typing import Any

from ._exceptions import ModuleFactoryError, OptionError, ParamledgerError, TorchRequiredError
from .checkpoints.names import guess_component, guess_layer
from .inventory import Buffer, Inventory, Tensor, inventory_from_tensors


def _torch(where: str) -> Any:
    try:
        import torch
    except ImportError:
        raise TorchRequiredError(where, "counting a live module needs torch (pip install torch)") from None
    return torch


def from_module(module: Any, *, source: str | None = None) -> Inventory:
    """Every unique parameter of ``module`` once; aliases, frozen parameters and buffers marked."""
    torch = _torch(source or type(module).__name__)
    if not isinstance(module, torch.nn.Module):
        raise ModuleFactoryError(source or repr(module)[:60], f"not a torch nn.Module ({type(module).__name__})")
    reference = _config_inventory(module)
    tables = _embedding_tables(module, torch) if reference is None else {}
    owners: dict[int, str] = {}
    aliases: dict[str, str] = {}
    tensors: list[Tensor] = []
    for name, param in module.named_parameters(remove_duplicate=False):
        owner = owners.get(id(param))
        if owner is not None:
            aliases[name] = owner
            continue
        owners[id(param)] = name
        shape = tuple(int(s) for s in param.shape)
        ref = _lookup(reference, name)
        if ref is not None:
            component, layer, experts = ref.component, ref.layer, ref.experts
        else:
            component, layer = tables.get(id(param)) or guess_component(name), guess_layer(name)
            experts = shape[0] if component == "experts" and len(shape) == 3 else 0
        tensors.append(Tensor(name, shape, component, layer, not param.requires_grad, experts))
    notes = []
    buffers = module_buffers(module)
    if buffers:
        values = sum(b.count for b in buffers)
        shown = ", ".join(b.name for b in buffers[:2]) + (", ..." if len(buffers) > 2 else "")
        notes.append(f"{len(buffers)} buffer(s), {values:,} values, not learned and not counted: {shown}")
    if reference is None:
        notes.append("components guessed from parameter names ('other' when no rule matches)")
    label = source or type(module).__name__
    arch = reference.architecture if reference is not None else None
    return inventory_from_tensors(tensors, aliases, architecture=arch, source=label, notes=notes, buffers=buffers)


def _embedding_tables(module: Any, torch: Any) -> dict[int, str]:
    """The weight of every nn.Embedding, by object: a token table ("embedding"), or a position table when its
    name says so ("positions": wpe, pos, position), and an untied nn.Linear onto a token table's rows ("lm_head"):
    what the non-embedding definitions subtract, read from the module's types rather than guessed from names (an
    Embedding called ``emb`` is a table too)."""
    found: dict[int, str] = {}
    children = list(module.named_modules())
    for name, child in children:
        if isinstance(child, torch.nn.Embedding) and isinstance(child.weight, torch.nn.Parameter):
            leaf = name.rpartition(".")[2].lower()
            found[id(child.weight)] = "positions" if "pos" in leaf or leaf == "wpe" else "embedding"
    rows = {child.num_embeddings for _, child in children if isinstance(child, torch.nn.Embedding)
            and found.get(id(child.weight)) == "embedding"}
    for _, child in children:
        if isinstance(child, torch.nn.Linear) and child.out_features in rows and id(child.weight) not in found:
            found[id(child.weight)] = "lm_head"
            if child.bias is not None:
                found[id(child.bias)] = "lm_head"
    return found


def module_buffers(module: Any) -> list[Buffer]:
    """The module's buffers (each object once), with their dtype and whether a checkpoint holds them."""
    seen: set[int] = set()
    out = []
    persistent = set(module.state_dict(keep_vars=True))
    for name, buffer in module.named_buffers(remove_duplicate=False):
        if buffer is None or id(buffer) in seen:
            continue
        seen.add(id(buffer))
        out.append(Buffer(name, tuple(int(s) for s in buffer.shape), str(buffer.dtype).removeprefix("torch."),
                          name in persistent))
    return out


def _config_inventory(module: Any) -> Inventory | None:
    """The config-derived inventory of a transformers model, when its family is known."""
    config = getattr(module, "config", None)
    to_dict = getattr(config, "to_dict", None)
    if not callable(to_dict):
        return None
    try:
        from . import inventory
        from .hf_config import architecture_from_config

        return inventory(architecture_from_config(to_dict(), type(module).__name__))
    except (ParamledgerError, TypeError, ValueError):
        return None


def _lookup(reference: Inventory | None, name: str) -> Tensor | None:
    if reference is None:
        return None
    try:
        return reference[name]
    except KeyError:
        return None


def inventory_from_factory(spec: str) -> Inventory:
    """Import ``pkg.mod:factory``, call it on the meta device (no memory for weights), count it.

    A factory that cannot run on the meta device (it loads weights, say) is called again
    normally, and the inventory says so."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise OptionError("--module", f"expected pkg.mod:factory, got {spec!r}")
    torch = _torch(spec)
    try:
        target: Any = importlib.import_module(module_name)
    except Exception as error:  # the user's module: any import-time failure is one line
        raise ModuleFactoryError(spec, f"cannot import {module_name} ({error.__class__.__name__}: "
                                       f"{_first_line(error)})") from None
    for part in attr.split("."):
        if not hasattr(target, part):
            raise ModuleFactoryError(spec, f"{module_name} has no attribute {attr!r}")
        target = getattr(target, part)
    if not callable(target):
        raise ModuleFactoryError(spec, f"{attr} is not callable")
    notes = []
    try:
        with torch.device("meta"):
            built = target()
    except Exception as meta_error:
        try:
            built = target()
        except Exception as error:
            raise ModuleFactoryError(spec, f"calling {attr}() failed ({error.__class__.__name__}: "
                                           f"{_first_line(error)})") from None
        notes.append(f"built on the CPU: the factory fails on the meta device ({meta_error.__class__.__name__})")
    if not isinstance(built, torch.nn.Module):
        raise ModuleFactoryError(spec, f"{attr}() returned {type(built).__name__}, not a torch nn.Module")
    inv = from_module(built, source=spec)
    if notes:
        inv = inventory_from_tensors(inv.tensors, inv.aliases, architecture=inv.architecture, source=inv.source,
                                     notes=(*inv.notes, *notes), buffers=inv.buffers)
    return inv


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:160] if text else "no message"
