"""Why a checkpoint's stored values differ from the config's inventory, one line per reason.

Every stored tensor falls in exactly one group (matched, tied head stored again, buffer,
quantization, packed, extra) and every inventory tensor is matched or missing, so the
contributions add up exactly to ``stored values - inventory total``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..inventory import Inventory
from ._stored import Checkpoint, Difference, Entry


def explain(checkpoint: Checkpoint, inv: Inventory, entries: list[Entry], config: Mapping[str, Any],
            tokenizer_size: int | None) -> list[Difference]:
    """One Difference per reason the stored values and the inventory total differ; their
    contributions add up to ``checkpoint.total_values - inv.total``."""
    out: list[Difference] = []
    is_gguf = checkpoint.format.startswith("gguf")
    stored_again = {e.expected: e for e in entries if e.kind == "alias"}
    matched = {e.expected for e in entries if e.expected is not None and e.kind != "alias"}
    by_name = {t.name: t for t in inv.tensors}
    # -- the tied head
    for alias, target in inv.aliases.items():
        e = stored_again.get(target)
        if e is not None:
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
            out.append(Difference(kind, f"{label}: {len(group):,} tensors, +{values:,} stored values, e.g. "
                                        f"{_examples(group)}", values, tuple(e.tensor.name for e in group)))
    packed = [e for e in entries if e.kind == "packed" and e.expected is not None]
    if packed:
        stored = sum(e.tensor.values for e in packed)
        params = sum(e.parameters for e in packed)
        dtypes = ", ".join(sorted({e.tensor.dtype for e in packed}))
        out.append(Difference("packed", f"packed low-bit values: {len(packed):,} tensors store {stored:,} {dtypes} "
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
            if len(stored_side) > len(config_side):
                how = "split apart in the file (per expert or per projection), fused in the config's inventory"
            else:
                how = "fused in the file, split apart in the config's inventory"
            if is_gguf:
                how = "GGUF's own split: " + how
            out.append(Difference("split", f"{component}: {len(stored_side):,} stored tensors hold the same "
                                           f"{sum(t.count for t in config_side):,} values as the config's "
                                           f"{len(config_side):,} ({how})", 0,
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
                                               f"({len(beyond):,} tensors, +{values:,} values) beyond "
                                               f"num_hidden_layers={layers}{why}", values,
                              tuple(e.tensor.name for e in beyond)))
    others = extra + extra_packed
    if others:
        values = sum(e.tensor.values for e in others)
        out.append(Difference("extra_tensors", f"not in the config's inventory: {len(others):,} stored tensors, "
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
        out.append(Difference("missing", f"missing: {len(missing):,} tensors of the config are not stored "
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


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _examples(entries: list[Entry], count: int = 2) -> str:
    shown = ", ".join(f"{e.tensor.name} {_shape(e.tensor.shape)}" for e in entries[:count])
    return shown + (", ..." if len(entries) > count else "")
