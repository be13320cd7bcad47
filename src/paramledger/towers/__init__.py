"""Whole multimodal models: the towers and projector beside the text decoder (issue #16).

A multimodal family's ``Family.whole`` says, as data, what its whole model holds beside the decoder the family
table reads from text_config: its vision tower (vision.py: a layout and its vision config class's defaults),
its projector (projectors.py) and where the decoder's modules sit in the whole model.  ``read`` makes the
towers from a config (they ride on the Architecture, ``Architecture.towers``); ``attach`` puts their tensors
before the decoder's, as transformers registers them (the tower, the projector, the language model, the head).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Inventory, StampedTensors, Tensor, inventory_from_tensors
from ..naming import Naming
from .projectors import Projector, tensors as projector_tensors
from .vision import TOWERS, VisionTower

VISION_SIZES = ("hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_channels",
                "image_size", "patch_size")
"""The vision_config keys a tower's count reads (HF names), each a positive whole number."""


class Whole(NamedTuple):
    """What a multimodal family's whole model holds beside its text decoder."""
    vision_config: Mapping[str, Any]  # the vision_config the config class builds when a config gives none
    projector: Projector
    vision_prefix: str = "model.vision_tower."
    projector_prefix: str = "model.multi_modal_projector."
    decoder_prefix: str = "model.language_model."  # where the text decoder's "model." paths sit
    # The whole model ties its head by the whole config's tie_word_embeddings (this its class default), not
    # text_config's; ``tie_from_text``: or by text_config's too (LlavaConfig.__post_init__).
    tie_word_embeddings: bool = True
    tie_from_text: bool = False


class Projected(NamedTuple):
    """A projector's tensors, made when the config is read."""
    tensors_: tuple[Tensor, ...]

    def tensors(self) -> list[Tensor]:
        return list(self.tensors_)

    def buffers(self) -> list[Any]:
        return []


def decoder_naming(family: Any, arch: Any) -> Naming:
    """The naming of ``arch``'s text decoder: the family's, moved to its place in a whole model."""
    if arch.towers:
        return whole_naming(family.naming, family.whole.decoder_prefix)
    return family.naming


def tied(whole: Whole, config: Mapping[str, Any], text_tied: bool) -> bool:
    """Whether the whole model ties its head to the token table."""
    tie = config.get("tie_word_embeddings", whole.tie_word_embeddings)
    return bool(tie or whole.tie_from_text and text_tied)


def read(whole: Whole, config: Mapping[str, Any], text_hidden: int, where: str | None) -> tuple[Any, ...]:
    """The towers of a whole multimodal ``config`` (its vision_config over the class's defaults)."""
    given = config.get("vision_config")
    if given is None:
        given = whole.vision_config
    if not isinstance(given, Mapping):
        raise ArchitectureError("vision_config", "must be a JSON object", where)
    kind = given.get("model_type", whole.vision_config["model_type"])
    if kind not in TOWERS:
        raise ArchitectureError("vision_config.model_type", f"{kind!r} is a vision tower paramledger does not "
                                f"build yet (it builds {', '.join(sorted(TOWERS))}); --text-only counts the "
                                "text decoder alone", where)
    layout, defaults = TOWERS[kind]
    vision = {**defaults, **given}
    sizes = {}
    for key in VISION_SIZES:
        value = vision.get(key)
        if type(value) is not int or value <= 0:
            raise ArchitectureError(f"vision_config.{key}", f"must be a positive whole number, got {value!r}", where)
        sizes[key] = value
    if sizes["image_size"] < sizes["patch_size"]:
        raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than image_size="
                                f"{sizes['image_size']}", where)
    head_dim = vision.get("head_dim")
    if head_dim is None and sizes["hidden_size"] % sizes["num_attention_heads"]:
        raise ArchitectureError("vision_config.num_attention_heads", f"{sizes['num_attention_heads']} heads do not "
                                f"divide hidden_size={sizes['hidden_size']}", where)
    tower = VisionTower(whole.vision_prefix, layout, **sizes, head_dim=head_dim,
                        use_head=bool(vision.get("vision_use_head", False)))
    projected = Projected(projector_tensors(whole.projector_prefix, whole.projector(config, tower, text_hidden)))
    return tower, projected


def whole_naming(naming: Naming, prefix: str) -> Naming:
    """The text decoder's naming inside the whole model: every path under "model." moves under ``prefix``."""
    def moved(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("model."):
            return prefix + value.removeprefix("model.")
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # model_buffers
            return tuple((moved(entry[0]), *entry[1:]) for entry in value)
        if isinstance(value, tuple):
            return tuple(moved(entry) for entry in value)
        return value

    changes = {f.name: moved(getattr(naming, f.name)) for f in dataclasses.fields(naming)}
    return dataclasses.replace(naming, **{key: value for key, value in changes.items()
                                          if value != getattr(naming, key)})


def attach(inventory: Inventory) -> Inventory:
    """``inventory`` (the decoder's) with its architecture's towers before it, in registration order."""
    arch = inventory.architecture
    extra = [t for tower in arch.towers for t in tower.tensors()]
    held = inventory.tensors
    if isinstance(held, StampedTensors):
        tensors: Any = StampedTensors((*extra, *held.head), held.layer_prefix, held.blocks, held.tail,
                                      held._kinds, held.layer_order, held.model_order)
    else:
        tensors = (*extra, *held)
    return inventory_from_tensors(tensors, inventory.aliases, architecture=arch, source=inventory.source,
                                  notes=inventory.notes, buffers=inventory.buffers)
