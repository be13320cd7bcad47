"""A fit plan as text and as JSON: the same figures, each assumption with its default and its source."""

from __future__ import annotations

from typing import Any

from ..cli_numbers import SIZE_UNITS_TEXT
from ..memory import format_bytes
from .cache import DEFAULT_BLOCK_SIZE
from .overhead import ACTIVATION_SOURCE, CUDA_CONTEXT_SOURCE, CUDA_GRAPHS_SOURCE, NON_TORCH_SOURCE, UTILIZATION_SOURCE
from .plan import Device, FitPlan

VLLM_VERSION = "vLLM 0.33.0 (commit 4ba787ec9)"


def assumptions(plan: FitPlan) -> list[dict[str, Any]]:
    """Every assumption the verdict rests on: its option, its value and where the value comes from."""
    o = plan.overhead
    out = []
    if plan.gpu is not None:
        out.append({"name": "device memory", "option": "--gpu", "value": plan.memory_bytes,
                    "source": f"{plan.gpu.label}: {plan.gpu.source} (vendor: {plan.gpu.vendor_figure})"})
    if plan.training is not None:
        out.append({"name": "training memory", "option": "--training", "value": plan.dtype,
                    "source": plan.training})
        out.append({"name": "CUDA context and non-torch memory", "option": "--cuda-context, --non-torch-memory",
                    "value": o.cuda_context + o.non_torch, "source": f"{CUDA_CONTEXT_SOURCE}; {NON_TORCH_SOURCE}"})
        return out
    out += [
        {"name": "gpu_memory_utilization", "option": "--gpu-memory-utilization",
         "value": float(o.gpu_memory_utilization), "source": UTILIZATION_SOURCE},
        {"name": "CUDA context", "option": "--cuda-context", "value": o.cuda_context, "source": CUDA_CONTEXT_SOURCE},
        {"name": "non-torch memory", "option": "--non-torch-memory", "value": o.non_torch, "source": NON_TORCH_SOURCE},
        {"name": "CUDA graphs", "option": "--cuda-graphs", "value": o.cuda_graphs, "source": CUDA_GRAPHS_SOURCE},
        {"name": "max_num_batched_tokens", "option": "--max-batched-tokens", "value": o.max_batched_tokens,
         "source": "vllm/engine/arg_utils.py EngineArgs.get_batch_defaults (vllm serve): 16384 from 160 GiB, "
                   "8192 from 70 GiB except A100s, else 2048"},
        {"name": "activation memory", "option": "--activation-memory",
         "value": o.activation if o.activation is not None else "estimated",
         "source": "given" if o.activation is not None else ACTIVATION_SOURCE},
        {"name": "KV cache block size", "option": "--block-size", "value": plan.block_size,
         "source": f"vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE = {DEFAULT_BLOCK_SIZE}; sliding layers "
                   "hold cdiv(min(window - 1 + pp × max_num_batched_tokens, context), block) + 1 blocks "
                   "(kv_cache_interface.py SlidingWindowSpec)"},
        {"name": "sharding", "option": "--tp, --pp, --ep",
         "value": f"tp {plan.parallel.tp}, pp {plan.parallel.pp}, ep {plan.parallel.ep}",
         "source": f"{VLLM_VERSION}: linear.py, vocab_parallel_embedding.py (vocabulary padded to 64), "
                   "distributed/utils.py get_pp_indices, fused_moe; docs/fit.md"},
    ]
    if plan.towers:
        out.append({"name": "multimodal encoder sharding", "option": "vLLM's --mm-encoder-tp-mode", "value": "weights",
                    "source": f"{VLLM_VERSION}: vllm/config/multimodal.py MultiModalConfig.mm_encoder_tp_mode default "
                              "'weights' (each tower layer split over tp; 'data' not modelled); towers on the first "
                              "pipeline stage (models/interfaces.py _mark_tower_model, Model Runner V2); "
                              "fit/towers.py"})
    return out


