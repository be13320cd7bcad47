"""Find where transformers and paramledger disagree on several keys set at once (issue #15): each supported type's
first random small configs (tests/_family_configs.py) with two to four keys of its decoder's section set another way
together (a bool flipped, a str to another value the supported types give it, a small int to 1 or one more, a float
halved), drawn with a fixed seed, built by transformers 5.24.0 on the meta device and counted by paramledger.  Prints
each disagreement as scripts/flag_parity.py does (WRONG, COUNTED, REFUSED); flag_parity.py sets one key at a time,
this one looks for what keys do together.

Run: cd tests && PYTHONPATH=../src:. python ../scripts/combo_parity.py [--draws N] [--seed S] [--timeout S]
    [model_type ...]
"""

from __future__ import annotations

import random
import sys
import warnings
from collections import defaultdict

import transformers
from transformers.activations import ACT2CLS

from paramledger import families
from paramledger.reference import hf_config

from _flag_parity import NEUTRAL, candidates, options, probe, section_of, time_boxed, with_keys
from _rope_parity import examples, sections

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

args = sys.argv[1:]
draws = int(args[args.index("--draws") + 1]) if "--draws" in args else 12
seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 15
args = [arg for at, arg in enumerate(args) if arg not in ("--draws", "--seed")
        and (at == 0 or args[at - 1] not in ("--draws", "--seed"))]
_, _, timeout, types = options(args, families.supported())
time_boxed()

# keys that size nothing, or whose other values scripts/flag_parity.py and rope_parity.py probe (activations, rope)
SKIP = frozenset({"hidden_act", "hidden_activation", "activation_function", "afn", "rope_parameters", "rope_scaling",
                  "layer_types", "initializer_range", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon",
                  "attention_dropout", "hidden_dropout", "dropout", "embd_pdrop", "resid_pdrop", "attn_pdrop",
                  "hidden_dropout_prob", "attention_probs_dropout_prob", "vocab_size", "max_position_embeddings"})


def others(key: str, value: object, config_class: type, seen: set) -> list:
    """The values a draw may set ``key`` to: flag_parity's for a bool or a str (none for an activation: probed alone),
    1 or one more for a small int, half a float."""
    if isinstance(value, str) and value in ACT2CLS:
        return []
    if isinstance(value, (bool, str)):
        return candidates(key, value, config_class, seen)
    if isinstance(value, int):
        return sorted({1, value + 1} - {value}) if 1 <= value <= 64 else []
    if isinstance(value, float):
        return [value / 2] if 0 < value <= 8 else []
    return []


seen: dict[str, set] = defaultdict(set)
bases = {}
for model_type in types:
    try:
        configs = examples(model_type, 3)
        paths = sections(model_type, configs[0])
        section = section_of(hf_config(dict(configs[0])), paths[0])
        values = section.to_dict() if section is not None else {}
    except Exception as error:
        print(f"{model_type}: skipped ({type(error).__name__}: {error})"[:300], flush=True)
        continue
    bases[model_type] = (configs, paths, type(section), values)
    for key, value in values.items():
        if isinstance(value, str):
            seen[key].add(value)

rng = random.Random(seed)
for model_type, (configs, paths, config_class, values) in bases.items():
    pool = {key: found for key, value in values.items() if key not in NEUTRAL and key not in SKIP
            and (found := others(key, value, config_class, seen[key]))}
    if len(pool) < 2:
        continue
    keys = sorted(pool)
    for draw in range(draws):
        chosen = rng.sample(keys, min(len(keys), rng.randint(2, 4)))
        config = configs[draw % len(configs)]
        changes = {key: rng.choice(pool[key]) for key in chosen}
        variant = config
        for key, value in changes.items():
            variant = with_keys(variant, paths, key, value)
        first, *rest = changes.items()
        probe(f"{model_type} #{draw % len(configs)}", *first, variant, timeout, False, dict(rest))
print("done", flush=True)
