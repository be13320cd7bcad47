"""LoRA and QLoRA memory: the frozen base at its own format (``--dtype``: nf4 or int8 for QLoRA, with ``keep``),
the trainable tensors (the adapter, modules_to_save copies, biases made trainable) at the recipe's format, and
gradients and optimizer states for the trainable tensors only, sharded by ZeRO as training.py shards them."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..inventory import Inventory, inventory_from_tensors
from ..memory import MemoryReport, WeightBytes, memory_report, weight_bytes
from ..training import get_recipe, training_memory
from .lora import COMPONENT

DEFAULT_ADAPTER_DTYPE = "bf16"  # without --training: the compute format LoRA layers usually run at


def _part(inv: Inventory, frozen: bool) -> Inventory:
    tensors = [t for t in inv.tensors if t.frozen == frozen]
    names = {t.name for t in tensors}
    aliases = {alias: target for alias, target in inv.aliases.items() if target in names}
    return inventory_from_tensors(tensors, aliases, architecture=inv.architecture, source=inv.source)


def lora_memory_report(inv: Inventory, *, dtype: str = "bf16", keep: Mapping[str, str] | list[str] | None = None,
                       group_size: int | None = None, training: str | None = None, zero_stage: int | None = None,
                       devices: int | None = None, **options) -> MemoryReport:
    """memory_report of an adapted inventory (adapters.lora_inventory), its weights and training memory priced
    as a LoRA trains: frozen at ``dtype`` (``keep`` and ``group_size`` as memory.weight_bytes takes them),
    trainable at the recipe's format (bf16 without a recipe)."""
    report = memory_report(inv, dtype=dtype, keep=keep, group_size=group_size, training=training,
                           zero_stage=zero_stage, devices=devices, **options)
    adapter_dtype = get_recipe(training).dtype if training is not None else DEFAULT_ADAPTER_DTYPE
    frozen = weight_bytes(_part(inv, True), dtype, keep, group_size)
    trainable = weight_bytes(_part(inv, False), adapter_dtype)
    sums = dict(frozen.sums)
    for key, size in trainable.sums.items():
        if key[0] != "buffers":  # the model's buffers, priced once with the frozen part
            sums[key] = sums.get(key, 0) + size
    # the adapter's own component, priced at the adapter's format (memory._dtype_for reads keep by component)
    kept = {**frozen.keep, COMPONENT: trainable.dtype}
    weights = WeightBytes(inv, frozen.main, frozen.group_size, kept, sums, unstored=frozen.unstored)
    train = report.training
    if training is not None:
        train = training_memory(inv, training, zero_stage or 0, devices, frozen_weights=(frozen.total, frozen.dtype))
    return dataclasses.replace(report, weights=weights, training=train)