def _device_json(d: Device) -> dict[str, Any]:
    out = {"stage": d.stage, "tp_rank": d.tp_rank, "layers": list(d.layers), "memory_bytes": d.memory_bytes,
           "weights_bytes": d.weights_bytes, "kv_cache_bytes": d.kv_cache_bytes,
           "recurrent_state_bytes": d.recurrent_state_bytes, "overhead_bytes": d.overhead_bytes,
           "overhead": {"activation_bytes": d.activation_bytes, "non_torch_bytes": d.non_torch_bytes,
                        "cuda_graphs_bytes": d.cuda_graphs_bytes, "reserve_bytes": d.reserve_bytes},
           "total_bytes": d.total_bytes, "free_bytes": d.memory_bytes - d.total_bytes, "fits": d.fits}
    if d.gradients_bytes or d.optimizer_bytes:
        out["gradients_bytes"], out["optimizer_bytes"] = d.gradients_bytes, d.optimizer_bytes
    return out


def plan_json(plan: FitPlan) -> dict[str, Any]:
    """The plan as one JSON object (the CLI's --json and the web API's answer)."""
    return {
        "source": plan.source,
        "fits": plan.fits,
        "gpu": plan.gpu.name if plan.gpu else None,
        "memory_bytes": plan.memory_bytes,
        "devices": len(plan.devices),
        "parallel": {"tp": plan.parallel.tp, "pp": plan.parallel.pp, "ep": plan.parallel.ep},
        "dtype": plan.dtype,
        "weights_format": plan.weights_format,
        "kv_dtype": plan.kv_dtype,
        "context": plan.context,
        "batch": plan.batch,
        "per_device": [_device_json(d) for d in plan.devices],
        "max_context": plan.max_context,
        "max_context_limited_by": plan.max_context_limit,
        "max_batch": plan.max_batch,
        "reasons": list(plan.reasons),
        "suggestions": list(plan.suggestions),
        "weights_bytes": plan.weights_bytes,
        "weights_beyond_the_model_bytes": dict(plan.weights_extra),
        "unclassified_tensors": list(plan.unclassified),
        "not_loaded": [{"component": label, "bytes": size, "source": source}
                       for label, size, source in plan.not_loaded],
        "assumptions": assumptions(plan),
        "notes": list(plan.notes),
        "units": {"GB": 10**9, "GiB": 2**30},
    }


def _groups(devices: tuple[Device, ...]) -> list[tuple[Device, list[int]]]:
    """Devices alike but for their tp rank, printed once with their ranks."""
    out: list[tuple[Device, list[int]]] = []
    for d in devices:
        if out and out[-1][0].stage == d.stage and _same(out[-1][0], d):
            out[-1][1].append(d.tp_rank)
        else:
            out.append((d, [d.tp_rank]))
    return out


def _same(a: Device, b: Device) -> bool:
    return (a.weights_bytes, a.kv_cache_bytes, a.recurrent_state_bytes, a.overhead_bytes, a.gradients_bytes,
            a.optimizer_bytes) == (b.weights_bytes, b.kv_cache_bytes, b.recurrent_state_bytes, b.overhead_bytes,
                                   b.gradients_bytes, b.optimizer_bytes)


def _ranks(ranks: list[int]) -> str:
    return f"tp rank {ranks[0]}" if len(ranks) == 1 else f"tp ranks {ranks[0]}-{ranks[-1]}, each"


