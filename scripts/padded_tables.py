"""Regenerate families/padding_idx.py's PADDED from transformers: which families' tables are built with
padding_idx=pad_token_id, measured by building each supported type's smallest random config (tests/_family_configs.py)
on the meta device with pad_token_id = vocab_size (refused by nn.Embedding where a table pads at it), and the config
class's own pad_token_id.  Prints the entries; the rows of tables other than the token table are written by hand.

Run: cd tests && PYTHONPATH=../src:. python ../scripts/padded_tables.py
"""

from __future__ import annotations

import inspect
import sys
import warnings

import transformers
from hypothesis import HealthCheck, given, settings

from paramledger import families, hf_config as reading
from paramledger.reference import build_reference, hf_config

from _family_configs import CONFIGS

warnings.filterwarnings("ignore")


def example(model_type):
    found = []

    @settings(max_examples=1, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(CONFIGS[model_type])
    def take(config):
        found.append(config)
    take()
    return found[0]


def reader(config):
    """The family whose table reads config's pad_token_id, and where it is spelt."""
    seen = []
    original = reading.check_pad_token_id
    reading.check_pad_token_id = lambda family, merged, key, where: seen.append((family.model_type, key))
    try:
        reading.architecture_from_config(config)
    finally:
        reading.check_pad_token_id = original
    return seen[0]


def refused(config, family):
    try:
        build_reference(config, text_config=family.text_decoder_only)
    except Exception as error:  # noqa: BLE001
        return "Padding_idx" in str(error) or "out of bounds" in str(error)
    return False


def class_default(text_type):
    """The pad_token_id the config class gives when a config has none."""
    try:
        return transformers.AutoConfig.for_model(text_type).get_text_config(decoder=True).pad_token_id
    except Exception:  # noqa: BLE001 (a class whose defaults do not validate alone: its declared default)
        cls = transformers.models.auto.configuration_auto.CONFIG_MAPPING[text_type]
        print("# declared default read for", text_type, file=sys.stderr)
        return inspect.signature(cls).parameters["pad_token_id"].default if "pad_token_id" in inspect.signature(
            cls).parameters else getattr(cls, "pad_token_id", None)


padded = {}
for model_type in sys.argv[1:] or families.supported():
    family = families.get(model_type)
    config = example(model_type)
    text_type, key = reader(config)
    *path, _ = key.split(".")  # where the table's config sits: the top level, text_config, vlm_config.text_config
    section, cfg = config, hf_config(config)
    for name in path:
        section, cfg = section.get(name) or {}, getattr(cfg, name)
    if not hasattr(cfg, "vocab_size"):
        print(f"# skipped {model_type}: {'.'.join(path) or 'its config'} gives no vocab_size", file=sys.stderr)
        continue
    changed = {**section, "pad_token_id": cfg.vocab_size}
    for depth in range(len(path), 0, -1):  # written back level by level
        outer = config
        for name in path[:depth - 1]:
            outer = outer.get(name) or {}
        changed = {**outer, path[depth - 1]: changed}
    if refused(changed, family):
        default = class_default(text_type)
        if padded.setdefault(text_type, default) != default:
            print("# differing default", text_type, model_type, file=sys.stderr)
for text_type, default in sorted(padded.items()):
    print(f"    {text_type!r}: Padded({default!r}),")
