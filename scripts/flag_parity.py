"""Find the config keys where transformers and paramledger disagree (issue #15): each supported type's smallest random
config (tests/_family_configs.py) with one key of its decoder's section set another way (tests/_flag_parity.py),
built by transformers 5.24.0 on the meta device and counted by paramledger.  Prints each variant where exactly one
side refuses or the totals differ (tests/test_flag_parity.py checks those), tagged by severity: WRONG (both count,
the totals differ), COUNTED (transformers cannot build it, paramledger counts it), REFUSED (transformers builds it,
paramledger refuses it).

Pass 1 flips every bool key of the section's to_dict().  Pass 2 (--strings) sets every str key to each other value
that key takes across the supported types' sections and that the config class's docstring lists (an activation
only to xielu and prelu, whose modules hold weights: the others size nothing), and every small int key (0 to 16)
to 0 and 1.

Sizes of 0 that paramledger refuses as bad input (transformers builds empty tensors) are left out unless --all.

Run: cd tests && PYTHONPATH=../src:. python ../scripts/flag_parity.py [--strings] [--all] [--timeout S] [--keys K,...]
    [model_type ...]
"""

from __future__ import annotations

import signal
import sys
import warnings
from collections import defaultdict

import transformers
from transformers.activations import ACT2CLS

from paramledger import families

from _flag_parity import NEUTRAL, base, documented_values, with_keys
from _rope_parity import agree, paramledger_outcome, transformers_outcome

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

args = sys.argv[1:]
strings = "--strings" in args
everything = "--all" in args
only = set(args[args.index("--keys") + 1].split(",")) if "--keys" in args else None  # (those keys alone)  # (also the sizes of 0 paramledger refuses as bad input)
timeout = int(args[args.index("--timeout") + 1]) if "--timeout" in args else 60
options = {args[at + 1] for at, arg in enumerate(args[:-1]) if arg in ("--keys", "--timeout")}
types = [arg for arg in args if not arg.startswith("--") and arg not in options] or families.supported()


class TimedOut(Exception):
    pass


def _alarm(*_):
    raise TimedOut


signal.signal(signal.SIGALRM, _alarm)


def severity(theirs: str, ours: str) -> str:
    if theirs.startswith("builds ") and ours.startswith("counts "):
        return "WRONG"
    return "REFUSED" if theirs.startswith("builds ") else "COUNTED"


def bases(names: list[str]) -> dict[str, tuple]:
    found = {}
    for model_type in names:
        try:
            config, paths, section = base(model_type)
            found[model_type] = (config, paths, type(section), section.to_dict() if section is not None else {})
        except Exception as error:  # (a type whose config cannot be drawn or made: said, not fatal)
            print(f"{model_type}: skipped ({type(error).__name__}: {error})"[:300], flush=True)
    return found


def candidates(key: str, value, config_class: type, seen: dict[str, set]) -> list:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [other for other in (0, 1) if other != value] if 0 <= value <= 16 else []
    if not isinstance(value, str):
        return []
    if value in ACT2CLS:
        others = {"xielu", "prelu"} | {other for other in seen[key] if other not in ACT2CLS}
    else:
        others = seen[key] | set(documented_values(config_class, key))
    return sorted(other for other in others if other != value)


def _bad_size(value, ours: str) -> bool:
    """A size of 0 that paramledger refuses as bad input (docs/limits.md) where transformers builds something."""
    return value == 0 and ("positive" in ours or "between 1 and" in ours or "set without" in ours)


def probe(model_type: str, config: dict, paths: tuple[str, ...], key: str, value) -> None:
    variant = with_keys(config, paths, key, value)
    try:
        signal.alarm(timeout)
        theirs, ours = transformers_outcome(variant), paramledger_outcome(variant)
    except TimedOut:
        print(f"TIMEOUT {model_type} [{key}={value!r}]", flush=True)
        return
    except Exception as error:  # (the probe's own failure on one variant: said, not fatal)
        print(f"ERROR {model_type} [{key}={value!r}]: {type(error).__name__}: {error}"[:300], flush=True)
        return
    finally:
        signal.alarm(0)
    if not agree(theirs, ours) and (everything or not _bad_size(value, ours)):
        print(f"{severity(theirs, ours)} {model_type} [{key}={value!r}]: transformers {theirs[:160]} | "
              f"paramledger {ours[:200]}", flush=True)


found = bases(types)
seen: dict[str, set] = defaultdict(set)
if strings:  # the values each str key takes across the supported types (all of them, whatever types are probed)
    every = found if len(types) == len(families.supported()) else bases(families.supported())
    for _, _, _, values in every.values():
        for key, value in values.items():
            if isinstance(value, str):
                seen[key].add(value)
for model_type, (config, paths, config_class, values) in found.items():
    for key, value in values.items():
        if key in NEUTRAL or isinstance(value, bool) == strings or only is not None and key not in only:
            continue
        for other in candidates(key, value, config_class, seen):
            probe(model_type, config, paths, key, other)
print("done", flush=True)
