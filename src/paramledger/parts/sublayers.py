"""The sublayers a layer holds beside its token mixer and FFN, one module per kind (parts/_protocol.py's
SublayerKind), kept apart from parts/__init__.py's MIXER_MODULES.

``SUBLAYERS``: each declared by its module's ``SUBLAYER`` (its flat keys, names, part and refusals), in the
order their keys follow the mixers' in the Architecture.  ``DECLARED``: every kind declared by a part module,
the mixers' then these: what architecture.py and naming.py take their extra keys, sizes and paths from.  A new
sublayer kind is its module and its name here."""

from __future__ import annotations

from importlib import import_module

from . import MIXERS
from ._protocol import SublayerKind

SUBLAYER_MODULES = ("cross_attention", "global_attention", "disentangled_extras", "value_conv",
                    "language_adapters")

SUBLAYERS: tuple[SublayerKind, ...] = tuple(import_module(f"{__package__}.{name}").SUBLAYER
                                            for name in SUBLAYER_MODULES)
DECLARED = (*MIXERS, *SUBLAYERS)
