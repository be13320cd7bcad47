"""Views of an inventory: the readable table, the manifest and the JSON object.

Counts are printed with thousands separators and never with a binary prefix;
percentages are computed here, at the edge, from exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .analysis import break_even_vocab_size, rule_of_thumb
from .inventory import (ACTIVE_DEFINITION, NON_EMBEDDING_DEFINITIONS, TOWER_COMPONENTS, Inventory, Layers, StampedTensors,
                        Tensor)


def percent(part: int | Fraction, whole: int | None = None, digits: int = 2) -> str:
    share = Fraction(part, whole) if whole is not None else Fraction(part)
    return f"{float(share * 100):.{digits}f} %"


def human(count: int) -> str:
    """A count at a glance, decimal prefixes (8.03 B, 494.03 M): never a binary prefix for a count."""
    for scale, unit in ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "k")):
        if abs(count) >= scale:
            return f"{count / scale:.2f} {unit}"
    return str(count)


def table(rows: list[tuple[str, ...]], align: str) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.ljust(w) if a == "l" else cell.rjust(w) for cell, w, a in zip(row, widths, align)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


LISTED_LAYERS = 10_000
"""Beyond this depth, count --json gives the layers' totals as runs of alike layers ("0-999999"), not one by one;
past LISTED_RUNS runs, one entry per layer total, its layers in runs ("3-999999, 250,000 layers in 250,000 runs")."""
LISTED_RUNS = 2_000  # as tensor_diff.py's (compare --tensors groups the runs of each kind past it)


def by_layer_json(inv: Inventory) -> dict[str, int]:
    """Layer index -> its parameters ("outside": the tensors outside the layers); past LISTED_LAYERS layers,
    each run of consecutive layers of one total under "first-last"."""
    tensors = inv.tensors
    if isinstance(tensors, StampedTensors) and len(tensors.blocks) > LISTED_LAYERS:  # per run of alike layers
        outside = tensors.head + tensors.tail
        out = {"outside": sum(t.count for t in outside)} if outside else {}
        if tensors.run_count() > LISTED_RUNS:  # kinds alternate: one entry per layer total, its layers in runs
            kinds: dict[int, list[Layers]] = {}
            for layers, block in tensors.layer_kinds():
                kinds.setdefault(sum(t.count for t in block), []).append(layers)
            for total, parts in kinds.items():
                layers = Layers.union(parts)
                out[f"{layers[0]}-{layers[-1]}, {len(layers):,} layers in {layers.runs:,} runs"] = total
            return out
        runs: list[tuple[range, int]] = []
        totals: dict[int, int] = {}  # each kind of block summed once
        for layers, block in tensors.layer_runs()[1]:
            total = totals.get(id(block)) or totals.setdefault(id(block), sum(t.count for t in block))
            if runs and runs[-1][1] == total:
                layers = range(runs.pop()[0][0], layers[-1] + 1)
            runs.append((layers, total))
        out.update((f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]), total) for r, total in runs)
        return out
    totals = inv.by_layer
    out = {"outside": totals[None]} if None in totals else {}
    layers = [(k, v) for k, v in totals.items() if k is not None]
    if len(layers) <= LISTED_LAYERS:
        out.update((str(k), v) for k, v in layers)
        return out
    start = 0
    for i in range(1, len(layers) + 1):
        if i == len(layers) or layers[i][1] != layers[start][1]:
            out[f"{layers[start][0]}-{layers[i - 1][0]}" if i - 1 > start else str(layers[start][0])] = layers[start][1]
            start = i
    return out


def beside_decoder(inv: Inventory) -> str:
    """What a whole model holds beside its text decoder, in words: an encoder-decoder's encoder, else its towers."""
    return "the encoder" if [c for c in TOWER_COMPONENTS if inv.component(c)] == ["encoder"] else "the towers"


def text_only_said(inv: Inventory) -> str:
    """"; --text-only counts it alone" after the decoder's line, where it does (not where that decoder is no class of
    its own, GIT's, BLIP's, ProphetNet's: towers.decoder_alone_refused)."""
    from .towers import decoder_alone_refused

    arch = inv.architecture
    return "" if arch is not None and decoder_alone_refused(arch.model_type) else "; --text-only counts it alone"


