"""The sublayers a layer holds beside its token mixer and FFN, one module per kind (parts/_protocol.py's
SublayerKind), kept apart from parts/__init__.py's MIXER_MODULES.

``SUBLAYERS``: each declared by its module's ``SUBLAYER`` (its flat keys, names, part and refusals), in the
order their keys follow the mixers' in the Architecture.  ``DECLARED``: every kind declared by a part module,
the mixers' then these: what architecture.py and naming.py take their extra keys, sizes and paths from.  A new
sublayer kind is its module and its name here."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from . import MIXERS
from ._protocol import MixerKind, SublayerKind

SUBLAYER_MODULES = ("cross_attention", "global_attention", "disentangled_extras", "value_conv",
                    "language_adapters", "global_input_norm", "hyper_residuals", "layer_lambdas", "ada_rms_norm",
                    "inkling_sconv", "stream_hyper_connections", "grouped_ffn", "span_conv_cross")

SUBLAYERS: tuple[SublayerKind, ...] = tuple(import_module(f"{__package__}.{name}").SUBLAYER
                                            for name in SUBLAYER_MODULES)
DECLARED = (*MIXERS, *SUBLAYERS)
# Every flat key a declared kind adds.  A kind's ``engaged`` reads only its own keys, each off at its default
# (tests/test_engaged.py holds them to that), so a design given none of them engages none: Architecture.from_mapping
# then records NONE_ENGAGED without asking each kind (25 calls of every count, twice).
KIND_KEYS = frozenset(key for kind in DECLARED for key in vars(kind.keys).get("__annotations__", {}))
NONE_ENGAGED: tuple[tuple[MixerKind, ...], tuple[SublayerKind, ...]] = ((), ())


def engaged_kinds(arch: Any) -> tuple[tuple[MixerKind, ...], tuple[SublayerKind, ...]]:
    """The mixer kinds and the sublayer kinds the design engages, in declaration order: asked of each kind
    once per design and kept in its instance dict (a design is frozen); a symbolic stand-in (formula.py)
    is asked each time."""
    own = vars(arch)
    found = own.get("_engaged")
    if found is None:
        found = (tuple(kind for kind in MIXERS if kind.engaged(arch)),
                 tuple(kind for kind in SUBLAYERS if kind.engaged(arch)))
        if type(arch).__name__ == "Architecture":
            own["_engaged"] = found
    return found
