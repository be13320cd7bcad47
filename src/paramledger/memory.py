"""Memory: the bytes every tensor of an inventory takes at a dtype, plus the KV cache.

Weights: each unique tensor (a tied head is stored once, with the table it shares) at
``dtype``, except the components ``keep`` holds at another precision, as real quantized
checkpoints keep norms, embeddings or the LM head in bf16/fp32.  ``keep`` maps a component
(inventory.COMPONENTS) or "vectors" (every tensor that is 1-D per expert: norm scales,
biases, sinks, expert biases) to a dtype.  Rules apply in the order given, a later one
overriding an earlier one where both select a tensor: gpt-oss's checkpoint is
``--dtype bf16 --keep experts=mxfp4 --keep vectors=bf16`` (expert matrices in MXFP4, their
biases in bf16), and ``--keep vectors=bf16 --keep norm=fp32`` keeps norms in fp32.
``group_size`` sets the group of ``dtype``
(dtypes.py says how groups lie and which sizes are refused); kept formats use their own
default group.  Bytes are whole per tensor (dtypes.tensor_bytes).

Units: bytes are exact integers; GB = 10⁹ bytes and GiB = 2³⁰ bytes, each printed with its
own label (format_bytes).  Counts are never given a binary prefix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from ._exceptions import OptionError, did_you_mean
from .architecture import Architecture
from .compute import NO_FLOPS, ForwardFlops, as_inventory, forward_flops_per_token, per_expert_rank, training_flops
from .dtypes import ALIASES as DTYPE_ALIASES
from .dtypes import DTYPES, KV_DTYPES, DType, get_dtype, group_size_for, tensor_bytes
from .families.kept_float32 import float32_pattern
from .inventory import COMPONENTS, TOWER_COMPONENTS, Inventory, StampedTensors, Tensor
from .kvcache import CrossAttentionCache, KVCache, cross_attention_cache, kv_cache
from .sources import load
from .training import TrainingMemory, training_memory

KEEP_TARGETS = (*COMPONENTS, "vectors")
FLOAT32 = get_dtype("fp32")
DECIMAL_UNITS = (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3))
BINARY_UNITS = (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10))
TOTAL_DEFINITION = ("weights + KV cache + the recurrent layers' fixed state (0 without them); activations, "
                    "workspace and framework overhead not included")


def in_unit(size: int, unit: str) -> Fraction:
    """``size`` bytes in ``unit`` (GB = 10⁹, GiB = 2³⁰, ...), exact."""
    table = dict(DECIMAL_UNITS + BINARY_UNITS)
    if unit not in table:
        raise OptionError("unit", f"unknown unit {unit!r}{did_you_mean(unit, table)}; one of {', '.join(table)}")
    return Fraction(size, table[unit])


def format_bytes(size: int) -> str:
    """'1,610,612,736 bytes (1.61 GB, 1.50 GiB)': the exact count, then one decimal and one binary figure."""
    parts = []
    for units in (DECIMAL_UNITS, BINARY_UNITS):
        label, divisor = next(((name, d) for name, d in units if size >= d), units[-1])
        parts.append(f"{float(Fraction(size, divisor)):.2f} {label}")
    return f"{size:,} bytes ({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class TensorBytes:
    name: str
    shape: tuple[int, ...]
    component: str
    dtype: str
    bytes: int


@dataclass(frozen=True)
class WeightBytes:
    """Bytes of every unique tensor of ``inventory``: ``dtype`` (``group_size`` its group), the
    components ``keep`` names at their own dtype.  ``sums`` holds bytes by (component, dtype),
    summed once per layer kind, so a design of millions of layers is priced in a second;
    ``tensors`` lists every tensor's bytes, expanded when read."""

    inventory: Inventory
    main: DType
    group_size: int | None
    keep: Mapping[str, str]
    sums: Mapping[tuple[str, str], int]  # (component, dtype) -> bytes, in inventory order
    # the checkpoint's own format (quantization.StoredFormat) when no --dtype was given; None: ``main`` throughout
    stored: Any = None
    # a GGUF mixture (--dtype Q4_K_M): every tensor's row, its llama.cpp type(s) and bytes (quantization/gguf.py)
    gguf_rows: tuple[TensorBytes, ...] | None = None
    # bytes of the buffers computed when the model is built (RoPE's inv_freq), in memory but in no checkpoint
    unstored: int = 0
    # the pattern of the tensors' names transformers holds in float32 at ``main`` (families/kept_float32.py), or None;
    # ``upcast``: their bytes so held (the checkpoint's files hold them at ``main``: half as many)
    float32: Any = None
    upcast: int = 0

    @property
    def text_decoder(self) -> int:
        """The bytes of the text decoder's weights: the total less a multimodal model's towers (TOWER_COMPONENTS)."""
        return self.total - sum(self.by_component.get(name, 0) for name in TOWER_COMPONENTS)

    @property
    def parameters(self) -> int:
        """The bytes of the learned tensors (and what a method stores for them), without the buffers."""
        return self.total - self.by_component.get("buffers", 0)

    @property
    def checkpoint(self) -> int:
        """What the checkpoint's files hold: the total without the buffers no checkpoint stores, with the tensors
        transformers upcasts as it loads them at their half precision."""
        return self.total - self.unstored - self.upcast // 2

    @property
    def assumed(self) -> str:
        """What the weights were sized as and where that came from, one line."""
        if self.stored is not None:
            return self.stored.description
        if self.gguf_rows is not None:
            from .quantization.gguf import LLAMA_CPP_COMMIT

            return (f"GGUF {self.dtype}: each tensor's type as llama-quantize chooses it (llama-quant.cpp "
                    f"llama_tensor_get_type, llama.cpp {LLAMA_CPP_COMMIT[:8]}), 1-D tensors in F32 (--dtype)")
        group = f", groups of {self.group_size}" if self.group_size else ""
        but = " but those transformers keeps in float32" if self.upcast else ""
        return f"every weight at {self.dtype}{group}{but}" + (" (--dtype)" if self.main.name != "bf16" or self.keep
                                                                else "")

    @property
    def dtype(self) -> str:
        return self.main.name

    @property
    def total(self) -> int:
        return sum(self.sums.values())

    @property
    def by_component(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for (component, _), size in self.sums.items():
            out[component] = out.get(component, 0) + size
        return out

    @property
    def by_dtype(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for (_, dtype), size in self.sums.items():
            out[dtype] = out.get(dtype, 0) + size
        return out

    @cached_property
    def tensors(self) -> tuple[TensorBytes, ...]:
        """Every stored tensor's bytes: with a stored format, a method's packed weight, scales, zero
        points and g_idx each a row (stored, not learned)."""
        if self.gguf_rows is not None:
            return self.gguf_rows
        if self.stored is not None:
            from .quantization._base import stored_bytes
            from .quantization.pricing import our_dtype, stored_tensors

            kept = {t.name: _priced(t, t.name, self.main, None, self.keep, self.float32) for t in self.inventory.tensors
                    if (self.keep or self.float32 is not None)
                    and _dtype_for(t, self.main, self.keep, self.float32) is not self.main}
            out = []
            for t, piece in stored_tensors(self.inventory, self.stored):
                if t.name in kept:
                    if piece.name == t.name or piece.shape == t.shape:
                        out.append(TensorBytes(t.name, t.shape, t.component, *kept[t.name]))
                    continue
                out.append(TensorBytes(piece.name, piece.shape, t.component, our_dtype(piece.dtype),
                                       stored_bytes(piece)))
            return tuple(out) + self._buffer_rows()
        return tuple(TensorBytes(t.name, t.shape, t.component, *_priced(t, t.name, self.main, self.group_size,
                                                                         self.keep, self.float32))
                     for t in self.inventory.tensors) + self._buffer_rows()

    def _buffer_rows(self) -> tuple[TensorBytes, ...]:
        from .buffers import every_buffer, priced

        model = _buffer_dtype(self.main)
        return tuple(TensorBytes(b.name, b.shape, "buffers", *priced(b, model.name, model.bits // 8))
                     for b in every_buffer(self.inventory))


def parse_keep(pairs: list[str] | Mapping[str, str] | None) -> dict[str, str]:
    """``["norm=fp32", "embedding=bf16"]`` (or a mapping) -> {component: dtype}, checked."""
    if not pairs:
        return {}
    items = pairs.items() if isinstance(pairs, Mapping) else [_split_keep(p) for p in pairs]
    out: dict[str, str] = {}
    for component, dtype in items:
        if component not in KEEP_TARGETS:
            raise OptionError("keep", f"unknown component {component!r}{did_you_mean(component, KEEP_TARGETS)}; "
                              f"one of {', '.join(KEEP_TARGETS)}")
        out[component] = get_dtype(dtype, "keep").name
    return out


def _split_keep(pair: str) -> tuple[str, str]:
    component, sep, dtype = pair.partition("=")
    if not sep or not component.strip() or not dtype.strip():
        raise OptionError("keep", f"expected COMPONENT=DTYPE, got {pair!r}")
    return component.strip(), dtype.strip()


def is_vector(t: Tensor) -> bool:
    """A norm scale, a bias, sinks: one dimension per expert, or any norm or bias (Cohere's
    per-head (heads, head_dim) q/k norms, ERNIE's (1, experts) routing correction)."""
    return per_expert_rank(t) == 1 or t.component == "norm" or t.name.endswith("bias")


def _dtype_for(t: Tensor, default: DType, keep: Mapping[str, str], float32: Any = None, name: str = "") -> DType:
    """``default``, float32 where ``float32`` (the pattern of what transformers keeps so, kept_float32.py) finds
    the tensor's full name ``name``, and what ``keep`` says of its component over both."""
    chosen = FLOAT32 if float32 is not None and float32.search(name or t.name) else default
    for target, kept in keep.items():  # in order: a later rule overrides an earlier one
        if target == t.component or (target == "vectors" and is_vector(t)):
            chosen = get_dtype(kept)
    return chosen


def _priced(t: Tensor, name: str, main: DType, group_size: int | None, keep: Mapping[str, str],
            float32: Any = None) -> tuple[str, int]:
    """(dtype, bytes) of ``t`` (its full name ``name``): ``main`` unless transformers keeps it in float32
    (``float32``) or ``keep`` says otherwise."""
    chosen = _dtype_for(t, main, keep, float32, name)
    return chosen.name, tensor_bytes(chosen, t.shape, group_size if chosen is main else None, name)


def weight_bytes(source: Inventory | Architecture, dtype: str | DType | None = "bf16",
                 keep: Mapping[str, str] | list[str] | None = None,
                 group_size: int | None = None) -> WeightBytes:
    """Bytes of every unique tensor of ``source`` at ``dtype``, ``keep`` overriding by component.

    ``dtype`` None: as the checkpoint stores them (the config's quantization_config and dtype,
    Architecture.stored; bf16 for a design of our own or a bare tensor list)."""
    inv = as_inventory(source)
    if (mixture := gguf_mixture(dtype)) is not None:
        from .quantization.gguf_weights import gguf_weights

        return gguf_weights(inv, mixture, keep, group_size)
    stored = inv.architecture.stored if dtype is None and inv.architecture is not None else None
    if dtype is None:
        if group_size is not None:
            raise OptionError("group-size", "sets the group of --dtype: give --dtype with it")
        dtype = stored.dtype if stored is not None else "bf16"
    main = dtype if isinstance(dtype, DType) else weight_dtype(dtype)
    size = group_size_for(main, group_size)
    kept = parse_keep(keep)
    float32 = float32_pattern(inv.architecture.model_type, main.name) if inv.architecture is not None else None
    sums: dict[tuple[str, str], int] = {}
    upcast = [0]
    price = None
    if stored is not None and stored.method is not None:
        from .quantization._base import stored_bytes
        from .quantization.pricing import our_dtype, pricer

        price = pricer(inv, stored)

    def add(t: Tensor, name: str, times: int = 1, in_layer: bool = False) -> None:
        pieces = (price(t, name, in_layer) if price is not None and _dtype_for(t, main, kept, float32, name) is main
                  else None)
        if pieces:
            for piece in pieces:
                key = (t.component, our_dtype(piece.dtype))
                sums[key] = sums.get(key, 0) + times * stored_bytes(piece)
            return
        dtype_name, size_bytes = _priced(t, name, main, size, kept, float32)
        if float32 is not None and dtype_name == "fp32" and _dtype_for(t, main, kept) is main:  # the plan's alone
            upcast[0] += times * size_bytes
        key = (t.component, dtype_name)
        sums[key] = sums.get(key, 0) + times * size_bytes

    tensors = inv.tensors
    # a skip list naming layers (model.layers.0.mlp) prices each layer by its own name
    by_layer = price is not None and any(ch.isdigit() for p in (stored.method.skip or ()) for ch in p)
    if isinstance(tensors, StampedTensors) and by_layer:
        for t in tensors.head:
            add(t, t.name)
        for i, block in enumerate(tensors.blocks):
            prefix = tensors.layer_prefix.format(i=i)
            for t in block:
                add(t, prefix + t.name, 1, True)
        for t in tensors.tail:
            add(t, t.name)
    elif isinstance(tensors, StampedTensors):  # each layer kind priced once: bytes do not depend on the layer
        for t in tensors.head:
            add(t, t.name)
        kinds = tensors.distinct_blocks()
        first: dict[int, int] = {}  # a kind's first layer, to name its tensors in an error
        for i, block in enumerate(tensors.blocks):
            first.setdefault(id(block), i)
            if len(first) == len(kinds):
                break
        for block, layers in kinds:
            prefix = tensors.layer_prefix.format(i=first[id(block)])
            for t in block:
                add(t, prefix + t.name, layers, True)
        for t in tensors.tail:
            add(t, t.name)
    else:
        for t in tensors:
            add(t, t.name, 1, t.layer is not None)
    from .buffers import add_buffer_bytes

    model = _buffer_dtype(main)
    unstored = add_buffer_bytes(inv, model.name, model.bits // 8, sums)
    return WeightBytes(inv, main, size if main.grouped else None, kept, sums, stored, unstored=unstored,
                       float32=float32, upcast=upcast[0])


def _buffer_dtype(main: DType) -> DType:
    """The dtype a buffer of the model's own dtype is held at: the weights' float dtype, else bf16."""
    return main if main.name in ("fp32", "fp16", "bf16") else weight_dtype("bf16")


def gguf_mixture(dtype: object) -> str | None:
    """The llama-quantize mixture ``dtype`` names (Q4_K_M, q8_0, IQ4_XS, ...), or None: one of our formats wins
    a name both know (bf16)."""
    if not isinstance(dtype, str) or dtype.strip().lower() in DTYPES or dtype.strip().lower() in DTYPE_ALIASES:
        return None
    from .quantization.gguf import ALIASES, MIXTURES

    name = dtype.strip().upper()
    name = ALIASES.get(name, name)
    return name if name in MIXTURES else None


def weight_dtype(name: str) -> DType:
    """A weight format by name; an unknown one is refused naming ours and llama.cpp's mixtures both."""
    try:
        return get_dtype(name)
    except OptionError:
        from .quantization.gguf import ALIASES, MIXTURES

        ours, theirs = [*DTYPES, *DTYPE_ALIASES], [*MIXTURES, *ALIASES]
        hint = did_you_mean(str(name).strip().lower(), ours) or did_you_mean(str(name).strip().upper(), theirs)
        raise OptionError("dtype", f"unknown dtype {name!r}{hint}; one of {', '.join(DTYPES)}, or a GGUF mixture "
                                   f"({', '.join(MIXTURES)})") from None


@dataclass(frozen=True)
class MemoryReport:
    inventory: Inventory
    weights: WeightBytes
    kv: KVCache
    flops: ForwardFlops | None  # None: a family compute.NO_FLOPS refuses (memory --flops says why in one line)
    kv_decompressed: KVCache | None = None  # MLA only: the per-head layout beside the latent one
    training: TrainingMemory | None = None
    training_tokens: int | None = None
    image_tokens: int = 0  # the decoder tokens of the images the context holds (counted in kv.context)
    cross: CrossAttentionCache | None = None  # --encoder-length: the cross-attention cache of an encoder's input

    @property
    def total_bytes(self) -> int:
        return self.weights.total + self.kv.bytes + self.kv.state_bytes + (self.cross.bytes if self.cross else 0)


def memory_report(source: Inventory | Architecture | str, *, dtype: str | None = None, kv_dtype: str | None = None,
                  context: int | None = None, batch: int = 1, keep: Mapping[str, str] | list[str] | None = None,
                  group_size: int | None = None, training: str | None = None, zero_stage: int | None = None,
                  devices: int | None = None, tokens: int | None = None, images: int = 0,
                  image_size: tuple[int, int] | None = None, encoder_length: int | None = None) -> MemoryReport:
    """Weights, KV cache, active parameters, FLOPs per token and (with ``training``) training memory.

    ``dtype`` None: the weights as the checkpoint stores them (weight_bytes); ``kv_dtype`` defaults to
    ``dtype`` when that is a KV format (KV_DTYPES), else bf16; ``context`` defaults to
    max_position_embeddings; ``images`` (of ``image_size``, where the count follows it) add the tokens they cost
    a whole multimodal model's decoder to the context; ``encoder_length``: a decoder's cross-attention cache of an
    encoder input that long (fixed by it, whatever the context), in the total and in FLOPs."""
    inv = as_inventory(load(source) if isinstance(source, str) else source)
    arch = inv.architecture
    if arch is None:
        raise OptionError("source", "memory needs the architecture (layers, heads), not a bare tensor list")
    main = weight_dtype(dtype) if dtype is not None and gguf_mixture(dtype) is None else None
    if kv_dtype is None:
        kv_dtype = main.name if main is not None and main.name in KV_DTYPES else "bf16"
    if context is None:
        context = arch.max_position_embeddings
    if training is None and (zero_stage is not None or devices is not None):
        raise OptionError("zero" if zero_stage is not None else "devices", "needs --training RECIPE")
    if training is not None and devices is not None and not zero_stage:
        raise OptionError("devices", "needs --zero STAGE (1, 2 or 3): without ZeRO every device holds everything")
    weights = weight_bytes(inv, dtype if main is None else main, keep, group_size)
    pictured = 0
    if images:
        from .towers.images import image_tokens

        pictured = image_tokens(arch, images, image_size)
        context += pictured
    kv = kv_cache(arch, context, batch, kv_dtype)
    cross = None
    if encoder_length is not None:
        cross = cross_attention_cache(arch, encoder_length, batch, kv_dtype)
        if not cross.layers:
            raise OptionError("--encoder-length", f"{arch.model_type} has no cross-attention: no layer reads an "
                              "encoder's output")
    decompressed = kv_cache(arch, context, batch, kv_dtype, "decompressed") if arch.is_mla else None
    train = training_memory(inv, training, zero_stage or 0, devices) if training is not None else None
    if tokens is not None:
        training_flops(inv, tokens)  # validates
    # a family whose FLOPs are not modelled (compute.NO_FLOPS: IDEFICS's) keeps its exact weights and cache
    flops = None if arch.model_type in NO_FLOPS else forward_flops_per_token(inv, context, encoder_length)
    return MemoryReport(inv, weights, kv, flops, decompressed, train, tokens, pictured, cross)


def state_label(kv: KVCache) -> str:
    """The fixed state's row: "linear-attention state (36 Gated DeltaNet layers, ...)", or each kind's layers
    where several hold one."""
    kinds = kv.recurrent_kinds()
    if len(kinds) == 1:
        label, layers = next(iter(kinds.items()))
        kind, _, mixer = label.partition(" (")
        return f"{kind} state ({layers} {mixer.rstrip(')')} layers, fixed whatever the context)"
    held = ", ".join(f"{n} {label}" for label, n in kinds.items())
    return f"recurrent state ({held} layers, fixed whatever the context)"


def total_label(kv: KVCache) -> str:
    """What MemoryReport.total_bytes adds up for this cache."""
    return "weights + KV cache" + (" + state" if kv.state_values else "")
