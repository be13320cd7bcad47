"""The family registry: every module here lists its families in ``FAMILIES``.

``get(model_type)`` returns one; ``supported()`` lists the model_types.  Names are
checked unique at import (a duplicate would silently shadow an entry).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.resources
import pkgutil
from typing import TYPE_CHECKING

from ..architecture import DESIGN_MODEL_TYPE
from ._family import COUNT_NEUTRAL, Family

if TYPE_CHECKING:
    from ..architecture import Architecture
    from ..naming import Naming

__all__ = ["COUNT_NEUTRAL", "Family", "get", "supported", "all_families", "same_code", "naming_of", "key_synonyms"]

_REGISTRY: dict[str, Family] | None = None
_SAME_CODE: dict[str, tuple[str, str]] = {}


def _load() -> dict[str, Family]:
    global _REGISTRY
    if _REGISTRY is None:
        registry: dict[str, Family] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            for family in getattr(module, "FAMILIES", ()):
                if family.model_type in registry:
                    raise RuntimeError(f"family {family.model_type!r} is declared twice ({info.name})")
                registry[family.model_type] = family
            _SAME_CODE.update(getattr(module, "SAME_CODE", {}))
        _REGISTRY = registry
    return _REGISTRY


def same_code(model_type: str) -> tuple[str, str] | None:
    """A model_type transformers does not know whose remote code (auto_map) is a supported family's own, as
    a family module lists it in ``SAME_CODE``: (that family's model_type, where that is said)."""
    _load()
    return _SAME_CODE.get(model_type)


def get(model_type: str) -> Family | None:
    if model_type == DESIGN_MODEL_TYPE:  # a design of our own: no family table to import
        return None
    return _load().get(model_type)


def supported() -> list[str]:
    return sorted(_load())


# Types whose CausalLM class transformers 5.24.0 cannot build from any config of the type: their refusal says why
# (docs/notes/decoders-q.md), not that transformers builds them.
UNBUILDABLE = {
    "musicgen": "transformers 5.24.0 cannot build it as a CausalLM: MusicgenForCausalLM reads a "
                "MusicgenDecoderConfig, the config's decoder section",
    "musicgen_melody": "transformers 5.24.0 cannot build it as a CausalLM: MusicgenMelodyForCausalLM reads a "
                       "MusicgenMelodyDecoderConfig, the config's decoder section",
    # (DiffusionGemmaEncoderTextModel takes it, inside DiffusionGemmaForBlockDiffusion: no auto class builds it alone)
    "diffusion_gemma_text": "transformers 5.24.0 builds no model from it alone: it is diffusion_gemma's text_config, "
                            "with no CausalLM; count the whole diffusion_gemma",
}


@functools.cache
def transformers_types() -> dict[str, str]:
    """Every model_type transformers 5.24.0 registers a config class for (transformers_types.txt, package data),
    each with why paramledger does not count it where that is not "not yet" (UNBUILDABLE; else ""): a config
    naming one that is not counted is refused as such, with no near-spelling of another suggested."""
    text = importlib.resources.files(__package__).joinpath("transformers_types.txt").read_text(encoding="utf-8")
    return {line: UNBUILDABLE.get(line, "") for line in text.splitlines() if line and not line.startswith("#")}


def all_families() -> list[Family]:
    return [_load()[name] for name in supported()]


@functools.lru_cache(maxsize=1)
def key_synonyms() -> dict[str, str]:
    """A config key of some family -> the field most families that have it read it as (GPT-2's n_layer and T5's
    num_layers: num_hidden_layers): the hint of an unknown key that is another family's name for a field."""
    from collections import Counter

    counts = Counter((key, field) for family in _load().values() for key, field in family.keys.items() if key != field)
    best: dict[str, str] = {}
    for (key, field), _ in counts.most_common():
        best.setdefault(key, field)
    return best


def naming_of(arch: Architecture) -> Naming:
    """The tensor names of ``arch``: its family's (a whole multimodal model's decoder by the text family its
    text_config names, where that is not the family's own), or Llama's for a design of our own, whose pre-FFN
    norm takes Gemma 2's name with sandwich norms (Llama's "post_attention_layernorm" would name two tensors)."""
    towers = arch.towers
    if towers and towers.naming is not None:
        return towers.naming
    family = get(arch.model_type)
    if family is not None:
        if family.naming.layer_groups is not None and arch.inner_group_num:  # (ALBERT's layers in groups)
            return _grouped(family.naming, arch.inner_group_num)
        if family.naming.not_legacy and not arch.legacy:  # (DeBERTa's head without legacy)
            return _not_legacy(family.naming)
        stacks = family.naming.layer_stacks  # layers in stacks of equal depth (HRM-Text's): named at this depth
        return family.naming if not stacks else _stacked(family.naming, arch.num_hidden_layers // len(stacks))
    return _design_naming(arch.norm_placement == "sandwich")


@functools.lru_cache(maxsize=8)
def _stacked(naming: Naming, depth: int) -> Naming:
    from ..naming import StackedLayers

    return dataclasses.replace(naming, layer=StackedLayers(naming.layer_stacks, depth))


@functools.lru_cache(maxsize=8)
def _grouped(naming: Naming, size: int) -> Naming:
    from ..naming import GroupedLayers

    return dataclasses.replace(naming, layer=GroupedLayers(naming.layer_groups, size))


@functools.lru_cache(maxsize=4)
def _not_legacy(naming: Naming) -> Naming:
    return dataclasses.replace(naming, **dict(naming.not_legacy))


@functools.lru_cache(maxsize=2)
def _design_naming(sandwich: bool) -> Naming:
    from ..naming import LLAMA

    return dataclasses.replace(LLAMA, ffn_pre_norm="pre_feedforward_layernorm") if sandwich else LLAMA
