"""Measure, per supported family, whether transformers builds a small config whose pad_token_id is outside the
vocabulary (nn.Embedding's "Padding_idx must be within num_embeddings").  Prints one JSON line per family.

Run: cd tests && PYTHONPATH=../src python ../scripts/measure_pad_token_id.py [model_type ...]
"""

from __future__ import annotations

import json
import sys
import warnings

from hypothesis import HealthCheck, given, settings

from paramledger import families
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


def builds(config, family):
    try:
        build_reference(config, text_config=family.text_decoder_only)
        return "ok"
    except Exception as error:  # noqa: BLE001 (what is measured)
        return str(error)[:160]


def counts(config):
    import paramledger
    try:
        paramledger.inventory(paramledger.load(config))
        return "ok"
    except Exception as error:  # noqa: BLE001
        return str(error)[:160]


def measure(model_type):
    family = families.get(model_type)
    config = example(model_type)
    cfg = hf_config(config)
    text = cfg.get_text_config(decoder=True)
    vocab = getattr(text, "vocab_size", None) or getattr(cfg, "vocab_size", None)
    row = {"model_type": model_type, "vocab": vocab, "base": builds(config, family)}
    places = ["top"] + (["text_config"] if "text_config" in config or family.text_config else [])
    for place in places:
        for label, value in (("V-1", vocab - 1), ("V", vocab), ("-V", -vocab), ("-V-1", -vocab - 1)):
            if place == "top":
                changed = {**config, "pad_token_id": value}
            else:
                changed = {**config, "text_config": {**config.get("text_config", {}), "pad_token_id": value}}
            row[f"{place}:{label}"] = builds(changed, family)
            row[f"{place}:{label}:paramledger"] = counts(changed)
    return row


if __name__ == "__main__":
    for model_type in sys.argv[1:] or families.supported():
        try:
            print(json.dumps(measure(model_type)), flush=True)
        except Exception as error:  # noqa: BLE001
            print(json.dumps({"model_type": model_type, "error": str(error)[:200]}), flush=True)
