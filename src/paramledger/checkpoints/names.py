"""What a stored tensor is, from its name, dtype and shape alone.

A checkpoint stores more than learned parameters.  The rules below sort each tensor into
one kind, first match wins, and say why:

* ``buffer``: state a module registers but never learns -- a 4-D ``*.bias`` or a
  ``*.masked_bias`` (GPT-2's causal mask, saved by transformers 4.x: 12 × 1024² values in
  the hub's gpt2 file), ``*.inv_freq`` (rotary), ``*.position_ids``, GGUF ``rope_freqs``,
  DeepSeek-V3's ``e_score_correction_bias``.
* ``quantization``: scales, zero points and bookkeeping of a quantized weight -- GPTQ/AWQ
  ``scales``/``qzeros``/``g_idx``, bitsandbytes ``absmax``/``quant_map``/``quant_state``/``SCB``,
  FP8 ``weight_scale``/``weight_scale_inv``/``input_scale``, compressed-tensors
  ``weight_zero_point``/``weight_shape``, MXFP4 ``*_scales``.
* ``packed``: low-bit values packed into wider integers, so the stored element count is
  not the parameter count -- GPTQ/AWQ ``qweight`` and compressed-tensors ``weight_packed``
  (32/bits values per int32), MXFP4 ``*_blocks`` and a bitsandbytes 4-bit ``weight`` (two
  values per byte).
* ``parameter``: everything else.

The component of a parameter is taken from the config-derived inventory when its name
matches one; otherwise it is guessed by COMPONENT_RULES (first substring match wins;
"other" when none does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ._stored import StoredTensor

# e_score_correction_bias: DeepSeek-V3's routing bias, moved by its aux-loss-free balancing
# rule rather than by gradients; transformers registers it as a buffer (DeepseekV3TopkRouter).
BUFFER_SUFFIXES = ("masked_bias", "inv_freq", "position_ids", "causal_mask", "_float_tensor",
                   "e_score_correction_bias")
QUANT_SUFFIXES = frozenset({
    "scales", "qzeros", "g_idx", "zeros", "absmax", "quant_map", "nested_absmax", "nested_quant_map", "SCB",
    "weight_format", "weight_scale", "weight_scale_inv", "scale_inv", "input_scale", "output_scale", "k_scale",
    "v_scale", "weight_zero_point", "input_zero_point", "weight_g_idx", "weight_shape", "weight_global_scale",
    "input_global_scale",
})
PACKED_INT32 = ("qweight", "weight_packed")  # 32 / bits values per stored int32

# (substring, component), first match wins.  Norms first: "input_layernorm" sits under no
# attention path but "self_attn.q_norm" does, and both are norms.
COMPONENT_RULES: tuple[tuple[str, str], ...] = (
    ("norm", "norm"), ("ln_", "norm"), (".ln.", "norm"),
    ("shared_expert", "shared_experts"),
    ("ffn_gate_inp", "router"), ("router", "router"), ("mlp.gate.", "router"), ("block_sparse_moe.gate.", "router"),
    ("experts", "experts"), ("_exps", "experts"),
    ("wpe", "positions"), ("embed_positions", "positions"), ("position_embd", "positions"),
    ("position_embeddings", "positions"),
    ("embed_tokens", "embedding"), ("wte", "embedding"), ("tok_embeddings", "embedding"),
    ("token_embd", "embedding"), ("word_embeddings", "embedding"), ("embed_in", "embedding"),
    ("lm_head", "lm_head"), ("embed_out", "lm_head"),
    ("attn", "attention"), ("attention", "attention"), ("q_proj", "attention"), ("k_proj", "attention"),
    ("v_proj", "attention"), ("o_proj", "attention"),
    ("mlp", "ffn"), ("ffn", "ffn"), ("feed_forward", "ffn"), ("fc1", "ffn"), ("fc2", "ffn"),
)
_LAYER = re.compile(r"(?:^|\.)(?:layers|h|blocks|blk|layer)\.(\d+)(?:\.|$)")


def guess_component(name: str) -> str:
    """The component a tensor name suggests (COMPONENT_RULES), "other" when none does."""
    if name in ("output.weight", "output.bias"):  # GGUF's untied head
        return "lm_head"
    for needle, component in COMPONENT_RULES:
        if needle in name:
            return component
    return "other"


def guess_layer(name: str) -> int | None:
    found = _LAYER.search(name)
    return int(found.group(1)) if found else None


def quant_state_owners(names: Iterable[str]) -> frozenset[str]:
    """The tensors a bitsandbytes ``<weight>.quant_state.*`` entry belongs to, found in one pass."""
    return frozenset(name.split(".quant_state.", 1)[0] for name in names if ".quant_state." in name)


def kind_of(tensor: StoredTensor, names: frozenset[str] | set[str],
            owners: frozenset[str] | None = None) -> tuple[str, str]:
    """(kind, reason) for one stored tensor; ``names`` holds every stored name (siblings) and
    ``owners`` their quant_state_owners (computed once for a whole checkpoint: linear time)."""
    name = tensor.name
    last = name.rsplit(".", 1)[-1]
    if last.endswith(BUFFER_SUFFIXES):
        return "buffer", f"a registered buffer ({last}), not learned"
    if last == "bias" and len(tensor.shape) >= 3:
        return "buffer", f"a {len(tensor.shape)}-D causal-mask buffer (learned biases are 1-D)"
    if name.startswith("rope_freqs."):
        return "buffer", "rotary frequency factors computed from the config, not learned"
    if last in QUANT_SUFFIXES or ".quant_state." in name or last.endswith("_scales"):
        return "quantization", "quantization scales, zero points or bookkeeping, not parameters"
    if last in PACKED_INT32:
        return "packed", "low-bit values packed into 32-bit integers"
    if last.endswith("_blocks"):
        return "packed", "MXFP4 blocks: two 4-bit values per byte"
    if last == "weight" and tensor.dtype in ("U8", "uint8") and (
            f"{name}.absmax" in names or name in (quant_state_owners(names) if owners is None else owners)):
        return "packed", "bitsandbytes 4-bit: two values per byte"
    return "parameter", ""


def logical_name(name: str) -> str:
    """The parameter a packed tensor stands for: x.qweight -> x.weight, x_blocks -> x."""
    stem, _, last = name.rpartition(".")
    if last in PACKED_INT32:
        return f"{stem}.weight"
    if last.endswith("_blocks"):
        return f"{stem}.{last[:-len('_blocks')]}"
    return name


def packed_values(tensor: StoredTensor, bits: int | None) -> int | None:
    """Parameter values a packed tensor holds, when the packing is known."""
    last = tensor.name.rsplit(".", 1)[-1]
    if last in PACKED_INT32 and tensor.dtype in ("I32", "int32", "U32"):
        return tensor.values * 32 // (bits or 4)
    if last.endswith("_blocks") or last == "weight":
        return tensor.values * 2
    return None


def match_names(stored: Iterable[str], expected: Iterable[str]) -> dict[str, str]:
    """Stored name -> expected name: exact, else with a leading module path added or dropped
    (the hub's gpt2 file stores "h.0.attn.c_attn.weight" for "transformer.h.0...")."""
    expected = set(expected)
    prefixes = sorted({n.split(".", 1)[0] + "." for n in expected if "." in n})
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in stored:
        if name in expected:
            out[name] = name
            used.add(name)
            continue
        # Add a leading module path only to a dotted name: a bare "weight" is no evidence.
        found = next((p + name for p in prefixes if p + name in expected), None) if "." in name else None
        if found is None:
            parts = name.split(".")
            found = next((".".join(parts[k:]) for k in (1, 2) if ".".join(parts[k:]) in expected), None)
        if found is not None and found not in used:
            out[name] = found
            used.add(found)
    return out
