"""What `paramledger memory` prints: the memory report (memory.py) as lines of text, and as JSON (--json)."""

from __future__ import annotations

from typing import Any

from ._exceptions import OptionError
from .compute import MATMUL_DEFINITION, NO_FLOPS, TRAINING_DEFINITION, training_flops
from .families.kept_float32 import kept_names
from .inventory import ACTIVE_DEFINITION
from .kvcache import MLA_LAYOUTS
from .memory import TOTAL_DEFINITION, MemoryReport, format_bytes, state_label, total_label

LINE_WIDTH = 100  # the text report's lines: a definition in parentheses wraps below its figure


def _wrapped(text: str, indent: str) -> list[str]:
    """A definition in parentheses, wrapped to LINE_WIDTH under ``indent``."""
    import textwrap

    return textwrap.wrap(f"({text})", LINE_WIDTH, initial_indent=indent, subsequent_indent=indent + " ",
                         break_on_hyphens=False)


def report_text(report: MemoryReport, *, flops: bool = False) -> str:
    """What `paramledger memory` prints: weights, the cache, the total, active parameters and, with
    ``flops``, the forward FLOPs per token (the JSON always holds them)."""
    inv, w, kv, forward = report.inventory, report.weights, report.kv, report.flops
    arch = inv.architecture
    group = f", groups of {w.group_size}" if w.group_size else ""
    heading = "weights as stored" if w.stored is not None else f"weights at {w.dtype}{group}"
    lines = [f"{inv.source or 'design'}: {arch.model_type}, {inv.total:,} parameters, {arch.attention_kind}", "",
             f"{heading}: {format_bytes(w.total)}", *_wrapped(w.assumed, "  ")]
    if w.keep:
        lines.append("  kept: " + ", ".join(f"{c}={d}" for c, d in w.keep.items()))
        if inv.tied and "lm_head" in w.keep:
            lines.append("  note: the head is tied to the token table, stored once at the embedding's dtype")
    for component, size in w.by_component.items():
        lines.append(f"  {component:<15}{size:>20,} bytes")
    if inv.has_towers:  # a whole multimodal model: its decoder's own weights, a line of their own
        lines.append(f"  text decoder: {format_bytes(w.text_decoder)} (the weights less the towers)")
    if w.upcast:
        names = ", ".join(kept_names(arch.model_type, w.dtype))
        lines += _wrapped(f"{format_bytes(w.upcast)} of them float32: transformers holds {names} so when it loads "
                          f"{arch.model_type} at {w.dtype} ({_why_float32(arch.model_type)}); the checkpoint's files "
                          f"hold them at {w.dtype}", "  ")
    if w.unstored:
        lines += _wrapped(f"the checkpoint's files: {w.checkpoint:,} bytes; the other {w.unstored:,} are buffers the "
                          "model computes when it is built (RoPE's inv_freq), in memory but in no file", "  ")
    lines += ["",
              f"KV cache at {kv.dtype.name}: {kv.values_per_token:,} values per token = "
              f"{kv.bytes_per_token:,} bytes per token",
              f"  {kv.batch} × {kv.context:,} tokens: {format_bytes(kv.bytes)}",
              *([f"  of them the images': {report.image_tokens:,} tokens"] if report.image_tokens else []),
              *_wrapped(kv.definition, "  ")]
    if report.kv_decompressed is not None:
        d = report.kv_decompressed
        lines += [f"  MLA decompressed: {d.values_per_token:,} values per token, {format_bytes(d.bytes)}",
                  *_wrapped(MLA_LAYOUTS["decompressed"], "  ")]
    if kv.state_values:
        lines += [f"  {state_label(kv)}:", f"    {kv.state_values:,} values = {format_bytes(kv.state_bytes)}"]
    if (cross := report.cross) is not None:  # --encoder-length: fixed by the encoder's input, not the context
        lines += ["", f"cross-attention cache at {cross.dtype.name}: {cross.values_per_token:,} values per encoder "
                      f"token, {cross.batch} × {cross.encoder_length:,} encoder tokens: {format_bytes(cross.bytes)}",
                  *_wrapped(cross.definition, "  ")]
    total = total_label(kv) + (" + cross-attention cache" if cross is not None else "")
    lines += ["", f"total ({total}): {format_bytes(report.total_bytes)}",
              *_wrapped(TOTAL_DEFINITION, "  "), "",
              f"active parameters per token: {inv.active:,}"
              + (" (dense: every parameter)" if not arch.is_moe else ""),
              *(_wrapped(ACTIVE_DEFINITION, "  ") if arch.is_moe else [])]
    if flops and forward is None:  # compute.NO_FLOPS: refused in one line, as forward_flops_per_token does
        raise OptionError("flops", f"{arch.model_type}: {NO_FLOPS[arch.model_type]}")
    if flops:
        lines += ["", f"forward FLOPs per token at context {forward.context:,}: {forward.total:,}",
                  f"  weights: 2 × {forward.matmul_parameters:,} active matmul weights = {forward.weight_flops:,}",
                  *_wrapped(MATMUL_DEFINITION, "    "),
                  f"  attention (QKᵀ and AV, grows with context): {forward.attention_flops:,}"]
        if forward.altup_flops:
            lines.append(f"  AltUp (Gemma 3n): its router's second pass and the mixing of "
                         f"{arch.altup_num_inputs} streams: {forward.altup_flops:,}")
        if forward.mla_expansion_flops:
            lines.append(f"  not in the total: MLA decoding from a latent cache re-expands it: "
                         f"+{forward.mla_expansion_flops:,}")
            lines += _wrapped("through kv_b_proj each step, as transformers 5.24.0 does", "    ")
    if report.training_tokens is not None:
        lines += [f"training compute for {report.training_tokens:,} tokens: "
                  f"{training_flops(inv, report.training_tokens):,} FLOPs", *_wrapped(TRAINING_DEFINITION, "  ")]
    if report.training is not None:
        t = report.training
        lines += ["", f"training memory ({t.recipe.name}): {format_bytes(t.total)}",
                  f"  weights {t.weights:,} + gradients {t.gradients:,} + optimizer states {t.optimizer:,} bytes",
                  *_wrapped(t.definition, "  ")]
    return "\n".join(lines)


