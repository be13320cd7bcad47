"""Regenerate families/even_rotary.py's EVEN_ROTARY and DERIVED from transformers: each supported type's smallest
random config (tests/_family_configs.py) made with head_dim 5 given, and with hidden_size = 5 × num_attention_heads
and no head_dim; a type whose config transformers refuses with "RoPE requires an even rotary dimension" is listed
under the family whose table reads the config.

Run: cd tests && PYTHONPATH=../src:. python ../scripts/even_rotary_types.py
"""

from __future__ import annotations

import warnings

from paramledger import families

from test_even_rotary import _reader, _smallest, _transformers_refuses, _with

warnings.filterwarnings("ignore")

given, derived = set(), set()
for model_type in families.supported():
    config = _smallest(model_type)
    reader, nested = _reader(config)
    if _transformers_refuses(_with(config, nested, head_dim=5)):
        given.add(reader)
    section = config.get(nested, {}) if nested else config
    if "hidden_size" in section and "num_attention_heads" in section:
        wide = _with(config, nested, hidden_size=5 * section["num_attention_heads"])
        (wide[nested] if nested else wide).pop("head_dim", None)
        if _transformers_refuses(wide):
            derived.add(reader)
print("EVEN_ROTARY", sorted(given))
print("DERIVED", sorted(derived))