def inventory_table(inv: Inventory) -> str:
    total = inv.total
    rows = [("component", "parameters", "≈", "share")]
    for name, count in inv.components.items():
        rows.append((name, f"{count:,}", human(count), percent(count, total)))
    rows.append(("total", f"{total:,}", human(total), "100.00 %"))
    out = [heading(inv), table(rows, "lrrr"), ""]
    arch = inv.architecture
    if inv.has_towers:  # a whole multimodal model: its decoder's own total, a line of its own
        out.append(f"text decoder: {inv.text_decoder:,} ({human(inv.text_decoder)}; the total less "
                   f"{beside_decoder(inv)}{text_only_said(inv)})")
    out.append(f"embedding share: {percent(inv.embedding_share, digits=6)} (token table / total)")
    # the head's weight tied to the token table, and its bias to one held apart (BERT's cls.predictions.bias)
    tables: frozenset[str] = frozenset()
    if inv.has_towers:  # an encoder's embed_tokens tied to the shared table: no head
        from .towers import tower_aliases

        tables = tower_aliases(arch)
    unembed = None  # the head's projection tied to the table's (NeoMME's unembedding_projection): the head's too
    if arch is not None:
        from .families import naming_of

        unembed = naming_of(arch).unembed_project and naming_of(arch).unembed_project + ".weight"
    head = {alias: target for alias, target in inv.aliases.items()
            if (inv[target].component in ("embedding", "lm_head") or alias == unembed) and alias not in tables}
    if tables:  # (by the tensor each names: T5Gemma 2's eoi_embedding is tied beside its table)
        held: dict[str, list[str]] = {}
        for alias in sorted(tables):
            held.setdefault(inv.aliases[alias], []).append(alias)
        said = "; ".join(", ".join(names) + " -> " + target for target, names in held.items())
        out.append(f"shared token table: {said}, counted once")
    if head:
        pairs = ", ".join(f"{alias} -> {target}" for alias, target in head.items())
        out.append(f"output head: tied ({pairs}), counted once")
    elif arch is not None and arch.num_latents is not None:  # (PerceiverEmbeddingDecoder: perceiver_tables.py)
        out.append("output head: the token table read in forward, no module of its own"
                   + ("; its bias counted" if arch.lm_head_bias else ""))
    elif arch is not None and not naming_of(arch).lm_head:  # (PI0's: its action_out_proj, no LM head)
        out.append("output head: none (the whole model holds no LM head over the token table)")
    else:
        out.append("output head: untied, an independent table counted in full")
    if len(inv.aliases) > len(head) + len(tables):  # a block reused at several depths: its later names
        shared = len(inv.aliases) - len(head) - len(tables)
        held = len(set(inv.aliases.values()) - set(head.values()))
        why = next((said for tower in (arch.towers.parts if arch is not None and arch.towers else ())
                    if (said := getattr(tower, "shared_said", ""))), "a block reused at several depths")
        out.append(f"shared tensors: {shared:,} names are {held:,} tensors held once ({why}), counted once")
    out.append(f"non-embedding (Hugging Face exclude_embeddings): {inv.non_embedding('hf'):,}")
    if arch is not None:
        rule = rule_of_thumb(arch)
        out.append(f"rule of thumb 12·L·d²: {rule.estimate:,}, {percent(rule.estimate, rule.exact)} of the exact "
                   f"count (off by {rule.gap:+,})")
        break_even = break_even_vocab_size(arch)
        if break_even is not None:
            out.append(f"break-even vocabulary: from {break_even:,} rows the token table outweighs everything else")
    if arch is not None and arch.stored is not None:
        out.append(f"stored as: {arch.stored.description} (paramledger memory sizes it so; the counts are the "
                   "learned parameters, scales and zero points not among them)")
    if arch is not None and arch.tokenizer:
        out.append(f"tokenizer: {arch.tokenizer} (the table's rows are its ids)")
    if inv.frozen:
        out.append(f"frozen: {inv.frozen:,} (still counted); trainable: {inv.trainable:,}")
    if arch is not None and arch.is_moe:
        out.append(f"active per token: {inv.active:,} ({percent(inv.active, total)} of the total); "
                   f"{inv.active_non_embedding:,} without the token and position tables")
    out.extend(f"note: {note}" for note in inv.notes)
    return "\n".join(out)


def heading(inv: Inventory) -> str:
    arch = inv.architecture
    if arch is None:
        return f"{inv.source or 'inventory'}"
    layers = arch.num_hidden_layers
    return (f"{inv.source or 'design'}: {arch.model_type}, {layers} layer{'s' if layers != 1 else ''}, "
            f"hidden {arch.hidden_size}, vocabulary {arch.vocab_size:,}, {arch.attention_kind}")


GROUPED_MANIFEST = ("past {:,} layers each run of identical layers is one row per tensor, named with the layers "
                    "it stands for (model.layers.{{0-999999}}.…); the parameters are one layer's")


def manifest_grouped(inv: Inventory) -> bool:
    """The manifest lists runs of identical layers, not layers (as by_layer does past LISTED_LAYERS)."""
    return isinstance(inv.tensors, StampedTensors) and len(inv.tensors.blocks) > LISTED_LAYERS


def manifest_rows(inv: Inventory, view: list | None = None) -> list[tuple[str, Tensor, range | Layers | None]]:
    """(name, tensor, its layers) for each row of the manifest: every tensor (its layer, or None outside the
    layers); past LISTED_LAYERS layers each tensor of a run of identical layers once, named
    "model.layers.{0-999999}.mlp.up_proj.weight", with the run's layers (``view``: treemap.layer_view)."""
    tensors = inv.tensors
    if not manifest_grouped(inv):
        return [(t.name, t, None if t.layer is None else range(t.layer, t.layer + 1)) for t in tensors]
    from .treemap import layer_view

    static = tensors.layer_prefix.partition("{i}")[0]
    rows: list[tuple[str, Tensor, range | Layers | None]] = []
    for item in layer_view(inv) if view is None else view:
        if isinstance(item, Tensor):
            rows.append((item.name, item, None))
            continue
        layers, first = item
        span = (f"{{{layers[0]}-{layers[-1]}, {layers.runs:,} runs}}" if isinstance(layers, Layers)
                else f"{{{layers[0]}-{layers[-1]}}}" if len(layers) > 1 else str(layers[0]))
        start = len(tensors.layer_prefix.format(i=layers[0]))
        rows.extend((f"{static}{span}.{t.name[start:]}", t, layers) for t in first)
    return rows


