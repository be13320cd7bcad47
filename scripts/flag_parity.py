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

import sys
import warnings
from collections import defaultdict

import transformers

from paramledger import families

from _flag_parity import NEUTRAL, base, candidates, options, probe, time_boxed, with_keys

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

args = sys.argv[1:]
strings = "--strings" in args
everything, only, timeout, types = options(args, families.supported())
time_boxed()


def bases(names: list[str]) -> dict[str, tuple]:
    found = {}
    for model_type in names:
        try:
            config, paths, section = base(model_type)
            found[model_type] = (config, paths, type(section), section.to_dict() if section is not None else {})
        except Exception as error:  # (a type whose config cannot be drawn or made: said, not fatal)
            print(f"{model_type}: skipped ({type(error).__name__}: {error})"[:300], flush=True)
    return found


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
        for other in candidates(key, value, config_class, seen[key]):
            probe(model_type, key, other, with_keys(config, paths, key, other), timeout, everything)
print("done", flush=True)
