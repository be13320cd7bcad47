"""The page's fit panel over the library's fit planner (issue 19, item 8): server.py routes these paths here.

    GET /api/gpus          the GPU catalog (name, label, the memory we size it by, its source) and the
                           weight and KV cache formats the panel offers
    GET /api/fit?...       exactly fit.plan_json (the JSON of `paramledger fit --json`) for the design in the
                           query (as /api/count reads it) and gpu or gpu_memory, gpus, tp, pp, ep, dtype,
                           kv_dtype, context, batch; suggest=false skips the suggestions (the slider moving)
    GET /api/fit/view?...  what the panel shows: that JSON, and its figures as text and bar fractions

Bad input is a 400 with one line: the API's own bounds below, then the library's OptionError ("--tp: 3 does
not divide num_attention_heads 64; vLLM refuses it ...", "--gpu: unknown GPU 'h1000' (did you mean ...)").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .server import _MEMORY_KEYS, ApiError, _check_keys, _flag, _memory_module, _whole, design_from_query

FIT_KEYS = ("gpu", "gpu_memory", "gpus", "tp", "pp", "ep", "suggest", *_MEMORY_KEYS)
# Every device is listed on every answer, and a plan prices every tensor on each tp rank: 64 devices is
# eight nodes of eight, far past what one page needs; `paramledger fit` has no bound.
MAX_DEVICES = 64
MAX_GPU_MEMORY = 2**50  # a PiB per device: larger is a typo
_PARTS = (("weights", "weights_bytes", "weights"), ("kv_cache", "kv_cache_bytes", "KV cache"),
          ("recurrent_state", "recurrent_state_bytes", "recurrent state"),
          ("runtime", None, "runtime overhead"), ("reserve", None, "reserve"))


def api_gpus(query: dict[str, str]) -> dict[str, Any]:
    from .dtypes import DTYPES, KV_DTYPES
    from .fit import GPUS

    if _memory_module() is None:
        raise ApiError(404, "memory estimates are not installed in this paramledger")
    if query:
        raise ApiError(400, "/api/gpus takes no parameters")
    gpus = [{"name": g.name, "label": g.label, "memory_bytes": g.memory_bytes, "text": _short(g.memory_bytes),
             "vendor_figure": g.vendor_figure, "source": g.source} for g in GPUS.values()]
    return {"default": "h100", "gpus": gpus, "dtypes": ["stored", *DTYPES], "kv_dtypes": list(KV_DTYPES)}


def fit_query(query: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    """The inventory and fit_plan's keyword arguments a query names, within the API's bounds."""
    from . import inventory
    from .cli_numbers import parse_size

    if _memory_module() is None:
        raise ApiError(404, "memory estimates are not installed in this paramledger")
    _check_keys(query, FIT_KEYS)
    options: dict[str, Any] = {key: _whole(query, key) for key in ("gpus", "tp", "pp", "ep", "context")}
    devices = (options["tp"] or 1) * (options["pp"] or 1)
    for key, value in (("gpus", options["gpus"]), ("tp × pp", devices)):
        if value is not None and value > MAX_DEVICES:
            raise ApiError(400, f"{key}: {value:,} devices is above the page's bound of {MAX_DEVICES}; "
                                "`paramledger fit` has none")
    memory = query.get("gpu_memory", "").strip()
    if memory:
        options["gpu_memory"] = parse_size(memory, "gpu_memory")
        if options["gpu_memory"] > MAX_GPU_MEMORY:
            raise ApiError(400, f"gpu_memory: {memory} is above the API's bound of 2**50 bytes (1 PiB) a device")
    options["gpu"] = query.get("gpu", "").strip() or None
    dtype = query.get("dtype", "").strip()
    options["dtype"] = None if dtype in ("", "stored") else dtype  # as stored, as the memory panel reads it
    options["kv_dtype"] = query.get("kv_dtype", "").strip() or None
    options["batch"] = _whole(query, "batch") or 1
    options["suggest"] = "suggest" not in query or _flag(query, "suggest")
    return inventory(design_from_query(query)), options


def api_fit(query: dict[str, str]) -> dict[str, Any]:
    """Exactly what `paramledger fit SOURCE --json --gpu G --tp N --context C ...` prints."""
    from .fit import fit_plan, plan_json

    inv, options = fit_query(query)
    return plan_json(fit_plan(inv, **options))


def api_fit_view(query: dict[str, str]) -> dict[str, Any]:
    """The panel: the plan's JSON, and the verdict, each device's parts and the slider's range as text."""
    from .fit import fit_plan, plan_json
    from .fit.render import _groups, assumptions

    inv, options = fit_query(query)
    plan = fit_plan(inv, **options)
    arch = inv.architecture
    where = plan.gpu.label if plan.gpu else "a device"
    devices = len(plan.devices)
    worst = max(plan.devices, key=lambda d: d.total_bytes)
    verdict = (f"{'fits' if plan.fits else 'does not fit'}: {_short(worst.total_bytes)} of "
               f"{_short(plan.memory_bytes)} on the fullest device")
    return {
        "plan": plan_json(plan),
        "fits": plan.fits,
        "verdict": verdict,
        "setup": f"{devices} × {where} ({_short(plan.memory_bytes)} each); weights {plan.weights_format}; "
                 f"KV cache {plan.kv_dtype}, {plan.context:,} tokens × batch {plan.batch}",
        "devices": [_device_view(d, ranks, plan) for d, ranks in _groups(plan.devices)],
        "reasons": list(plan.reasons),
        "suggestions": list(plan.suggestions),
        "notes": list(plan.notes),
        "assumptions": [{"text": f"{a['name']} = {_value(a['value'])}", "source": f"{a['option']}: {a['source']}"}
                        for a in assumptions(plan)],
        "context": _slider(plan, arch.max_position_embeddings),
        "max_batch": (f"largest batch at {plan.context:,} tokens: "
                      + ("no limit from the cache" if plan.max_batch is None else f"{plan.max_batch:,}")),
        "units": "GB is 10⁹ bytes; every figure's exact bytes are in its tooltip",
    }


