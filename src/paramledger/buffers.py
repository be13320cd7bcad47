"""Buffers: the state a model registers beside its parameters, and what memory holds of it.

A buffer is not learned and is never counted (seed 000), but it sits in memory with the weights:
RoPE's ``inv_freq`` and ``original_inv_freq`` (float32, computed when the model is built, in no
checkpoint), a router's ``e_score_correction_bias`` (in the checkpoint), Gemma's ``embed_scale``,
GPT-Neo's causal masks.  transformers 5.24.0 registers them in each model's modeling file; the
reference for every family is ``named_buffers()`` of the model it builds (tests/test_buffers.py).

The layers' buffers come from their parts (each part's ``buffers``); the model's own from its
naming: ``rotary`` (the rotary module, one per attention layer type where ``rotary_per_layer_type``)
and ``model_buffers`` (name, shape, dtype, persistent; a name under ``{layer}`` is in every layer;
a fifth entry names an Architecture field without which the buffer is not there).  A shape entry is an
integer, an Architecture size by name with an optional ``+k``, or a function of the design.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .inventory import Buffer, Inventory

if TYPE_CHECKING:
    from .architecture import Architecture
    from .naming import Naming

# bytes per element of a buffer's dtype (None: the model's dtype, priced by memory)
ITEM_BYTES = {"float32": 4, "float64": 8, "bfloat16": 2, "float16": 2, "bool": 1, "int64": 8, "int32": 4,
              "int16": 2, "int8": 1, "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8, "float8_e4m3fn": 1,
              "float8_e5m2": 1, "float8_e8m0fnu": 1, "complex64": 8, "complex128": 16}
LAYER = "{layer}"


def buffers_of(inv: Inventory) -> tuple[tuple[Buffer, int], ...]:
    """Every buffer of ``inv`` with the number of times it is held (a buffer of a layer kind once per
    layer of that kind, named at the kind's first layer): a live module's own, else its parts'."""
    if inv.buffers or inv.architecture is None:
        return tuple((b, 1) for b in inv.buffers)
    return tuple(_buffers(inv.architecture, expand=False))


def every_buffer(inv: Inventory) -> tuple[Buffer, ...]:
    """Every buffer of ``inv`` by its own name, each layer's under its prefix (to list or verify)."""
    if inv.buffers or inv.architecture is None:
        return inv.buffers
    return tuple(b for b, _ in _buffers(inv.architecture, expand=True))


def _buffers(arch: Architecture, *, expand: bool) -> list[tuple[Buffer, int]]:
    from . import families
    from .design.flat import layer_plan

    naming = families.naming_of(arch)
    out: list[tuple[Buffer, int]] = []
    if arch.towers:  # a whole multimodal model: the towers' buffers first
        out += [(b, 1) for tower in arch.towers.parts for b in tower.buffers()]
    plan = layer_plan(arch)
    relative = kind_buffers(plan, naming, arch.norm_type)
    held = [rule for rule in naming.model_buffers if len(rule) < 5 or getattr(arch, rule[4])]
    layer_wide = [(name.removeprefix(LAYER), tuple(_size(arch, term) for term in shape), dtype, persistent)
                  for name, shape, dtype, persistent, *_ in held if name.startswith(LAYER)]
    if expand:
        at = [(i, layer, 1) for i, layer in enumerate(plan.layers)]
    else:  # each kind once, at its first layer, held by every layer of the kind
        first: dict[int, int] = {}
        for i, layer in enumerate(plan.layers):
            first.setdefault(id(layer), i)
            if len(first) == len(plan.kinds):
                break
        at = [(first[id(layer)], layer, layers) for layer, layers in plan.kinds]
    for i, layer, times in at:
        prefix = naming.layer.format(i=i) + "."
        out += [(Buffer(prefix + name, shape, dtype, persistent), times)
                for name, shape, dtype, persistent in layer_wide]
        out += [(b._replace(name=prefix + b.name), times) for b in relative[id(layer)]]
    for name, shape, dtype, persistent, *_ in held:
        if not name.startswith(LAYER):
            out.append((Buffer(name, tuple(_size(arch, term) for term in shape), dtype, persistent), 1))
    out += [(b, 1) for b in rotary_buffers(arch, naming)]
    return out


def kind_buffers(plan: Any, naming: Naming, norm_type: str) -> dict[int, list[Buffer]]:
    """id(Layer) -> the buffers its parts register, named relative to the layer, for each kind of ``plan``."""
    from .parts._collector import BufferCollector

    relative: dict[int, list[Buffer]] = {}
    for layer, _ in plan.kinds:
        c = BufferCollector(naming, norm_type)
        for part in layer.parts:
            part.buffers(c)
        relative[id(layer)] = c.buffers
    return relative


def rotary_buffers(arch: Architecture, naming: Naming) -> list[Buffer]:
    """RoPE's two float32 frequency tables, non-persistent (transformers 5.24.0 *RotaryEmbedding:
    ``register_buffer("inv_freq", ..., persistent=False)`` and ``original_inv_freq`` beside it), one
    pair per attention layer type where the family keeps a rotary per type (Gemma 3)."""
    if arch.position_embedding_type != "rope" or naming.rotary is None:
        return []
    if not naming.rotary_per_layer_type:
        width = (rotary_width(arch) + 1) // 2  # torch.arange(0, dim, 2)
        return [Buffer(f"{naming.rotary}.{which}", (width,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]
    kinds = list(arch.layer_types) or ["sliding_attention" if arch.sliding_window else "full_attention"]
    out = []
    for kind, named in zip(("full_attention", "sliding_attention"), naming.rotary_layer_types):
        if kind in kinds:  # a rotary for each layer type the config lists, sized by its first layer
            layer = kinds.index(kind) if arch.layer_types else 0
            factor = arch.sliding_partial_rotary_factor if kind == "sliding_attention" else None
            width = (rotary_width(arch, layer, factor) + 1) // 2
            out += [Buffer(f"{naming.rotary}.{named}_{which}", (width,), "float32", False)
                    for which in ("inv_freq", "original_inv_freq")]
    return out


def rotary_width(arch: Architecture, layer: int | None = None, factor: float | None = None) -> int:
    """The channels RoPE rotates: int(head_dim × partial_rotary_factor), head_dim being MLA's
    qk_rope_head_dim, or the layer's own (transformers' _compute_default_rope_parameters)."""
    if arch.is_mla:
        head_dim = arch.qk_rope_head_dim
    else:
        head_dim = arch.attention_head_dim if layer is None else arch.layer_head_dim(layer)
    return int(head_dim * (factor if factor is not None else arch.partial_rotary_factor))


def _size(arch: Architecture, term: Any) -> int:
    if isinstance(term, int):
        return term
    if callable(term):  # a width the family works out as its modeling code does (Dots 3 Note's rotaries)
        return term(arch)
    name, _, extra = term.partition("+")
    if name in ("rotary_width", "rotary_half"):  # the rotated channels; their inv_freq length
        value = rotary_width(arch) if name == "rotary_width" else (rotary_width(arch) + 1) // 2
    else:
        value = getattr(arch, name)
    return value + int(extra or 0)


def priced(buffer: Buffer, model_dtype: str, model_bytes: int) -> tuple[str, int]:
    """(dtype, bytes) of one buffer: its own dtype's, or the model's (``model_dtype``, ``model_bytes`` an
    element) for a buffer of the model's dtype."""
    from .quantization._base import OUR_NAMES

    if buffer.dtype is None:
        return model_dtype, buffer.count * model_bytes
    if buffer.dtype not in ITEM_BYTES:  # a live module's buffer of a dtype no model here registers
        from ._exceptions import ParamledgerError

        raise ParamledgerError(f"buffer {buffer.name}: dtype {buffer.dtype} is not one memory can size")
    return OUR_NAMES.get(buffer.dtype, buffer.dtype), buffer.count * ITEM_BYTES[buffer.dtype]


def add_buffer_bytes(inv: Inventory, model_dtype: str, model_bytes: int, sums: dict[tuple[str, str], int]) -> int:
    """Every buffer's bytes into ``sums`` as ("buffers", dtype), each layer kind's once times its layers;
    returns the bytes of those no checkpoint holds (computed when the model is built)."""
    unstored = 0
    for b, times in buffers_of(inv):
        dtype, size = priced(b, model_dtype, model_bytes)
        sums[("buffers", dtype)] = sums.get(("buffers", dtype), 0) + times * size
        if not b.persistent:
            unstored += times * size
    return unstored
