"""The parameter count a model's name claims: "7B", "270m", "1.7B", "8x7B", "30B-A3B".

Names round (Llama-2-7b holds 6,738,415,616) and some count differently: "8x7B" reads as
eight 7B models, but the experts share attention and embeddings; "A3B" is the active
count per token, not the total.  Only B (10⁹), M (10⁶) and T (10¹²) are read: "4k" in
"Phi-3-mini-4k" is a context length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..inventory import Inventory
    from ._stored import Checkpoint

_SCALE = {"m": 10**6, "b": 10**9, "t": 10**12}
# A size stands between separators (start, "-", "_", "/", " ", ".") so "Qwen2.5-7B" reads 7B, not 2.5-7B.
_SIZE = re.compile(r"(?:^|(?<=[-_/ .]))(?:(\d+)x)?(\d+(?:\.\d+)?)([bmt])(?=$|[-_/ .])", re.IGNORECASE)
_ACTIVE = re.compile(r"(?:^|(?<=[-_/ .]))a(\d+(?:\.\d+)?)([bmt])(?=$|[-_/ .])", re.IGNORECASE)


@dataclass(frozen=True)
class NameSize:
    name: str
    label: str  # as written: "8x7B"
    total: int  # what the label claims for the whole model (8x7B -> 56,000,000,000)
    experts: int = 1  # the "8" of "8x7B"
    active: int | None = None  # the "3B" of "A3B"
    active_label: str | None = None


def _amount(number: str, unit: str) -> int:
    value = Fraction(number) * _SCALE[unit.lower()]
    return int(value)


def parse_name_size(name: str) -> NameSize | None:
    """The size a model name claims, or None when the name carries none."""
    short = name.rstrip("/").split("/")[-1]
    if len(short) > 200:  # no release's name is this long; a 5,000-digit "label" would overflow int()
        return None
    active_match = _ACTIVE.search(short)
    rest = short[:active_match.start()] + short[active_match.end():] if active_match else short
    match = _SIZE.search(rest)
    if match is None:
        return None
    experts = int(match.group(1)) if match.group(1) else 1
    per = _amount(match.group(2), match.group(3))
    active = _amount(active_match.group(1), active_match.group(2)) if active_match else None
    return NameSize(
        name=short,
        label=match.group(0),
        total=experts * per,
        experts=experts,
        active=active,
        active_label=active_match.group(0) if active_match else None,
    )


def claimed_size(name: str | None, checkpoint: Checkpoint, config: Mapping[str, Any]) -> NameSize | None:
    """The size claimed by ``name`` if given, else by the first that carries one of: GGUF's
    general.size_label and general.name, the checkpoint's folder and file name, the
    config's _name_or_path."""
    path = Path(checkpoint.path)
    candidates = [name] if name else []
    candidates += [str(checkpoint.metadata.get("general.size_label", "")),
                   str(checkpoint.metadata.get("general.name", "")),
                   path.parent.name if path.is_file() or path.suffix else path.name, path.stem,
                   str(config.get("_name_or_path", ""))]
    for candidate in candidates:
        if candidate:
            size = parse_name_size(candidate)
            if size is not None:
                return size
            if name:  # an explicit name that carries no size: say nothing rather than guess
                return None
    return None


def name_lines(size: NameSize, inv: Inventory | None, stored_parameters: int) -> list[str]:
    """What the claimed size means beside the config's count (or the stored parameters)."""
    actual = inv.total if inv is not None else stored_parameters
    source = "the config counts" if inv is not None else "the checkpoint stores"
    gap = _relative(actual, size.total)
    if size.experts > 1:
        per = size.total // size.experts
        lines = [f"the name {size.name!r} says {size.label} ({size.experts} × {per:,} = {size.total:,}): {source} "
                 f"{actual:,} ({gap}), because the experts share attention, norms and embeddings"]
    else:
        lines = [f"the name {size.name!r} says {size.label} ({size.total:,}): {source} {actual:,} ({gap}); "
                 "names round"]
    if size.active is not None:
        if inv is not None and inv.architecture is not None and inv.architecture.is_moe:
            lines.append(f"the name's {size.active_label} is the active count per token ({size.active:,}): the "
                         f"config gives {inv.active:,} active ({_relative(inv.active, size.active)})")
        else:
            lines.append(f"the name's {size.active_label} is an active count per token ({size.active:,}), "
                         "not the total")
    return lines


def _relative(actual: int, claimed: int) -> str:
    if claimed == 0:
        return "the name claims 0"
    share = (actual - claimed) * 100 / claimed
    if actual == claimed:
        return "exactly"
    return f"{abs(share):.2f} % {'above' if actual > claimed else 'below'} the name"
