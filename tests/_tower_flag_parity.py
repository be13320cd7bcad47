"""A whole multimodal type's smallest config with one key of a section other than its decoder's set another way
(issue #15, the towers' side of tests/_flag_parity.py): shared by tests/test_tower_flag_parity.py and
scripts/tower_flag_parity.py.

The sections are every sub-config transformers' config object holds (vision_config, audio_config, qformer_config,
vision_config.sam_config, thinker_config.audio_config, ...), found by walking it, except the ones the decoder reads
(tests/_rope_parity.py `sections`) (a section that holds one, thinker_config, with its own keys only); plus the whole config's own keys ("", the
projector's and the whole model's) where the decoder does not read the top level itself.  A key is set in the raw
config's section where the config gives one, else in a new section holding that key alone (the class fills in its
defaults, as it does for a section the config leaves out).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from transformers import PreTrainedConfig

from paramledger.reference import hf_config

from _flag_parity import NEUTRAL, section_of, with_key
from _rope_parity import sections
from test_padding_idx import _smallest

# keys that pick another class or read a checkpoint, never a size (set one and the probe measures something else)
TOWER_NEUTRAL = NEUTRAL | {"auto_map", "base_config_key", "sub_configs", "initializer_range", "initializer_factor"}


def _walk(config: Any, path: str, found: list[str]) -> None:
    for key, value in vars(config).items():
        if isinstance(value, PreTrainedConfig):
            inner = f"{path}.{key}" if path else key
            found.append(inner)
            _walk(value, inner, found)


def tower_sections(model_type: str, config: dict) -> tuple[tuple[str, ...], list[str]]:
    """The sections the decoder reads and the others (the towers', "" for the whole config's own keys)."""
    decoder = sections(model_type, config)
    found: list[str] = []
    _walk(hf_config(copy.deepcopy(config)), "", found)
    others = [path for path in found if path not in decoder]  # (thinker_config, vlm_config: their own keys)
    if "" not in decoder:
        others.insert(0, "")
    return decoder, others


def values_of(cfg: Any, path: str) -> dict[str, Any]:
    """The section's own keys with their values (transformers' to_dict, its sub-configs left out)."""
    section = section_of(cfg, path)
    if section is None:
        return {}
    own = {key for key, value in vars(section).items() if isinstance(value, PreTrainedConfig)}
    return {key: value for key, value in section.to_dict().items()
            if key not in own and key not in TOWER_NEUTRAL and not key.startswith("_")}


def bases(model_type: str, deep: bool = False) -> tuple[dict, list[str], Any]:
    """The type's smallest config (``deep``: its towers' depths of 0 made 1, ``deepened``), its non-decoder sections,
    and transformers' config object of it."""
    config = _smallest(model_type)
    _, others = tower_sections(model_type, config)
    if deep:
        config = deepened(config, others)
    return config, others, hf_config(copy.deepcopy(config))


def deepened(config: dict, paths: list[str]) -> dict:
    """``config`` with every depth of 0 in the sections at ``paths`` made 1 (num_hidden_layers, depth, depths: [0],
    encoder_layers, ...): a smallest config often draws a tower of no layer, where a key inside its layers (an
    activation, a bias) builds nothing on either side."""
    for path in paths:
        section = section_of_dict(config, path)
        if not path or not isinstance(section, dict):
            continue
        for key, value in section.items():
            if not _DEPTH.search(key):
                continue
            if value == 0 and type(value) is int:
                config = with_key(config, path, key, 1)
            elif isinstance(value, list) and value and all(type(item) is int for item in value) and 0 in value:
                config = with_key(config, path, key, [item or 1 for item in value])
    return config


def section_of_dict(config: dict, path: str) -> Any:
    for part in path.split(".") if path else ():
        config = config.get(part) if isinstance(config, dict) else None
    return config


_DEPTH = re.compile("layers|depth|blocks")


def tower_case(model_type: str, path: str, key: str, value: Any, config: dict | None = None) -> dict:
    """The type's smallest config (or ``config``) with ``key`` set to ``value`` in the section at ``path``."""
    return with_key(_smallest(model_type) if config is None else config, path, key, value)


def spelled(path: str, key: str) -> str:
    """The key as a refusal names it: vision_config.hidden_act, or the whole config's own key alone."""
    return f"{path}.{key}" if path else key
