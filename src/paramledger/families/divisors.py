"""Config values transformers 5.24.0 divides by while it builds a model, whatever the family (issue #15): a 0 there
is a ZeroDivisionError, not a model, so it is refused in one line instead of counted.

- query_pre_attn_scalar: ``self.scaling = config.query_pre_attn_scalar**-0.5`` in every attention that reads it
  (modeling_gemma2.py, gemma3, vaultgemma, t5gemma, t5gemma2, step3p7).  (Null is a TypeError there too, but
  other classes ignore a null they do not read: not refused here.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

DIVISORS = {"query_pre_attn_scalar": "the attention's scaling is query_pre_attn_scalar ** -0.5"}


def check(config: Mapping[str, Any], where: str | None) -> None:
    """Refuse a divisor of 0 the config gives, naming its key."""
    for key, why in DIVISORS.items():
        if config.get(key) == 0 and not isinstance(config[key], bool):
            raise ArchitectureError(key, f"{config[key]!r}: transformers 5.24.0 cannot build it ({why})", where)
