"""What `paramledger memory` prints: the memory report (memory.py) as lines of text."""

from __future__ import annotations

from .compute import MATMUL_DEFINITION, TRAINING_DEFINITION, training_flops
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
