"""Training memory: weights, gradients and optimizer states for a stated recipe.

Activations, temporary buffers, communication buckets and framework overhead are NOT
included: they depend on batch, sequence length, checkpointing and kernels, not on the
inventory.  Frozen tensors keep their weights but need no gradient and no optimizer state.

ZeRO (Rajbhandari et al. 2020; DeepSpeed) over N devices, per device: stage 1 shards the
optimizer states (with the fp32 master weights, which DeepSpeed keeps in the optimizer),
stage 2 also the gradients, stage 3 also the weights.  A shard is rounded up to a whole
byte (DeepSpeed also pads partitions for alignment; that padding is not modelled).
"""

from __future__ import annotations

from dataclasses import dataclass

from ._exceptions import OptionError, did_you_mean
from .architecture import Architecture
from .compute import as_inventory
from .inventory import Inventory


@dataclass(frozen=True, slots=True)
class Recipe:
    name: str
    weight_bytes: int  # per parameter, the working copy
    gradient_bytes: int  # per trainable parameter
    master_bytes: int  # per trainable parameter (fp32 copy in mixed precision)
    optimizer_bytes: int  # per trainable parameter (Adam: first and second moments)
    description: str
    dtype: str  # the working copy's format: a LoRA adapter's tensors are held at it beside a quantized base


RECIPES = {
    r.name: r
    for r in (
        Recipe("fp32-adam", 4, 4, 0, 8, "fp32 weights and gradients, fp32 Adam moments: 4 + 4 + 8 = 16 bytes/param",
               "fp32"),
        Recipe("bf16-mixed-adam", 2, 2, 4, 8,
               "bf16 weights and gradients, fp32 master weights, fp32 Adam moments: "
               "2 + 2 + 4 + 8 = 16 bytes/param (Rajbhandari et al. 2020, §3.1)", "bf16"),
        Recipe("fp16-mixed-adam", 2, 2, 4, 8,
               "fp16 weights and gradients, fp32 master weights, fp32 Adam moments: 2 + 2 + 4 + 8 = 16 bytes/param",
               "fp16"),
    )
}
RECIPE_ALIASES = {"fp32": "fp32-adam", "bf16-mixed": "bf16-mixed-adam", "fp16-mixed": "fp16-mixed-adam"}
ZERO_STAGES = (0, 1, 2, 3)


@dataclass(frozen=True, slots=True)
class TrainingMemory:
    recipe: Recipe
    zero_stage: int
    devices: int
    weights: int  # bytes per device
    gradients: int
    optimizer: int  # master weights and Adam moments
    parameters: int
    trainable: int
    frozen_dtype: str | None = None  # a frozen base held apart from the recipe's format (LoRA, QLoRA)

    @property
    def total(self) -> int:
        return self.weights + self.gradients + self.optimizer

    @property
    def definition(self) -> str:
        text = (f"{self.recipe.description}; weights for all {self.parameters:,} parameters, gradients and "
                f"optimizer states for the {self.trainable:,} trainable ones; activations not included")
        if self.frozen_dtype is not None:
            text += (f"; the {self.parameters - self.trainable:,} frozen ones at {self.frozen_dtype}, "
                     f"the trainable ones at {self.recipe.dtype}")
        if self.zero_stage:
            sharded = ("optimizer states", "optimizer states and gradients",
                       "optimizer states, gradients and weights")[self.zero_stage - 1]
            text += f"; per device, ZeRO stage {self.zero_stage} over {self.devices} devices shards {sharded}"
        return text


def get_recipe(name: str) -> Recipe:
    name = RECIPE_ALIASES.get(name, name)
    if name not in RECIPES:
        hint = did_you_mean(name, [*RECIPES, *RECIPE_ALIASES])
        raise OptionError("training", f"unknown recipe {name!r}{hint}; one of {', '.join(RECIPES)}")
    return RECIPES[name]


def _shard(amount: int, devices: int, sharded: bool) -> int:
    return -(-amount // devices) if sharded else amount


def training_memory(source: Inventory | Architecture, recipe: str = "bf16-mixed-adam", zero_stage: int = 0,
                    devices: int | None = None, frozen_weights: tuple[int, str] | None = None) -> TrainingMemory:
    """Bytes per device for weights, gradients and optimizer states (no activations).

    ``frozen_weights``: (bytes, format) of the frozen tensors when they are held apart from the recipe's
    format, as a LoRA's base is (QLoRA: 4-bit NF4, memory.weight_bytes of the frozen tensors); the trainable
    tensors then take the recipe's working copy, and only they have gradients and optimizer states."""
    inv = as_inventory(source)
    chosen = get_recipe(recipe)
    if zero_stage not in ZERO_STAGES:
        raise OptionError("zero", f"ZeRO stage must be 0, 1, 2 or 3, got {zero_stage!r}")
    if zero_stage and devices is None:
        raise OptionError("zero", f"stage {zero_stage} shards over devices: give --devices N")
    if devices is not None and (isinstance(devices, bool) or not isinstance(devices, int) or devices < 1):
        raise OptionError("devices", f"must be a whole number of at least 1, got {devices!r}")
    n = devices or 1
    trainable = inv.trainable
    if frozen_weights is None:
        weights = inv.total * chosen.weight_bytes
    else:
        weights = frozen_weights[0] + trainable * chosen.weight_bytes
    gradients = trainable * chosen.gradient_bytes
    optimizer = trainable * (chosen.master_bytes + chosen.optimizer_bytes)
    return TrainingMemory(
        chosen, zero_stage, n,
        weights=_shard(weights, n, zero_stage >= 3),
        gradients=_shard(gradients, n, zero_stage >= 2),
        optimizer=_shard(optimizer, n, zero_stage >= 1),
        parameters=inv.total, trainable=trainable, frozen_dtype=frozen_weights[1] if frozen_weights else None,
    )