def plan_text(plan: FitPlan) -> str:
    where = plan.gpu.label if plan.gpu else "a device"
    lines = [f"{plan.source or 'model'} on {len(plan.devices)} × {where} of {format_bytes(plan.memory_bytes)}"]
    if plan.training is None:
        lines.append(f"weights: {plan.weights_format or plan.dtype}")
        lines.append(f"KV cache {plan.kv_dtype}, context {plan.context:,} × batch {plan.batch}, "
                     f"tp {plan.parallel.tp} × pp {plan.parallel.pp}" + (f", experts over ep {plan.parallel.ep}"
                                                                         if plan.parallel.ep > 1 else "")
                     + f"; KV cache in blocks of {plan.block_size} tokens")
    for d, ranks in _groups(plan.devices):
        lines.append("")
        lines.append(f"stage {d.stage}, {_ranks(ranks)}: {layer_span(d.layers)}")
        rows = [("weights", d.weights_bytes)]
        if plan.training is not None:
            rows += [("gradients", d.gradients_bytes), ("optimizer states", d.optimizer_bytes),
                     ("CUDA context + non-torch", d.non_torch_bytes)]
        else:
            rows.append(("KV cache", d.kv_cache_bytes))
            if d.recurrent_state_bytes:
                rows.append(("recurrent state", d.recurrent_state_bytes))
            rows += [("runtime overhead", d.overhead_bytes),
                     ("  activations (estimate)" if plan.overhead.activation is None else "  activations",
                      d.activation_bytes), ("  non-torch memory", d.non_torch_bytes),
                     ("  CUDA graphs", d.cuda_graphs_bytes),
                     (f"  reserve (1 - {float(plan.overhead.gpu_memory_utilization):g}; holds the CUDA context)",
                      d.reserve_bytes)]
        rows.append(("total", d.total_bytes))
        width = max(len(name) for name, _ in rows)
        lines += [f"  {name:<{width}}  {format_bytes(size)}" for name, size in rows]
        left = d.memory_bytes - d.total_bytes
        lines.append(f"  {'free' if left >= 0 else 'over by':<{width}}  {format_bytes(abs(left))}")
    lines.append("")
    lines.append("verdict: fits" if plan.fits else "verdict: does NOT fit")
    lines += [f"  {reason}" for reason in plan.reasons]
    if plan.max_context is not None:
        limit = " (max_position_embeddings)" if plan.max_context_limit == "max_position_embeddings" else ""
        lines.append(f"largest context at batch {plan.batch}: {plan.max_context:,} tokens{limit}")
        batch = "no limit from the cache" if plan.max_batch is None else f"{plan.max_batch:,}"
        lines.append(f"largest batch at context {plan.context:,}: {batch}")
    if plan.suggestions:
        lines.append("would fit with (each alone):")
        lines += [f"  {s}" for s in plan.suggestions]
    extra = {cause: size for cause, size in plan.weights_extra.items() if size}
    if extra:
        lines.append(f"weights: the model is {format_bytes(plan.weights_bytes)}; the devices hold beyond it: "
                     + ", ".join(f"{cause} {size:,} bytes" for cause, size in extra.items()))
    if plan.not_loaded:  # one line: what vLLM never builds for this architecture, and where it says so
        sources = dict.fromkeys(source for *_, source in plan.not_loaded)
        lines.append("not loaded by vLLM: " + ", ".join(f"{label} {size:,} bytes" for label, size, _ in
                                                        plan.not_loaded) + f" ({'; '.join(sources)})")
    if plan.unclassified:
        lines.append(f"{len(plan.unclassified)} tensors with no sharding rule are held whole on every device "
                     f"(first: {plan.unclassified[0]})")
    lines += [f"note: {note}" for note in plan.notes]
    lines.append("assumptions:")
    for a in assumptions(plan):
        value = f"{a['value']:,}" if isinstance(a["value"], int) else a["value"]
        lines.append(f"  {a['name']} = {value} ({a['option']}): {a['source']}")
    lines.append(f"units: {SIZE_UNITS_TEXT}")
    return "\n".join(lines)


def layer_span(layers: tuple[int, int]) -> str:
    """"layers 0-79", or "layer 0" for a stage of one layer."""
    first, last = layers[0], layers[1] - 1
    return f"layer {first}" if first == last else f"layers {first}-{last}"
