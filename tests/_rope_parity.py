"""Each side's outcome for a type's smallest config with rope_parameters set another way (issue #15): shared by
tests/test_rope_parity.py and scripts/rope_parity.py.

A config's rope_parameters is either flat ({"rope_type": ..., "rope_theta": ...}) or layer-typed (one such entry per
layer type the config's layer_types use).  transformers 5.24.0 reads a layer-typed one as nested only where its keys
are layer types the config declares (RotaryEmbeddingConfigMixin.nested_rope_parameter_keys, modeling_rope_utils.py);
a few classes then refuse the config or fail to build it where paramledger counted it.
"""

from __future__ import annotations

import copy
from typing import Any

import paramledger
from paramledger import families
from paramledger._exceptions import ParamledgerError
from paramledger.reference import build_reference, hf_config

from hypothesis import HealthCheck, given, settings

from _family_configs import CONFIGS
from test_padding_idx import _reader, _smallest

DEFAULT = {"rope_type": "default", "rope_theta": 10000.0}
FLAT = dict(DEFAULT)
TYPED = {"full_attention": dict(DEFAULT), "sliding_attention": dict(DEFAULT)}

# the sections a decoder (or an encoder's own stack) reads rope_parameters from where they are no text_config
SECTIONS = {"encoder-decoder": ("encoder", "decoder"), "vision-encoder-decoder": ("decoder",),
            "pi0": ("vlm_config.text_config",)}


def sections(model_type: str, config: dict) -> tuple[str, ...]:
    """Where ``config``'s decoder reads its rope_parameters ("": the top level)."""
    if model_type in SECTIONS:
        return SECTIONS[model_type]
    return (_reader(config)[1],)


def _set(config: dict, path: str, value: Any) -> dict:
    if not path:
        return {**config, "rope_parameters": copy.deepcopy(value)}
    outer, _, inner = path.partition(".")
    return {**config, outer: _set(config.get(outer) or {}, inner, value)}


def with_rope(config: dict, paths: tuple[str, ...], value: Any) -> dict:
    for path in paths:
        config = _set(config, path, value)
    return config


def layer_types(config: dict, paths: tuple[str, ...]) -> list[str]:
    """The layer types the config's decoder uses (transformers' own reading of its layer_types), in order."""
    try:
        cfg = hf_config(config)
    except ParamledgerError:
        return []
    for path in paths:
        for part in path.split(".") if path else ():
            cfg = getattr(cfg, part, None)
        types = getattr(cfg, "layer_types", None) if cfg is not None else None
        if types:
            return list(dict.fromkeys(str(kind) for kind in types))
    return []


def examples(model_type: str, count: int) -> list[dict]:
    """The type's first ``count`` random small configs (tests/_family_configs.py), the same on every run."""
    found: list[dict] = []

    @settings(max_examples=count, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(CONFIGS[model_type])
    def take(config):
        found.append(config)

    take()
    return found[:count]


def variants(model_type: str, config: dict | None = None) -> dict[str, dict]:
    """The type's smallest config (or ``config``) with rope_parameters flat, layer-typed (full and sliding), one
    entry per layer type its config uses, and layer-typed but missing one of those (full and sliding where it
    declares none)."""
    config = _smallest(model_type) if config is None else config
    paths = sections(model_type, config)
    out = {"flat": with_rope(config, paths, FLAT), "typed": with_rope(config, paths, TYPED)}
    used = layer_types(config, paths)
    if used:
        out["typed as used"] = with_rope(config, paths, {kind: dict(DEFAULT) for kind in used})
    for missing in used or ("full_attention", "sliding_attention"):
        kept = [kind for kind in dict.fromkeys([*used, "full_attention", "sliding_attention"]) if kind != missing]
        out[f"typed without {missing}"] = with_rope(config, paths, {kind: dict(DEFAULT) for kind in kept})
    return out


def mixed_variants(model_type: str, config: dict | None = None) -> dict[str, dict]:
    """Layer-typed rope_parameters that mix rope_types and factors (helper dec): entries under the layer types the
    config uses (and full/sliding), a factor beside them, a yarn entry without its keys, each at the config's own head
    size; for the classes that declare layer_types but no rope field (families/even_rotary.py NO_ROPE_FIELD)."""
    config = _smallest(model_type) if config is None else config
    paths = sections(model_type, config)
    used = layer_types(config, paths)
    first, second = (used + ["full_attention", "sliding_attention"])[:2] if used else ATTENTION_PAIR
    half = {**DEFAULT, "partial_rotary_factor": 0.5}
    yarn = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 2.0, "original_max_position_embeddings": 16}
    dicts = {"factor beside an entry": {"partial_rotary_factor": 0.5, first: {}},
             "entries of two factors": {first: half, second: dict(DEFAULT)},
             "entries of two factors, reversed": {first: dict(DEFAULT), second: half},
             "entries of two types": {first: dict(DEFAULT), second: yarn},
             "a yarn entry at half": {first: {**yarn, "partial_rotary_factor": 0.5}, second: dict(DEFAULT)},
             "a yarn entry without factor": {first: {"rope_type": "yarn"}, second: dict(DEFAULT)},
             "full and sliding mixed": {"full_attention": half, "sliding_attention": yarn},
             **{f"only {kind} at half": {other: half if other == kind else dict(DEFAULT) for other in used}
                for kind in used}}
    return {name: with_rope(config, paths, rope) for name, rope in dicts.items()}


ATTENTION_PAIR = ("full_attention", "sliding_attention")


def transformers_outcome(config: dict) -> str:
    """"builds N", "refuses: ..." (its config class refuses it) or "fails: ..." (a traceback building the model)."""
    family = families.get(config["model_type"])
    config = copy.deepcopy(config)  # (a config class fills the rope_parameters it is given in place)
    try:
        hf_config(copy.deepcopy(config))
    except ParamledgerError as error:
        return f"refuses: {str(error).removeprefix('transformers refuses the config: ')}"
    try:
        reference = build_reference(config, text_config=family.text_decoder_only)
    except ParamledgerError as error:
        return f"fails: {str(error).split(': ', 1)[-1]}"
    return f"builds {reference.total}"


def paramledger_outcome(config: dict) -> str:
    """"counts N" or "refuses: ..." (its one line)."""
    try:
        return f"counts {paramledger.inventory(paramledger.load(config)).total}"
    except ParamledgerError as error:
        return f"refuses: {error}"


def agree(theirs: str, ours: str) -> bool:
    """Both count the same total, or both refuse (a failure to build is a refusal)."""
    if theirs.startswith("builds "):
        return ours == "counts " + theirs.removeprefix("builds ")
    return ours.startswith("refuses: ")
