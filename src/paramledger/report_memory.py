"""The report's memory section: the weights stored at a few dtypes, each with the KV cache, then the
cache itself, as memory.py reports them (`paramledger memory` at each dtype), with its JSON embedded."""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

from ._exceptions import OptionError
from ._json import indented
from .dtypes import get_dtype
from .inventory import Inventory
from .kvcache import MLA_LAYOUTS, NO_CACHE, KVCache
from .memory import (TOTAL_DEFINITION, MemoryReport, WeightBytes, format_bytes, memory_report, state_label,
                     total_label, weight_bytes, weight_dtype)
from .memory_text import report_json


def table_cells(*cells: tuple[str, str]) -> str:
    """Table cells, each (its class, its text), the text escaped."""
    return "".join(f'<td class="{cls}">{html.escape(text)}</td>' if cls else f"<td>{html.escape(text)}</td>"
                   for cls, text in cells)


# The formats a checkpoint is commonly stored as: full precision, the half-precision release,
# fp8 serving, and 8- and 4-bit quantization (int4 with its fp16 scale per 128 values).
REPORT_DTYPES = ("fp32", "bf16", "fp8_e4m3", "int8", "int4")
REPORT_KV_DTYPE = "bf16"  # one cache for every weight row: `paramledger memory`'s at its default --dtype


@dataclass(frozen=True, slots=True)
class WeightsAt:
    """The inventory stored as ``dtype``: its weight bytes and memory.py's whole report (None
    without an architecture to size a KV cache from), or why the format refuses the design."""

    dtype: str
    weights: WeightBytes | None = None
    report: MemoryReport | None = None
    refusal: str | None = None


def memory_rows(inv: Inventory, context: int | None = None, kv_dtype: str | None = None) -> list[WeightsAt]:
    """``paramledger memory SOURCE --dtype D --context N --kv-dtype K`` for each D of REPORT_DTYPES,
    ``K`` bf16 unless given and ``N`` memory_report's default (max_position_embeddings) unless given.

    A bad ``context`` or ``kv_dtype`` raises OptionError (every row would); a dtype whose group
    size does not divide a tensor's rows is a row with the refusal, the others stand."""
    rows: list[WeightsAt] = []
    stored = inv.architecture is not None and inv.architecture.stored is not None
    # One KV cache and one FLOPs count for every row (they do not depend on the weights' dtype): memory_report
    # at bf16, which has no groups to refuse, its weights swapped per row (a 10^6-layer design sizes its cache once)
    kv_dtype = kv_dtype or REPORT_KV_DTYPE
    try:
        base = None if inv.architecture is None else memory_report(inv, dtype="bf16", kv_dtype=kv_dtype,
                                                                   context=context)
    except OptionError as error:  # a design whose KV cache is not sized (kvcache.NO_CACHE: BLT's): its weights alone
        if error.option != "kv-cache":
            raise
        base = None
    for dtype in (("stored",) if stored else ()) + REPORT_DTYPES:
        chosen = None if dtype == "stored" else weight_dtype(dtype)  # the first row: as the config says (issue #18)
        try:
            weights = weight_bytes(inv, dtype if base is None and chosen is not None else chosen)
        except OptionError as error:
            if error.option != "group-size":
                raise
            rows.append(WeightsAt(dtype, refusal=str(error)))
            continue
        rows.append(WeightsAt(dtype, weights, None if base is None else replace(base, weights=weights)))
    return rows