def layers_text(layers: range | Layers | None, grouped: bool) -> str:
    """A manifest row's layer column."""
    if layers is None:
        return ""
    if not grouped:
        return str(layers[0])
    if isinstance(layers, Layers):
        return f"{len(layers):,} layers in {layers[0]:,}–{layers[-1]:,} ({layers.runs:,} runs)"
    return f"{layers[0]:,}–{layers[-1]:,}" if len(layers) > 1 else f"{layers[0]:,}"


def manifest_table(inv: Inventory) -> str:
    rows = [("tensor", "shape", "parameters", "component", "layer")]
    grouped = manifest_grouped(inv)
    for name, t, layers in manifest_rows(inv):
        shape = " × ".join(str(s) for s in t.shape)
        mark = " (frozen)" if t.frozen else ""
        rows.append((name + mark, shape, f"{t.count:,}", t.component, layers_text(layers, grouped)))
    text = (GROUPED_MANIFEST.format(LISTED_LAYERS) + ":\n" if grouped else "") + table(rows, "lrrll")
    if inv.aliases:
        text += "\n\naliases (counted once, with the tensor they share):\n"
        text += "\n".join(f"  {alias} -> {target}" for alias, target in inv.aliases.items())
    arch = inv.architecture
    if arch is not None and arch.stored is not None and arch.stored.method is not None:
        from .quantization.pricing import stored_tensors

        extra = [piece for t, piece in stored_tensors(inv, arch.stored) if piece.name != t.name]
        text += (f"\n\nstored beside the weights by {arch.stored.method.quant_method} (scales, zero points, packed "
                 "weights: stored, not learned, not counted):\n")
        text += "\n".join(f"  {p.name}  {' × '.join(map(str, p.shape)) or 'scalar'}  {p.dtype}" for p in extra)
    if inv.buffers:
        text += "\n\nbuffers (stored, not learned, not counted):\n"
        text += "\n".join(f"  {b.name}  {' × '.join(map(str, b.shape))}  {b.count:,}" for b in inv.buffers)
    return text


def inventory_json(inv: Inventory, *, manifest: bool = False) -> dict[str, Any]:
    arch = inv.architecture
    out: dict[str, Any] = {
        "source": inv.source,
        "total": inv.total,
        "text_decoder": inv.text_decoder,  # the total less a multimodal model's towers (= total for a decoder)
        "components": inv.components,
        "embedding": inv.embedding,
        "embedding_share": float(inv.embedding_share),
        "tied": inv.tied,
        "aliases": dict(inv.aliases),
        "non_embedding": {name: inv.non_embedding(name) for name in NON_EMBEDDING_DEFINITIONS},
        "non_embedding_definitions": NON_EMBEDDING_DEFINITIONS,
        "trainable": inv.trainable,
        "frozen": inv.frozen,
        "by_layer": by_layer_json(inv),
        "notes": list(inv.notes),
    }
    if arch is not None:
        out["architecture"] = arch.to_mapping()
        out["stored_format"] = arch.stored.to_json() if arch.stored is not None else None
        out["active"] = inv.active
        out["active_non_embedding"] = inv.active_non_embedding
        out["active_definition"] = ACTIVE_DEFINITION
        rule = rule_of_thumb(arch)
        out["rule_of_thumb"] = {"formula": "12 * num_hidden_layers * hidden_size**2",
                                "estimate": rule.estimate, "gap": rule.gap}
        out["break_even_vocab_size"] = break_even_vocab_size(arch)
    if manifest and inv.buffers:
        out["buffers"] = [{"name": b.name, "shape": list(b.shape), "count": b.count} for b in inv.buffers]
    if manifest and manifest_grouped(inv):  # every layer's tensors would be millions: one entry per run
        out["tensors"] = [{"name": name, "shape": list(t.shape), "count": t.count, "component": t.component,
                           **({"layer": None} if layers is None else {"layers": f"{layers[0]}-{layers[-1]}"}),
                           **({"layer_count": len(layers), "runs": layers.runs}
                              if isinstance(layers, Layers) else {}),
                           "frozen": t.frozen, "aliases": inv.aliases_of(t.name)}
                          for name, t, layers in manifest_rows(inv)]
    elif manifest:
        out["tensors"] = [
            {"name": t.name, "shape": list(t.shape), "count": t.count, "component": t.component,
             "layer": t.layer, "frozen": t.frozen, "aliases": inv.aliases_of(t.name)}
            for t in inv.tensors
        ]
    return out
