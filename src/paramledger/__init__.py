"""paramledger: the exact parameter inventory of a transformer language model.

    >>> import paramledger
    >>> arch = paramledger.load("seed-baseline")
    >>> paramledger.inventory(arch).total
    13110528
"""

from __future__ import annotations

from ._exceptions import (
    ArchitectureError,
    FileFormatError,
    OptionError,
    ParamledgerError,
    ReferenceUnavailableError,
    SourceError,
    UnknownKeyError,
    UnknownModelError,
    UnsupportedFamilyError,
)
from . import families
from ._builder import build as _build
from .architecture import Architecture
from .inventory import ACTIVE_DEFINITION, COMPONENTS, NON_EMBEDDING_DEFINITIONS, Inventory, Tensor
from .sources import load
from .analysis import break_even_vocab_size, rule_of_thumb

__all__ = [
    "active_parameters",
    "format_bytes",
    "forward_flops_per_token",
    "get_dtype",
    "kv_cache",
    "kv_values_per_token",
    "memory_report",
    "training_flops",
    "training_memory",
    "weight_bytes",
    "ACTIVE_DEFINITION",
    "COMPONENTS",
    "NON_EMBEDDING_DEFINITIONS",
    "Architecture",
    "ArchitectureError",
    "FileFormatError",
    "Inventory",
    "OptionError",
    "ParamledgerError",
    "ReferenceUnavailableError",
    "SourceError",
    "Tensor",
    "UnknownKeyError",
    "UnknownModelError",
    "UnsupportedFamilyError",
    "Change",
    "Comparison",
    "break_even_vocab_size",
    "closed_form",
    "compare",
    "from_module",
    "inventory",
    "inventory_from_factory",
    "load",
    "read_checkpoint",
    "rule_of_thumb",
    "verify",
    "what_if",
]

__version__ = "0.1.0"

# Imported on first use, so `import paramledger` (and every CLI run) stays light.
_LAZY = {
    "Change": ("whatif", "Change"),
    "Comparison": ("whatif", "Comparison"),
    "compare": ("whatif", "compare"),
    "what_if": ("whatif", "what_if"),
    "closed_form": ("formula", "closed_form"),
    "from_module": ("module", "from_module"),
    "inventory_from_factory": ("module", "inventory_from_factory"),
    "read_checkpoint": ("checkpoints", "read"),
    "verify": ("reference", "verify"),
    "memory_report": ("memory", "memory_report"),
    "weight_bytes": ("memory", "weight_bytes"),
    "format_bytes": ("memory", "format_bytes"),
    "kv_cache": ("kvcache", "kv_cache"),
    "kv_values_per_token": ("kvcache", "kv_values_per_token"),
    "active_parameters": ("compute", "active_parameters"),
    "forward_flops_per_token": ("compute", "forward_flops_per_token"),
    "training_flops": ("compute", "training_flops"),
    "training_memory": ("training", "training_memory"),
    "get_dtype": ("dtypes", "get_dtype"),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def inventory(architecture: Architecture | str, **overrides: object) -> Inventory:
    """The inventory of a declared architecture (or of anything :func:`load` accepts)."""
    arch = architecture if isinstance(architecture, Architecture) and not overrides else load(architecture, **overrides)
    return _build(arch, families.naming_of(arch), source=arch.source)  # a whole model's towers with its decoder