def _weights_table(rows: list[WeightsAt], kv: KVCache | None) -> list[str]:
    total = "" if kv is None else f"{total_label(kv)} ({kv.dtype.name} cache, {kv.batch} × {kv.context:,} tokens)"
    out = ['<table class="memory-weights"><tr><th>weights stored as</th><th class="n">weights</th>'
           + (f'<th class="n wrap">{html.escape(total)}</th>' if total else "") + "<th>format</th></tr>"]
    for row in rows:
        if row.weights is None:
            cells = [("", row.dtype), ("detail", row.refusal or "")] + ([] if kv is None else [("", "")])
        else:
            group = f", groups of {row.weights.group_size}" if row.weights.group_size else ""
            cells = [("", ("as stored" if row.dtype == "stored" else row.dtype) + group),
                     ("n", format_bytes(row.weights.total))]
            if row.report is not None:
                cells.append(("n", format_bytes(row.report.total_bytes)))
        cells.append(("detail", row.weights.assumed if row.dtype == "stored" and row.weights is not None
                      else get_dtype("bf16" if row.dtype == "stored" else row.dtype).source))
        out.append(f'<tr data-key="weights_{row.dtype}">' + table_cells(*cells) + "</tr>")
    return out + ["</table>"]


def _kv_table(report: MemoryReport) -> list[str]:
    """The cache rows as `paramledger memory` prints them (and the page keys them)."""
    kv = report.kv
    rows = [("kv_per_token", f"KV cache per token at {kv.dtype.name}",
             f"{kv.values_per_token:,} values = {kv.bytes_per_token:,} bytes", ""),
            ("kv_cache", f"KV cache, {kv.batch} × {kv.context:,} tokens", format_bytes(kv.bytes), kv.definition)]
    if report.kv_decompressed is not None:
        decompressed = report.kv_decompressed
        rows.append(("kv_mla_decompressed", f"MLA decompressed: {decompressed.values_per_token:,} values per token",
                     format_bytes(decompressed.bytes), MLA_LAYOUTS["decompressed"]))
    if kv.state_values:  # Gated DeltaNet layers cache no keys or values: a fixed state instead
        rows.append(("linear_attention_state", state_label(kv),
                     f"{kv.state_values:,} values = {format_bytes(kv.state_bytes)}", ""))
    weights = "weights as stored" if report.weights.stored is not None else f"weights at {report.weights.dtype}"
    rows.append(("total_bytes", f"total ({total_label(kv)}), {weights}",
                 format_bytes(report.total_bytes), TOTAL_DEFINITION))
    out = ['<table class="memory-kv"><tr><th>KV cache</th><th class="n">size</th><th></th></tr>']
    out += [f'<tr data-key="{key}"' + (' class="total"' if key == "total_bytes" else "") + ">"
            + table_cells(("", label), ("n", text), ("detail", detail)) + "</tr>" for key, label, text, detail in rows]
    return out + ["</table>"]


def memory_section(inv: Inventory, context: int | None = None, kv_dtype: str | None = None) -> list[str]:
    """The report's memory section: the weights at each of REPORT_DTYPES (and with the cache),
    then the KV cache, with `paramledger memory --json` (its default: as stored) embedded for a reader
    that wants data."""
    rows = memory_rows(inv, context, kv_dtype)
    # `paramledger memory`'s default: as stored (a config's format), else bf16 (which has no groups to refuse)
    reference = next(row.report for row in rows if row.dtype in ("stored", "bf16"))
    kv = None if reference is None else reference.kv
    intro = ("Every unique tensor stored once (a tied head with the table it shares); "
             "GB = 10⁹ bytes, GiB = 2³⁰ bytes.")
    if kv is not None:
        intro += (f" The KV cache: {kv.batch} × {kv.context:,} tokens"
                  + (" (max_position_embeddings, the default of paramledger memory)" if context is None else "")
                  + f" at {kv.dtype.name}; --context and --kv-dtype change them.")
    out = ["<h2>Memory</h2>", f"<p>{html.escape(intro)}</p>", *_weights_table(rows, kv)]
    if reference is None:
        why = ("this inventory has no architecture (layers, heads) to size one from" if inv.architecture is None
               else NO_CACHE.get(inv.architecture.model_type, ""))  # (kvcache.NO_CACHE: BLT's)
        return out + [f"<p>No KV cache: {html.escape(why)}.</p>"]
    out += _kv_table(reference)
    # "</" escaped so no text can close the element (as the inventory's JSON below)
    payload = "".join(indented(report_json(reference), 1)).replace("</", "<\\/")
    return out + [f'<script type="application/json" id="memory-json">{payload}</script>']
