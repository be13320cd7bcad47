"""Find the types where transformers and paramledger disagree about a rope_parameters given flat or layer-typed
(issue #15): each supported type's smallest random config (tests/_family_configs.py) with rope_parameters set in
the section its decoder reads (tests/_rope_parity.py: flat, layer-typed full + sliding, one entry per layer type the
config uses, and layer-typed missing one of those), built by transformers on the meta device and counted by
paramledger.  Prints each variant where exactly one side refuses or the totals differ (tests/test_rope_parity.py
checks those), then families/rope_form.py's sets as transformers' outcomes say, by the family whose table reads the
config (a whole model's text family): NESTED_REFUSED (flat builds, one entry per layer type does not), FLAT_REFUSED
(the reverse), EVERY_TYPE (of those, one missing a layer type the config uses is not built either).

Run: cd tests && PYTHONPATH=../src:. python ../scripts/rope_parity.py [--examples N] [--mixed] [model_type ...]
(--examples N: each type's first N random configs as well as its smallest; --mixed: instead, the classes that declare
no rope field (families/even_rotary.py NO_ROPE_FIELD) given layer-typed dicts that mix types and factors
(tests/_rope_parity.py mixed_variants), with their head size as drawn, 5 and 6: disagreements only.)
"""

from __future__ import annotations

import sys
import warnings

from paramledger import families

from _rope_parity import agree, examples, mixed_variants, paramledger_outcome, transformers_outcome, variants
from test_even_rotary import _spelt, _with
from test_padding_idx import _reader, _smallest

warnings.filterwarnings("ignore")

args = sys.argv[1:]
count = int(args[args.index("--examples") + 1]) if "--examples" in args else 0
types = [arg for arg in args if not arg.isdigit() and not arg.startswith("--")] or families.supported()
if "--mixed" in args:
    from paramledger.families.even_rotary import NO_ROPE_FIELD

    for model_type in types:
        base = _smallest(model_type)
        reader, nested = _reader(base)
        if reader not in NO_ROPE_FIELD:
            continue
        for size in (None, 5, 6):
            sized = base if size is None else _with(base, nested, **{_spelt(reader): size})
            for name, config in mixed_variants(model_type, sized).items():
                theirs, ours = transformers_outcome(config), paramledger_outcome(config)
                if not agree(theirs, ours):
                    print(f"{model_type} [{name}, head {size}]: transformers {theirs[:160]} | paramledger {ours[:160]}",
                          flush=True)
    sys.exit(0)
sets: dict[str, set[str]] = {"NESTED_REFUSED": set(), "FLAT_REFUSED": set(), "EVERY_TYPE": set(), "BOTH": set()}
for model_type in types:
    try:
        drawn = [None, *examples(model_type, count)] if count else [None]
        configs = [(at, variants(model_type, base)) for at, base in enumerate(drawn)]
    except Exception as error:  # (a type whose configs cannot be drawn: said, not fatal)
        print(f"{model_type}: no variants ({type(error).__name__}: {error})"[:300], flush=True)
        continue
    for at, named in configs:
        built = {}
        for name, config in named.items():
            theirs, ours = transformers_outcome(config), paramledger_outcome(config)
            built[name] = theirs.startswith("builds ")
            if not agree(theirs, ours):
                print(f"{model_type} [{name}{f' #{at}' if at else ''}]: transformers {theirs[:160]!s} | "
                      f"paramledger {ours[:160]!s}", flush=True)
        if "typed as used" not in built:
            continue
        reader = _reader(named["flat"])[0] if model_type not in ("encoder-decoder", "vision-encoder-decoder") else (
            model_type)
        if built["flat"] and not built["typed as used"]:
            sets["NESTED_REFUSED"].add(reader)
        elif built["typed as used"] and not built["flat"]:
            sets["FLAT_REFUSED"].add(reader)
            if not all(ok for name, ok in built.items() if name.startswith("typed without")):
                sets["EVERY_TYPE"].add(reader)
        elif not built["flat"] and not built["typed as used"]:
            sets["BOTH"].add(reader)
for name, found in sets.items():
    print(name, sorted(found))
