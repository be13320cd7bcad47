"""A type's smallest config with one config key set another way (issue #15): shared by tests/test_flag_parity.py and
scripts/flag_parity.py.

The key is set in the section the type's decoder reads (tests/_rope_parity.py `sections`: "" for the top level,
"text_config", "thinker_config.text_config", ...), in each of them where an encoder-decoder reads two.  The two
outcomes and their agreement are tests/_rope_parity.py's: transformers 5.24.0 on the meta device against
paramledger's count.
"""

from __future__ import annotations

import copy
import inspect
import re
from typing import Any

from paramledger.reference import hf_config

from _rope_parity import sections
from test_padding_idx import _smallest

# keys of PreTrainedConfig that size nothing in any class (or that the probe must not flip: they pick another class)
NEUTRAL = frozenset({
    "return_dict", "output_attentions", "output_hidden_states", "torchscript", "use_cache", "is_encoder_decoder",
    "tie_encoder_decoder", "add_cross_attention", "is_decoder", "chunk_size_feed_forward",
    "_attn_implementation_autoset", "use_return_dict", "output_scores", "return_dict_in_generate", "pruned_heads",
    "problem_type", "tf_legacy_loss", "use_bfloat16", "gradient_checkpointing", "model_type", "_name_or_path",
    "transformers_version", "architectures", "tokenizer_class", "dtype", "torch_dtype", "_attn_implementation",
    "_experts_implementation", "finetuning_task", "prefix", "decoder_start_token_id", "task_specific_params",
    "id2label", "label2id", "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "num_labels"})


def with_key(config: dict, path: str, key: str, value: Any) -> dict:
    """``config`` with ``key`` set to ``value`` in the section at ``path`` ("": the top level)."""
    if not path:
        return {**config, key: copy.deepcopy(value)}
    outer, _, inner = path.partition(".")
    return {**config, outer: with_key(config.get(outer) or {}, inner, key, value)}


def with_keys(config: dict, paths: tuple[str, ...], key: str, value: Any) -> dict:
    for path in paths:
        config = with_key(config, path, key, value)
    return config


def section_of(config: Any, path: str) -> Any:
    for part in path.split(".") if path else ():
        config = getattr(config, part, None)
    return config


def base(model_type: str) -> tuple[dict, tuple[str, ...], Any]:
    """The type's smallest config, the sections its decoder reads, and transformers' config object of the first."""
    config = _smallest(model_type)
    paths = sections(model_type, config)
    return config, paths, section_of(hf_config(copy.deepcopy(config)), paths[0])


def case(model_type: str, key: str, value: Any) -> dict:
    """The type's smallest config with ``key`` set to ``value`` wherever its decoder reads it."""
    config = _smallest(model_type)
    return with_keys(config, sections(model_type, config), key, value)


def documented_values(config_class: type, key: str) -> list[str]:
    """The quoted strings in the docstring paragraph of ``key`` (its values, as the config class lists them)."""
    doc = inspect.getdoc(config_class) or ""
    found = re.search(rf"^\s*{re.escape(key)} \(.*?\n(.*?)(?=^\s*\w+ \(|\Z)", doc, re.M | re.S)
    return list(dict.fromkeys(re.findall(r'"([\w.\-]+)"', found.group(0)))) if found else []
