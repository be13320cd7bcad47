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

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..inventory import Inventory
from ..naming import LLAMA, Naming
from ._stored import Checkpoint, StoredTensor
from .name_size import NameSize, parse_name_size
from .names import guess_component, guess_layer, kind_of, logical_name, match_names, packed_values
from .safetensors import natural_key


@dataclass(frozen=True)
class Entry:
    """One stored tensor, sorted: ``parameters`` is the learned values it stands for."""

    tensor: StoredTensor
    kind: str  # parameter | buffer | quantization | packed | alias
    component: str
    layer: int | None
    expected: str | None  # the inventory tensor it matches
    parameters: int
    reason: str = ""


@dataclass(frozen=True)
class Difference:
    kind: str
    message: str
    contribution: int  # to (stored values - inventory total)
    tensors: tuple[str, ...] = ()


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
        """kind -> (tensors, stored values)."""
        out: dict[str, list[int]] = {}
        for e in self.entries:
            slot = out.setdefault(e.kind, [0, 0])
            slot[0] += 1
            slot[1] += e.tensor.values
        return {k: (v[0], v[1]) for k, v in out.items()}

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
    is_gguf = checkpoint.format.startswith("gguf")
    expected_names = inventory.names() if inventory is not None else []
    # GGUF names its tensors its own way (blk.0.attn_q); translate them to the family's.
    translated = {}
    if is_gguf:
        from .gguf import hf_name

        for n in stored_names:
            hf = hf_name(n, naming or LLAMA)
            if hf is not None:
                translated[n] = hf
    kinds = {t.name: kind_of(t, stored_names) for t in checkpoint.tensors}
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
    head_twice: list[Entry] = []
    for t in checkpoint.tensors:
        kind, reason = kinds[t.name]
        target = matches.get(t.name)
        if target is None and inventory is not None and kind == "parameter":
            alias_target = _alias_for(candidates[t.name], aliases)
            if alias_target is not None:
                entry = Entry(t, "alias", by_name[alias_target].component, None, alias_target, 0,
                              f"tied to {alias_target}: the same parameters stored again")
                entries.append(entry)
                head_twice.append(entry)
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
        differences = _differences(checkpoint, inventory, entries, head_twice, config, is_gguf, tokenizer_size)
    size = _name_size(name, checkpoint, config)
    lines = _name_lines(size, inventory, sum(e.parameters for e in entries)) if size else ()
    return Report(checkpoint, tuple(entries), inventory, tuple(differences), size, lines)


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


