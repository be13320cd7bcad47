"""A type's smallest config with one config key set another way (issue #15): shared by tests/test_flag_parity.py and
scripts/flag_parity.py.

The key is set in the section the type's decoder reads (tests/_rope_parity.py `sections`: "" for the top level,
"text_config", "thinker_config.text_config", ...), in each of them where an encoder-decoder reads two.  The two
outcomes and their agreement are tests/_rope_parity.py's: transformers 5.24.0 on the meta device against
paramledger's count.
"""

from __future__ import annotations

import copy
import functools
import inspect
import re
from typing import Any

from paramledger.reference import hf_config

from _rope_parity import sections
from test_padding_idx import _reader, _smallest

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


@functools.cache
def decoder_sections() -> tuple[tuple[str, str, Any], ...]:
    """Every supported type, the table that reads its decoder's section (a whole model's text table), and transformers'
    config object of that section (base's): made once a process, for the tests that hold a table against the classes
    (read them, never change them)."""
    from paramledger import families

    return tuple((model_type, _reader(_smallest(model_type))[0], base(model_type)[2])
                 for model_type in families.supported())


def first_of_each_table() -> dict[str, str]:
    """Each reading table -> the first supported type it reads for."""
    first: dict[str, str] = {}
    for model_type, table, _ in decoder_sections():
        first.setdefault(table, model_type)
    return first


def case(model_type: str, key: str, value: Any) -> dict:
    """The type's smallest config with ``key`` set to ``value`` wherever its decoder reads it."""
    config = _smallest(model_type)
    return with_keys(config, sections(model_type, config), key, value)


def documented_values(config_class: type, key: str) -> list[str]:
    """The quoted strings in the docstring paragraph of ``key`` (its values, as the config class lists them)."""
    doc = inspect.getdoc(config_class) or ""
    found = re.search(rf"^\s*{re.escape(key)} \(.*?\n(.*?)(?=^\s*\w+ \(|\Z)", doc, re.M | re.S)
    return list(dict.fromkeys(re.findall(r'"([\w.\-]+)"', found.group(0)))) if found else []


# --- shared by scripts/flag_parity.py and scripts/tower_flag_parity.py ---

def options(args: list[str], every: list[str]) -> tuple[bool, set[str] | None, int, list[str]]:
    """The probes' command line: --all, --keys K,... (those keys alone), --timeout S, and the types (else ``every``)."""
    only = set(args[args.index("--keys") + 1].split(",")) if "--keys" in args else None
    timeout = int(args[args.index("--timeout") + 1]) if "--timeout" in args else 60
    values = {args[at + 1] for at, arg in enumerate(args[:-1]) if arg in ("--keys", "--timeout")}
    return "--all" in args, only, timeout, [arg for arg in args if not arg.startswith("--") and arg not in values] or every


class TimedOut(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise TimedOut


def time_boxed() -> None:
    """Make SIGALRM raise TimedOut (signal.alarm(seconds) then bounds one build)."""
    import signal

    signal.signal(signal.SIGALRM, _alarm)


def severity(theirs: str, ours: str) -> str:
    """WRONG (both count, the totals differ), REFUSED (transformers builds it), else COUNTED."""
    if theirs.startswith("builds ") and ours.startswith("counts "):
        return "WRONG"
    return "REFUSED" if theirs.startswith("builds ") else "COUNTED"


def candidates(key: str, value: Any, config_class: type, seen: set) -> list:
    """The other values the probes set ``key`` to: a bool flipped, an int from 0 to 16 to 0 and 1, a str to the
    values ``seen`` for it and its class documents (an activation only to xielu and prelu: the others size nothing)."""
    from transformers.activations import ACT2CLS

    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [other for other in (0, 1) if other != value] if 0 <= value <= 16 else []
    if not isinstance(value, str):
        return []
    if value in ACT2CLS:
        others = {"xielu", "prelu"} | {other for other in seen if other not in ACT2CLS}
    else:
        others = seen | set(documented_values(config_class, key))
    return sorted(other for other in others if other != value)


# refused as inconsistent where transformers builds (docs/notes/flag-parity.md: refused on purpose)
DELIBERATE = ("does not divide num_attention_heads", "heads do not divide hidden_size", "must be between 1 and num_experts")


def bad_size(value: Any, ours: str) -> bool:
    """A size of 0 that paramledger refuses as bad input (docs/limits.md) where transformers builds something."""
    return value == 0 and ours.startswith("refuses: ") and (
        "positive" in ours or "between 1 and" in ours or "set without" in ours or "from 1" in ours)


def probe(model_type: str, name: str, value: Any, variant: dict, timeout: int, everything: bool,
          more: dict | None = None) -> None:
    """Count ``variant`` (``name`` set to ``value``, and each key of ``more`` to its value) and build it with
    transformers within ``timeout`` seconds; print the disagreement with its severity (a size of 0 paramledger refuses
    as bad input, or the
    inconsistent sizes DELIBERATE names: built only with --all)."""
    import signal

    from _rope_parity import agree, paramledger_outcome, transformers_outcome

    changes = {name: value, **(more or {})}
    said = ", ".join(f"{key}={given!r}" for key, given in changes.items())
    try:
        signal.alarm(timeout)
        ours = paramledger_outcome(variant)
        if not everything and (any(bad_size(given, ours) for given in changes.values())
                               or any(reason in ours for reason in DELIBERATE)):
            return
        theirs = transformers_outcome(variant)
    except TimedOut:
        print(f"TIMEOUT {model_type} [{said}]", flush=True)
        return
    except Exception as error:  # (the probe's own failure on one variant: said, not fatal)
        print(f"ERROR {model_type} [{said}]: {type(error).__name__}: {error}"[:300], flush=True)
        return
    finally:
        signal.alarm(0)
    if not agree(theirs, ours):
        print(f"{severity(theirs, ours)} {model_type} [{said}]: transformers {theirs[:160]} | "
              f"paramledger {ours[:200]}", flush=True)