def report_json(report: MemoryReport) -> dict[str, Any]:
    inv, kv, flops = report.inventory, report.kv, report.flops
    out: dict[str, Any] = {
        "source": inv.source,
        "dtype": report.weights.dtype,
        "group_size": report.weights.group_size,
        "keep": dict(report.weights.keep),
        "weights_bytes": report.weights.total,
        # the buffers among them (RoPE's inv_freq, a router's score correction); the checkpoint's share
        "buffers_bytes": report.weights.by_component.get("buffers", 0),
        "checkpoint_bytes": report.weights.checkpoint,
        # the tensors transformers holds in float32 as it loads the model at a half precision (_keep_in_fp32_modules)
        "float32_upcast_bytes": report.weights.upcast,
        "weights_bytes_by_component": report.weights.by_component,
        "text_decoder_weights_bytes": report.weights.text_decoder,  # less a multimodal model's towers
        "weights_bytes_by_dtype": report.weights.by_dtype,
        # what the weights were sized as, and where that came from (the config, or --dtype)
        "weights_as": "stored" if report.weights.stored is not None else "dtype",
        "weights_assumed": report.weights.assumed,
        "stored_format": report.weights.stored.to_json() if report.weights.stored is not None else None,
        "kv_dtype": kv.dtype.name,
        "context": kv.context,
        "image_tokens": report.image_tokens,  # of the context: the images' (memory --images)
        # --encoder-length: a decoder's cross-attention keys and values of an encoder input that long (else null)
        "encoder_length": report.cross.encoder_length if report.cross else None,
        "cross_attention_cache_bytes": report.cross.bytes if report.cross else None,
        "batch": kv.batch,
        "kv_values_per_token": kv.values_per_token,
        "kv_bytes_per_token": kv.bytes_per_token,
        "kv_cache_values": kv.values,
        "kv_cache_bytes": kv.bytes,
        "kv_sliding_layers": kv.sliding_layers,
        "kv_tokens_held": kv.tokens_held(),
        "kv_definition": kv.definition,
        # every recurrent mixer's fixed state (Gated DeltaNet, Mamba, short conv), at the cache dtype
        "recurrent_state_values": kv.state_values,
        "recurrent_state_bytes": kv.state_bytes,
        "recurrent_state_layers": kv.recurrent_kinds(),
        "linear_attention_state_values": kv.state_values,  # the same figures under their first names
        "linear_attention_state_bytes": kv.state_bytes,
        "total_bytes": report.total_bytes,
        "total_definition": TOTAL_DEFINITION,
        "parameters": inv.total,
        "active_parameters": inv.active,
        "active_definition": ACTIVE_DEFINITION,
        "flops_per_token": None if flops is None else {  # None: compute.NO_FLOPS (IDEFICS's)
            "context": flops.context,
            "matmul_parameters": flops.matmul_parameters,
            "weights": flops.weight_flops,
            "attention": flops.attention_flops,
            "total": flops.total,
            "mla_expansion": flops.mla_expansion_flops,
            "altup": flops.altup_flops,
            "definition": f"2 × active matmul weights ({MATMUL_DEFINITION}) + attention QKᵀ and AV over "
                          "the keys each layer attends to (context, or the sliding window) + AltUp's second "
                          "router pass and stream mixing (Gemma 3n; 0 otherwise)",
        },
        "units": {"GB": 10**9, "GiB": 2**30},
    }
    if report.kv_decompressed is not None:
        d = report.kv_decompressed
        out["kv_mla_decompressed"] = {"kv_values_per_token": d.values_per_token,
                                      "kv_bytes_per_token": d.bytes_per_token, "kv_cache_bytes": d.bytes,
                                      "definition": d.definition}
    if report.training is not None:
        t = report.training
        out["training"] = {"recipe": t.recipe.name, "zero_stage": t.zero_stage, "devices": t.devices,
                           "weights_bytes": t.weights, "gradients_bytes": t.gradients,
                           "optimizer_bytes": t.optimizer, "total_bytes": t.total, "definition": t.definition}
    if report.training_tokens is not None:
        out["training_flops"] = {"tokens": report.training_tokens, "parameters": inv.active,
                                 "flops": training_flops(inv, report.training_tokens),
                                 "definition": TRAINING_DEFINITION}
    return out


def _why_float32(model_type: str) -> str:
    """What keeps them in float32: the class's lists, or its own cast (kept_float32.CAST_TO_FLOAT32)."""
    from .families.kept_float32 import CAST_TO_FLOAT32

    return "its class casts them to float32 as it builds them" if model_type in CAST_TO_FLOAT32 else (
        "_keep_in_fp32_modules")
