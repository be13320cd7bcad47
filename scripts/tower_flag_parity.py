"""Find the towers' config keys where transformers and paramledger disagree (issue #15): each supported whole
multimodal type's smallest random config (tests/_family_configs.py) with one key of a section other than its
decoder's set another way (tests/_tower_flag_parity.py: vision_config, audio_config, nested tower sections, the
whole config's own projector keys), built by transformers 5.24.0 on the meta device (the auto class
paramledger.reference.auto_class picks) and counted by paramledger.  Tags as scripts/flag_parity.py: WRONG (both
count, the totals differ), COUNTED (transformers cannot build it, paramledger counts it), REFUSED (transformers
builds it, paramledger refuses it).

Each bool key is flipped; each str key set to the other values it takes in the same-named section across the whole
types (and that the section's config class documents; an activation only to xielu and prelu, whose modules hold
weights); each int key from 0 to 16 set to 0 and 1.  A 0 that paramledger refuses as a size (docs/limits.md) is
not built by transformers and not listed unless --all.

--derived: instead, each int attribute that no dataclass field of its section's class declares (derived in
__post_init__, where a given one wins if it is set after) to its value + 1 and × 2.
--wider: instead, each int from 0 to 64 to its value + 1 and + 2 (more heads than the width, an odd head_dim).
--deep: each tower's depth of 0 in the smallest config made 1 first (a key inside the layers then builds something).

Run: cd tests && PYTHONPATH=../src:. python ../scripts/tower_flag_parity.py [--all] [--deep] [--derived | --wider]
    [--timeout S] [--keys K,...] [model_type ...]
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
from collections import defaultdict

import transformers

from paramledger import families

from _flag_parity import candidates, options, probe, section_of, time_boxed
from _tower_flag_parity import bases, spelled, tower_case, values_of

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

whole = [name for name in families.supported() if families.get(name).whole is not None]
everything, only, timeout, types = options(sys.argv[1:], whole)
deep = "--deep" in sys.argv  # towers of no layer in the smallest config given one (tests/_tower_flag_parity.deepened)
derived = "--derived" in sys.argv  # only the int attributes no dataclass field declares, set to value + 1 and × 2
wider = "--wider" in sys.argv  # only the ints from 0 to 64, set to value + 1 and + 2
time_boxed()


def found_bases(names: list[str]) -> dict[str, tuple]:
    """Each type's smallest config and its non-decoder sections: (their config class, their own keys' values)."""
    found = {}
    for model_type in names:
        try:
            config, paths, cfg = bases(model_type, deep)
        except Exception as error:  # (a type whose config cannot be drawn or made: said, not fatal)
            print(f"{model_type}: skipped ({type(error).__name__}: {error})"[:300], flush=True)
            continue
        found[model_type] = (config, {path: (type(section_of(cfg, path)), values_of(cfg, path)) for path in paths})
    return found


def declared(config_class: type) -> set[str]:
    """The config class's dataclass fields (and PreTrainedConfig's): what a config sets before __post_init__."""
    return {field.name for field in dataclasses.fields(config_class)} if dataclasses.is_dataclass(config_class) else set()


found = found_bases(types)
# the values each str key takes in the same-named section (its last part) across every whole type
every = found if len(types) == len(whole) else found_bases(whole)
seen: dict[tuple[str, str], set] = defaultdict(set)
for _, sections_ in every.values():
    for path, (_, values) in sections_.items():
        for key, value in values.items():
            if isinstance(value, str):
                seen[path.rsplit(".", 1)[-1], key].add(value)
for model_type, (config, sections_) in found.items():
    probed = 0
    if deep:  # the deepened config itself, said where the two sides disagree before any key is set
        probe(model_type, "deepened", True, config, timeout, everything)
    for path, (config_class, values) in sections_.items():
        for key, value in values.items():
            if only is not None and key not in only and spelled(path, key) not in only:
                continue
            if derived:  # (a value its class derives in __post_init__: a given one may win, or be overwritten)
                if type(value) is not int or key in declared(config_class):
                    continue
                others = sorted({value + 1, value * 2} - {value})
            elif wider:
                others = [value + 1, value + 2] if type(value) is int and 0 <= value <= 64 else []
            else:
                others = candidates(key, value, config_class, seen[path.rsplit(".", 1)[-1], key])
            for other in others:
                probe(model_type, spelled(path, key), other, tower_case(model_type, path, key, other, config),
                      timeout, everything)
                probed += 1
    print(f"-- {model_type}: {probed} variants in {', '.join(repr(p) for p in sections_)}", flush=True)
print("done", flush=True)