def _differences(checkpoint: Checkpoint, inv: Inventory, entries: list[Entry], head_twice: list[Entry],
                 config: Mapping[str, Any], is_gguf: bool, tokenizer_size: int | None) -> list[Difference]:
    out: list[Difference] = []
    matched = {e.expected for e in entries if e.expected is not None and e.kind != "alias"}
    by_name = {t.name: t for t in inv.tensors}
    # -- the tied head
    for alias, target in inv.aliases.items():
        if any(e.expected == target and e.kind == "alias" for e in head_twice):
            e = next(e for e in head_twice if e.expected == target)
            out.append(Difference("tied_head_stored_twice",
                                  f"tied head stored twice: {e.tensor.name} {_shape(e.tensor.shape)} is stored as its "
                                  f"own tensor although the config ties it to {target}: +{e.tensor.values:,} stored "
                                  "values, no extra parameters", e.tensor.values, (e.tensor.name,)))
        else:
            out.append(Difference("tied_head_not_stored",
                                  f"tied head not stored: {alias} is {target} (tie_word_embeddings), so the file "
                                  "stores it once and it is counted once", 0, (alias,)))
    # -- what is stored but is not a learned parameter
    for kind, label in (("buffer", "buffers (registered state, not learned)"),
                        ("quantization", "quantization scales, zero points and bookkeeping (not parameters)")):
        group = [e for e in entries if e.kind == kind]
        if group:
            values = sum(e.tensor.values for e in group)
            out.append(Difference(kind, f"{label}: {len(group)} tensors, +{values:,} stored values, e.g. "
                                        f"{_examples(group)}", values, tuple(e.tensor.name for e in group)))
    packed = [e for e in entries if e.kind == "packed" and e.expected is not None]
    if packed:
        stored = sum(e.tensor.values for e in packed)
        params = sum(e.parameters for e in packed)
        dtypes = ", ".join(sorted({e.tensor.dtype for e in packed}))
        out.append(Difference("packed", f"packed low-bit values: {len(packed)} tensors store {stored:,} {dtypes} "
                                        f"elements for {params:,} parameters ({stored - params:+,})",
                              stored - params, tuple(e.tensor.name for e in packed)))
    # -- shape mismatches among matched tensors (a padded vocabulary is the common one)
    for e in entries:
        if e.expected is None or e.kind != "parameter":
            continue
        ref = by_name[e.expected]
        if tuple(e.tensor.shape) == ref.shape:
            continue
        delta = e.tensor.values - ref.count
        if ref.component in ("embedding", "lm_head") and len(ref.shape) == 2 and e.tensor.shape[1:] == ref.shape[1:]:
            message = (f"padded vocabulary: {e.tensor.name} stores {e.tensor.shape[0]:,} rows but vocab_size is "
                       f"{ref.shape[0]:,} ({delta:+,} values)")
            out.append(Difference("padded_vocabulary", message, delta, (e.tensor.name,)))
        elif e.tensor.values == ref.count:
            out.append(Difference("layout", f"same values, other layout: {e.tensor.name} is {_shape(e.tensor.shape)}, "
                                            f"the config gives {_shape(ref.shape)} (a transposed or reshaped "
                                            "store; the count agrees)", 0, (e.tensor.name,)))
        else:
            out.append(Difference("shape_mismatch", f"shape mismatch: {e.tensor.name} is {_shape(e.tensor.shape)}, "
                                                    f"the config gives {_shape(ref.shape)} ({delta:+,} values)",
                                  delta, (e.tensor.name,)))
    # -- unmatched on either side: a different split, extra modules, missing tensors
    extra = [e for e in entries if e.kind == "parameter" and e.expected is None]
    extra_packed = [e for e in entries if e.kind == "packed" and e.expected is None]
    missing = [t for t in inv.tensors if t.name not in matched]
    # Layers beyond num_hidden_layers are extra modules whatever they hold; set them
    # apart before pairing the rest by component.
    layers = inv.architecture.num_hidden_layers if inv.architecture is not None else None
    beyond = [e for e in extra + extra_packed if layers is not None and e.layer is not None and e.layer >= layers]
    beyond_names = {e.tensor.name for e in beyond}
    extra = [e for e in extra if e.tensor.name not in beyond_names]
    extra_packed = [e for e in extra_packed if e.tensor.name not in beyond_names]
    for component in sorted({e.component for e in extra} & {t.component for t in missing}):
        stored_side = [e for e in extra if e.component == component]
        config_side = [t for t in missing if t.component == component]
        if sum(e.tensor.values for e in stored_side) == sum(t.count for t in config_side):
            how = "GGUF stores them per projection" if is_gguf else "the file splits or fuses them differently"
            out.append(Difference("split", f"{component}: {len(stored_side)} stored tensors hold the same "
                                           f"{sum(t.count for t in config_side):,} values as the config's "
                                           f"{len(config_side)} ({how})", 0,
                                  tuple(e.tensor.name for e in stored_side)))
            extra = [e for e in extra if e.component != component]
            missing = [t for t in missing if t.component != component]
    if beyond:
        values = sum(e.tensor.values for e in beyond)
        found = sorted({e.layer for e in beyond})
        why = ""
        mtp = config.get("num_nextn_predict_layers")
        if isinstance(mtp, int) and mtp > 0:
            why = f": multi-token-prediction layers (num_nextn_predict_layers={mtp}), not used for next-token decoding"
        out.append(Difference("extra_modules", f"extra modules: layer(s) {', '.join(map(str, found))} "
                                               f"({len(beyond)} tensors, +{values:,} values) beyond "
                                               f"num_hidden_layers={layers}{why}", values,
                              tuple(e.tensor.name for e in beyond)))
    others = extra + extra_packed
    if others:
        values = sum(e.tensor.values for e in others)
        out.append(Difference("extra_tensors", f"not in the config's inventory: {len(others)} stored tensors, "
                                               f"+{values:,} values, e.g. {_examples(others)}", values,
                              tuple(e.tensor.name for e in others)))
    if missing:
        values = sum(t.count for t in missing)
        hint = ""
        if any(t.component == "lm_head" for t in missing) and not inv.aliases:
            hint = " (no output head is stored: is the head tied? the config says tie_word_embeddings=false)"
        shared = [t.name for t in missing if t.name in checkpoint.aliases]
        if shared:
            hint += f" ({shared[0]} shares storage with {checkpoint.aliases[shared[0]]} in the file)"
        names = ", ".join(t.name for t in missing[:3]) + (", ..." if len(missing) > 3 else "")
        out.append(Difference("missing", f"missing: {len(missing)} tensors of the config are not stored "
                                         f"(-{values:,} values): {names}{hint}", -values,
                              tuple(t.name for t in missing)))
    padded = _tokenizer_padding(inv, tokenizer_size, checkpoint)
    if padded is not None:
        out.append(padded)
    return out


