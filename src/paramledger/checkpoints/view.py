"""Views of a reconciled checkpoint: the text `paramledger inspect` prints and its JSON.

``total`` is what the headers add up to (every stored value); ``parameters`` is the learned
parameters among them (packed values unpacked, buffers and scales left out).
"""

from __future__ import annotations

import math
from typing import Any

from ..limits import printable
from ..render import table as _table
from .reconcile import Report, sorted_entries


def _shape(shape: tuple[int, ...]) -> str:
    if len(shape) > 16:  # a hostile header's million dimensions stay one short cell
        return " × ".join(str(s) for s in shape[:8]) + f" × ... ({len(shape):,} dimensions)"
    return " × ".join(str(s) for s in shape) if shape else "scalar"


def _listed(entries: list, describe, limit: int = 8) -> list[str]:
    lines = [printable(f"  {e.tensor.name} {_shape(e.tensor.shape)}: {describe(e)}") for e in entries[:limit]]
    if len(entries) > limit:
        lines.append(f"  ... and {len(entries) - limit} more")
    return lines


def report_text(report: Report, *, config_label: str | None = None, tensors: bool = False) -> str:
    ck = report.checkpoint
    out = [f"{printable(ck.path)}: {ck.format}, {len(ck.tensors):,} tensors, {report.stored_values:,} stored values, "
           f"{ck.total_bytes:,} bytes", ""]
    rows = [("dtype", "tensors", "values", "bytes")]
    counts: dict[str, int] = {}
    for t in ck.tensors:
        counts[t.dtype] = counts.get(t.dtype, 0) + 1
    for dtype, (values, nbytes) in ck.by_dtype().items():
        rows.append((dtype, f"{counts[dtype]:,}", f"{values:,}", f"{nbytes:,}"))
    out += [_table(rows, "lrrr"), ""]
    rows = [("kind", "tensors", "stored values")]
    for kind, (n, values) in report.kinds().items():
        rows.append((kind, f"{n:,}", f"{values:,}"))
    out += [_table(rows, "lrr"), ""]
    rows = [("component", "parameters")]
    for component, values in report.components().items():
        rows.append((component, f"{values:,}"))
    rows.append(("parameters", f"{report.parameters:,}"))
    out += [_table(rows, "lr")]
    not_learned = [e for e in report.entries if e.kind in ("buffer", "quantization", "alias")]
    if not_learned:
        out += ["", "not learned parameters (stored, not counted):"]
        out += _listed(not_learned, lambda e: e.reason)
    packed = [e for e in report.entries if e.kind == "packed"]
    if packed:
        out += ["", "packed low-bit values (stored elements are not the parameter count):"]
        out += _listed(packed, lambda e: f"{e.tensor.values:,} {e.tensor.dtype} elements for {e.parameters:,} "
                                         f"parameters ({e.reason})")
    if report.inventory is not None:
        inv = report.inventory
        diff = report.stored_values - inv.total
        out += ["", f"reconciled with {config_label or 'the config'}: the config's inventory counts {inv.total:,}; "
                    f"the file stores {report.stored_values:,} values ({diff:+,})"]
        out += [printable(f"  - {d.message}") for d in report.differences]
        explained = sum(d.contribution for d in report.differences)
        verdict = "every value accounted for" if report.balanced else f"UNEXPLAINED: {diff - explained:+,}"
        out.append(f"  the differences add up to {explained:+,}: {verdict}")
    out += [printable(f"name: {line}") for line in report.name_lines]
    out += [printable(f"note: {note}") for note in report.checkpoint.notes]
    if tensors:
        rows = [("tensor", "dtype", "shape", "values", "bytes", "kind", "component")]
        for e in sorted_entries(report):
            t = e.tensor
            rows.append((printable(t.name), printable(t.dtype), _shape(t.shape), f"{t.values:,}", f"{t.nbytes:,}", e.kind, e.component))
        out += ["", _table(rows, "llrrrll")]
    return "\n".join(out)


def _json_value(value: Any) -> Any:
    """A header's metadata value as strict JSON (a skipped GGUF array as its summary, NaN as text)."""
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def report_json(report: Report, *, config_label: str | None = None) -> dict[str, Any]:
    ck = report.checkpoint
    counts: dict[str, int] = {}
    for t in ck.tensors:
        counts[t.dtype] = counts.get(t.dtype, 0) + 1
    out: dict[str, Any] = {
        "path": ck.path,
        "format": ck.format,
        "total": report.stored_values,
        "total_definition": "every value the headers declare (buffers, scales and packed elements included)",
        "parameters": report.parameters,
        "bytes": ck.total_bytes,
        "by_dtype": {dtype: {"tensors": counts[dtype], "values": values, "bytes": nbytes}
                     for dtype, (values, nbytes) in ck.by_dtype().items()},
        "kinds": {kind: {"tensors": n, "values": values} for kind, (n, values) in report.kinds().items()},
        "components": report.components(),
        "tensors": [
            {"name": e.tensor.name, "dtype": e.tensor.dtype, "shape": list(e.tensor.shape), "values": e.tensor.values,
             "bytes": e.tensor.nbytes, "kind": e.kind, "component": e.component, "layer": e.layer,
             "parameters": e.parameters, "matches": e.expected, "file": e.tensor.file}
            for e in sorted_entries(report)
        ],
        "aliases": dict(ck.aliases),
        "metadata": {key: _json_value(value) for key, value in ck.metadata.items()},
        "notes": list(ck.notes),
        "reconcile": None,
        "name_size": None,
    }
    if report.inventory is not None:
        out["reconcile"] = {
            "config": config_label,
            "inventory_total": report.inventory.total,
            "stored_values": report.stored_values,
            "differences": [{"kind": d.kind, "message": d.message, "contribution": d.contribution,
                             "tensors": len(d.tensors)} for d in report.differences],
            "balanced": report.balanced,
        }
    if report.name_size is not None:
        size = report.name_size
        out["name_size"] = {"name": size.name, "label": size.label, "total": size.total, "experts": size.experts,
                            "active": size.active, "lines": list(report.name_lines)}
    return out
