"""An inventory's tensors as a stored format keeps them: each learned tensor either stays itself at the
format's dtype, or becomes the tensors its method stores (a packed weight, its scales, zero points, g_idx)."""

from __future__ import annotations

from collections.abc import Callable

from ..inventory import Inventory, StampedTensors, Tensor
from . import StoredFormat
from ._base import OUR_NAMES, TORCH_NAMES, StoredTensor
from ._select import compile_skips, kind_of, module_of, skipped

Pricer = Callable[[Tensor, str, bool], "tuple[StoredTensor, ...] | None"]


def default_skips(inv: Inventory) -> tuple[str, ...]:
    """transformers' get_keys_to_not_convert (quantizers/base.py): the output head (and what it is tied to)
    and the module of the model's last parameter."""
    tensors = inv.tensors
    tail = tensors.tail if isinstance(tensors, StampedTensors) else tensors
    names = {module_of(t.name) for t in tail if t.component == "lm_head"}
    for alias, target in inv.aliases.items():
        if inv[target].component == "embedding":
            names |= {module_of(alias), module_of(target)}
    if tail:
        names.add(module_of(tail[-1].name))
    return tuple(sorted(n for n in names if n))


def pricer(inv: Inventory, fmt: StoredFormat) -> Pricer:
    """``price(tensor, full_name, in_layer)``: the tensors ``fmt`` stores for it, or None (kept as it is)."""
    method = fmt.method
    arch = inv.architecture
    model_type = arch.model_type if arch is not None else ""
    dtype = TORCH_NAMES[fmt.dtype]
    patterns = method.skip
    if patterns is None or method.default_skips:
        patterns = (*(patterns or ()), *default_skips(inv))
    if method.quant_method == "mlx":
        patterns = ()
    skips = compile_skips(patterns)
    kinds = method.kinds
    only_gpt_oss = method.quant_method == "mxfp4"  # Mxfp4GptOssExperts: gpt-oss's experts alone
    mlx = method.quant_method == "mlx"
    in_layers_only = method.in_layers_only
    layout = method.layout

    def price(t: Tensor, name: str, in_layer: bool) -> tuple[StoredTensor, ...] | None:
        kind = kind_of(t, model_type)
        if kind is None:
            if not (mlx and t.component == "embedding" and len(t.shape) == 2):
                return None
            kind = "embedding"
        if (kind not in kinds or (in_layers_only and not in_layer) or (only_gpt_oss and model_type != "gpt_oss")
                or skipped(module_of(name), skips)):
            return None
        if kind == "conv1d":  # Conv1D holds (in, out): what the method stores is the Linear's (out, in)
            return layout(name, (t.shape[1], t.shape[0]), kind, dtype)
        return layout(name, t.shape, kind, dtype)

    return price


def our_dtype(torch_name: str) -> str:
    return OUR_NAMES.get(torch_name, torch_name)


def stored_tensors(inv: Inventory, fmt: StoredFormat) -> list[tuple[Tensor, StoredTensor]]:
    """Every tensor the checkpoint stores, each with the learned tensor it stands for (in inventory order)."""
    plain = TORCH_NAMES[fmt.dtype]
    price = pricer(inv, fmt) if fmt.method is not None else None
    out: list[tuple[Tensor, StoredTensor]] = []
    for t in inv.tensors:
        pieces = price(t, t.name, t.layer is not None) if price is not None else None
        out += [(t, piece) for piece in pieces] if pieces else [(t, StoredTensor(t.name, t.shape, plain))]
    return out
