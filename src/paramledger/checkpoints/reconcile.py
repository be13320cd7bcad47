"""Three counts of one model, reconciled: the config-derived inventory, the tensors a
checkpoint stores, and the size in the model's name.

Every stored tensor and every inventory tensor is accounted for exactly once, so the
differences add up: ``stored values - inventory total = sum of the differences'
contributions`` (``Report.balanced``).  Each difference is one line that says why: a tied
head not stored (or stored twice), buffers, quantization scales, packed low-bit values,
a padded vocabulary, extra modules (DeepSeek's multi-token-prediction layer), missing
tensors, shape mismatches, tensors split differently (GGUF's per-projection experts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..inventory import Inventory
from ..naming import LLAMA, Naming
from ._stored import Checkpoint, Difference, Entry
from .differences import explain
from .name_size import NameSize, claimed_size, name_lines
from .names import (guess_component, guess_layer, kind_of, logical_name, match_names, packed_values,
                    quant_state_owners)
from .safetensors import natural_key


KINDS = ("parameter", "packed", "alias", "buffer", "quantization")  # alias: a tied head stored again


@dataclass(frozen=True)
class Report:
    checkpoint: Checkpoint
    entries: tuple[Entry, ...]
    inventory: Inventory | None
    differences: tuple[Difference, ...]
    name_size: NameSize | None
    name_lines: tuple[str, ...]

    @property
    def stored_values(self) -> int:
        return self.checkpoint.total_values

    @property
    def parameters(self) -> int:
        """Learned parameter values the checkpoint holds (packed values unpacked)."""
        return sum(e.parameters for e in self.entries)

    @property
    def expected(self) -> int | None:
        return self.inventory.total if self.inventory is not None else None

    @property
    def balanced(self) -> bool:
        if self.inventory is None:
            return True
        return self.stored_values - self.inventory.total == sum(d.contribution for d in self.differences)

    def kinds(self) -> dict[str, tuple[int, int]]:
        """kind -> (tensors, stored values), in KINDS order."""
        out: dict[str, list[int]] = {}
        for e in self.entries:
            slot = out.setdefault(e.kind, [0, 0])
            slot[0] += 1
            slot[1] += e.tensor.values
        return {k: (out[k][0], out[k][1]) for k in KINDS if k in out}

    def components(self) -> dict[str, int]:
        from ..inventory import COMPONENTS

        out: dict[str, int] = {}
        for e in self.entries:
            if e.parameters:
                out[e.component] = out.get(e.component, 0) + e.parameters
        order = {name: i for i, name in enumerate(COMPONENTS)}
        return dict(sorted(out.items(), key=lambda kv: order.get(kv[0], len(order))))


def reconcile(checkpoint: Checkpoint, inventory: Inventory | None = None, *, config: Mapping[str, Any] | None = None,
              naming: Naming | None = None, name: str | None = None, tokenizer_size: int | None = None) -> Report:
    """Sort every stored tensor and, with an inventory, explain every difference."""
    config = config or {}
    stored_names = frozenset(checkpoint.names())
    bits = _quant_bits(config)
    expected_names = inventory.names() if inventory is not None else []
    # GGUF names its tensors its own way (blk.0.attn_q); translate them to the family's.
    translated = {}
    if checkpoint.format.startswith("gguf"):
        from .gguf import hf_name

        for n in stored_names:
            hf = hf_name(n, naming or LLAMA)
            if hf is not None:
                translated[n] = hf
    owners = quant_state_owners(stored_names)
    kinds = {t.name: kind_of(t, stored_names, owners) for t in checkpoint.tensors}
    candidates = {}
    for t in checkpoint.tensors:
        kind = kinds[t.name][0]
        key = translated.get(t.name, t.name)
        candidates[t.name] = logical_name(key) if kind == "packed" else key
    matched_raw = match_names(
        [candidates[t.name] for t in checkpoint.tensors if kinds[t.name][0] in ("parameter", "packed")], expected_names)
    matches = {n: matched_raw[candidates[n]] for n in candidates if candidates[n] in matched_raw
               and kinds[n][0] in ("parameter", "packed")}
    entries: list[Entry] = []
    differences: list[Difference] = []
    aliases = dict(inventory.aliases) if inventory is not None else {}
    by_name = {t.name: t for t in inventory.tensors} if inventory is not None else {}
    for t in checkpoint.tensors:
        kind, reason = kinds[t.name]
        target = matches.get(t.name)
        if target is None and inventory is not None and kind == "parameter":
            alias_target = _alias_for(candidates[t.name], aliases)
            if alias_target is not None:
                entries.append(Entry(t, "alias", by_name[alias_target].component, None, alias_target, 0,
                                     f"tied to {alias_target}: the same parameters stored again"))
                continue
        if target is not None:
            ref = by_name[target]
            component, layer = ref.component, ref.layer
        else:
            component, layer = guess_component(candidates[t.name]), guess_layer(candidates[t.name])
        if kind == "parameter":
            params = t.values
        elif kind == "packed":
            params = by_name[target].count if target is not None else (packed_values(t, bits) or t.values)
        else:
            params = 0
        entries.append(Entry(t, kind, component, layer, target, params, reason))
    if inventory is not None:
        differences = explain(checkpoint, inventory, entries, config, tokenizer_size)
    size = claimed_size(name, checkpoint, config)
    lines = name_lines(size, inventory, sum(e.parameters for e in entries)) if size else ()
    return Report(checkpoint, tuple(entries), inventory, tuple(differences), size, tuple(lines))


def _alias_for(name: str, aliases: Mapping[str, str]) -> str | None:
    if not aliases:
        return None
    matched = match_names([name], list(aliases))
    return aliases[matched[name]] if name in matched else None


def _quant_bits(config: Mapping[str, Any]) -> int | None:
    quant = config.get("quantization_config")
    if isinstance(quant, Mapping):
        bits = quant.get("bits") or quant.get("w_bit")
        if isinstance(bits, int) and bits > 0:
            return bits
    return None


def sorted_entries(report: Report) -> list[Entry]:
    return sorted(report.entries, key=lambda e: natural_key(e.tensor.name))
