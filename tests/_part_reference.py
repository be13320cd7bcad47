"""What the part tests compare: a part's tensors and buffers as the collectors list them, and a transformers module's,
built alone at a chosen default dtype (the model's dtype, which a buffer of dtype None follows) and device."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paramledger.naming import LLAMA
from paramledger.parts._collector import BufferCollector, Collector


def built(make: Callable[[], Any], dtype: Any = None, device: str = "cpu") -> Any:
    """``make()`` with torch's default dtype set to ``dtype`` (None: left as it is), on ``device``."""
    import torch

    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype or previous)
    try:
        with torch.device(device):
            return make()
    finally:
        torch.set_default_dtype(previous)


def part_tensors(part: Any, naming: Any = LLAMA) -> list[tuple[str, tuple[int, ...]]]:
    """``naming``: a stand-in holding a mixer's Names before its module is listed in MIXER_MODULES."""
    c = Collector(naming, "rmsnorm")
    part.tensors(c)
    return [(t.name, t.shape) for t in c.tensors]


def module_tensors(prefix: str, module: Any) -> list[tuple[str, tuple[int, ...]]]:
    return [(prefix + name, tuple(p.shape)) for name, p in module.named_parameters()]


def part_buffers(part: Any, naming: Any = LLAMA) -> list[tuple[str, tuple[int, ...], str | None, bool]]:
    c = BufferCollector(naming, "rmsnorm")
    part.buffers(c)
    return [(b.name, b.shape, b.dtype, b.persistent) for b in c.buffers]


def module_buffers(prefix: str, module: Any, model_dtype: Any) -> list[tuple[str, tuple[int, ...], str | None, bool]]:
    """Each buffer's name, shape, dtype (None: the model's) and whether the state dict keeps it."""
    persistent = set(module.state_dict())
    return [(prefix + name, tuple(b.shape), None if b.dtype == model_dtype else str(b.dtype).removeprefix("torch."),
             name in persistent) for name, b in module.named_buffers()]
