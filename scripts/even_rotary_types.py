"""Regenerate families/even_rotary.py's sets from transformers: each supported type's smallest random config
(tests/_family_configs.py), by the family whose table reads the config.

- EVEN_ROTARY: made with head_dim 5 given, refused with "RoPE requires an even rotary dimension";
- DERIVED: the same with hidden_size = 5 × num_attention_heads and no head_dim;
- GIVEN_ROPE (NO_ROPE_FIELD and AS_GIVEN): the head-size key (as the class spells it: T5's d_kv) 5 or 7, made without
  rope_parameters but refused with one given flat, or one entry per layer type the config uses, neither holding
  partial_rotary_factor; the classes that declare no rope_parameters field are NO_ROPE_FIELD, the others AS_GIVEN;
- TOP: the same, the whole model's text keys given at its top level (TOP_NO_ROPE_FIELD, by the whole's type).
Then every such config where paramledger disagrees (counts what transformers refuses, or refuses its head_dim where
transformers makes it).

Run: cd tests && PYTHONPATH=../src:. python ../scripts/even_rotary_types.py [--examples N] [model_type ...]
(--examples N: each type's first N random configs checked the same way, for disagreements only.)
"""

from __future__ import annotations

import logging
import sys
import warnings

from paramledger import families

from _rope_parity import FLAT, examples, layer_types, paramledger_outcome, sections, with_rope
from test_even_rotary import (_flat_text, _paramledger_refuses, _put, _reader, _smallest, _spelt, _transformers_refuses,
                              _with)

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)


given, derived, given_rope, top, disagree = set(), set(), set(), set(), []


def _odd(model_type: str, base: dict, found: set | None, said: str) -> None:
    """``base`` with its head-size key 5 and 7, rope_parameters given none, flat and one entry per layer type used:
    where transformers makes it without and refuses with one, ``found`` gains the type; every disagreement is said."""
    reader, _ = _reader(base)
    spelt, paths = _spelt(reader), sections(model_type, base)
    for odd in (5, 7):
        odd_config = base
        for path in paths:
            odd_config = _put(odd_config, path, spelt, odd)
        used = layer_types(odd_config, paths)
        forms = {"none": None, "flat": FLAT,
                 **({"typed as used": {kind: dict(FLAT) for kind in used}} if used else {})}
        made = _transformers_refuses(odd_config) is False
        for form, rope in forms.items():
            roped = odd_config if rope is None else with_rope(odd_config, paths, rope)
            refused = _transformers_refuses(roped)
            if found is not None and made and refused:
                found.add(model_type if found is top else reader)
            if refused is None:
                continue
            ours = paramledger_outcome(roped)
            if refused and ours.startswith("counts ") or not refused and _paramledger_refuses(roped):
                disagree.append(f"{model_type}{said} [{spelt}={odd}, {form}]: transformers "
                                f"{'refuses' if refused else 'makes'} | paramledger {ours[:120]}")


args = sys.argv[1:]
count = int(args[args.index("--examples") + 1]) if "--examples" in args else 0
for model_type in [arg for arg in args if not arg.isdigit() and arg != "--examples"] or families.supported():
    config = _smallest(model_type)
    reader, nested = _reader(config)
    if "." not in nested:
        if _transformers_refuses(_with(config, nested, head_dim=5)):
            given.add(reader)
        section = config.get(nested, {}) if nested else config
        if "hidden_size" in section and "num_attention_heads" in section:
            wide = _with(config, nested, hidden_size=5 * section["num_attention_heads"])
            (wide[nested] if nested else wide).pop("head_dim", None)
            if _transformers_refuses(wide):
                derived.add(reader)
    _odd(model_type, config, given_rope, "")
    if (flat := _flat_text(model_type, config)) is not None:
        _odd(model_type, flat, top, " (top)")
    for at, drawn in enumerate(examples(model_type, count) if count else [], 1):
        _odd(model_type, drawn, None, f" #{at}")
print("EVEN_ROTARY", sorted(given))
print("DERIVED", sorted(derived))
print("GIVEN_ROPE", sorted(given_rope))
print("TOP", sorted(top))
for line in disagree:
    print(line)
