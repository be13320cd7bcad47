"""Config values transformers 5.24.0 divides by while it builds a model, whatever the family (issue #15): a 0 there
is a ZeroDivisionError, not a model, so it is refused in one line instead of counted.

- query_pre_attn_scalar: ``self.scaling = config.query_pre_attn_scalar**-0.5`` in every attention that reads it
  (modeling_gemma2.py, gemma3, vaultgemma, t5gemma, t5gemma2, step3p7: the only modeling files of transformers 5.24.0
  that name it).  Another class ignores the key, so a 0 there is counted like any key it does not read.  T5Gemma
  and T5Gemma 2 read it from each section (encoder, decoder, encoder.text_config: ``section``), not the top.  (Null is a
  TypeError in the readers too, but a null is their own config classes' "absent": not refused here.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

# key: (why a 0 cannot build, the decoder types whose modeling code divides by it)
DIVISORS = {"query_pre_attn_scalar": ("the attention's scaling is query_pre_attn_scalar ** -0.5", frozenset({
    "gemma2", "gemma3_text", "vaultgemma", "step3p7"}))}


def check(config: Mapping[str, Any], model_type: str, where: str | None) -> None:
    """Refuse a divisor of 0 the config gives to a decoder of ``model_type`` that divides by it, naming its key."""
    for key, (_, readers) in DIVISORS.items():
        if model_type in readers:
            section(config, "", where, (key,))


def section(config: Mapping[str, Any], name: str, where: str | None = None, keys: tuple[str, ...] = tuple(DIVISORS)
            ) -> None:
    """Refuse a divisor of 0 in a section whose class divides by it, named "<name>.<key>" ("": the top level)."""
    for key in keys:
        if config.get(key) == 0 and not isinstance(config[key], bool):
            why = DIVISORS[key][0]
            raise ArchitectureError(f"{name}.{key}" if name else key,
                                    f"{config[key]!r}: transformers 5.24.0 cannot build it ({why})", where)