def _device_view(d: Any, ranks: list[int], plan: Any) -> dict[str, Any]:
    """One device (or several alike): its parts as rows and as shares of a bar as wide as the larger of the
    card and the total, with the card's edge marked."""
    from .fit.render import _ranks, layer_span
    from .memory import format_bytes

    sizes = {"weights_bytes": d.weights_bytes, "kv_cache_bytes": d.kv_cache_bytes,
             "recurrent_state_bytes": d.recurrent_state_bytes}
    runtime = d.activation_bytes + d.non_torch_bytes + d.cuda_graphs_bytes
    scale = max(d.memory_bytes, d.total_bytes)
    rows = []
    for key, field, label in _PARTS:
        size = sizes[field] if field else runtime if key == "runtime" else d.reserve_bytes
        if key == "recurrent_state" and not size:
            continue
        if key == "reserve":
            label = f"reserve (1 - {float(plan.overhead.gpu_memory_utilization):g}, holds the CUDA context)"
        elif key == "runtime":
            label = "runtime: activations, non-torch memory, CUDA graphs"
        rows.append({"key": key, "label": label, "bytes": size, "text": _short(size), "title": format_bytes(size),
                     "fraction": float(Fraction(size, scale)) if scale else 0.0})
    left = d.memory_bytes - d.total_bytes
    return {
        "title": f"stage {d.stage}, {_ranks(ranks)}: {layer_span(d.layers)}",
        "devices": len(ranks),
        "fits": d.fits,
        "rows": rows,
        "total": {"text": _short(d.total_bytes), "title": format_bytes(d.total_bytes)},
        "memory": {"text": _short(d.memory_bytes), "title": format_bytes(d.memory_bytes)},
        "free": ("free " if left >= 0 else "over by ") + _short(abs(left)),
        "edge": float(Fraction(d.memory_bytes, scale)) if scale else 1.0,  # where the card ends on the bar
    }


def _slider(plan: Any, positions: int) -> dict[str, Any]:
    """The context slider: blocks of the KV cache up to max_position_embeddings, the longest that fits marked."""
    block = plan.block_size
    top = max(block, positions - positions % block)
    longest = plan.max_context
    limited = " (max_position_embeddings)" if plan.max_context_limit == "max_position_embeddings" else ""
    return {
        "value": plan.context, "min": block, "max": top, "step": block, "max_position_embeddings": positions,
        "max_context": longest,
        "marker": None if longest is None else float(Fraction(min(max(longest, block), top) - block,
                                                              top - block)) if top > block else 1.0,
        "text": f"{plan.context:,} tokens",
        "max_text": None if longest is None else f"longest context that fits at batch {plan.batch}: "
                                                 f"{longest:,} tokens{limited}",
    }


def _value(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _short(size: int) -> str:
    """A size for a narrow cell: GB (10⁹ bytes) to two places; the exact figure goes in its tooltip."""
    return f"{float(Fraction(size, 10**9)):,.2f} GB"


ROUTES = {"/api/gpus": api_gpus, "/api/fit": api_fit, "/api/fit/view": api_fit_view}