def _tokenizer_padding(inv: Inventory, tokenizer_size: int | None, checkpoint: Checkpoint) -> Difference | None:
    if tokenizer_size is None:
        tokens = checkpoint.metadata.get("tokenizer.ggml.tokens")
        tokenizer_size = getattr(tokens, "count", None) or (len(tokens) if isinstance(tokens, list) else None)
    arch = inv.architecture
    if tokenizer_size is None or arch is None or arch.vocab_size <= tokenizer_size:
        return None
    rows = arch.vocab_size - tokenizer_size
    return Difference("padded_vocabulary",
                      f"padded vocabulary: vocab_size {arch.vocab_size:,} is {rows:,} rows more than the tokenizer's "
                      f"{tokenizer_size:,} tokens ({rows:,} × {arch.hidden_size:,} = {rows * arch.hidden_size:,} "
                      "values no token reads; stored and counted as parameters)", 0)


def _name_size(name: str | None, checkpoint: Checkpoint, config: Mapping[str, Any]) -> NameSize | None:
    path = Path(checkpoint.path)
    candidates = [name] if name else []
    candidates += [str(checkpoint.metadata.get("general.size_label", "")), str(checkpoint.metadata.get("general.name", "")),
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


def _name_lines(size: NameSize, inv: Inventory | None, stored_parameters: int) -> tuple[str, ...]:
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
            lines.append(f"the name's {size.active_label} is an active count per token ({size.active:,}), not the total")
    return tuple(lines)


def _relative(actual: int, claimed: int) -> str:
    if claimed == 0:
        return "the name claims 0"
    share = (actual - claimed) * 100 / claimed
    if actual == claimed:
        return "exactly"
    return f"{abs(share):.2f} % {'above' if actual > claimed else 'below'} the name"


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _examples(entries: list[Entry], count: int = 2) -> str:
    shown = ", ".join(f"{e.tensor.name} {_shape(e.tensor.shape)}" for e in entries[:count])
    return shown + (", ..." if len(entries) > count else "")


def tokenizer_vocabulary(path: str | Path) -> int | None:
    """Token ids a tokenizer.json defines (its vocabulary plus added tokens), or None."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    model = data.get("model") if isinstance(data, dict) else None
    vocab = model.get("vocab") if isinstance(model, dict) else None
    ids: set[int] = set()
    if isinstance(vocab, dict):
        ids.update(v for v in vocab.values() if isinstance(v, int))
    elif isinstance(vocab, list):
        ids.update(range(len(vocab)))
    for token in data.get("added_tokens", []) or []:
        if isinstance(token, dict) and isinstance(token.get("id"), int):
            ids.add(token["id"])
    return max(ids) + 1 if ids else None


def sorted_entries(report: Report) -> list[Entry]:
    return sorted(report.entries, key=lambda e: natural_key(e.tensor.name))
