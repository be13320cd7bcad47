"""UltraBERT (transformers 5.24.0 models/ultrabert): Llama's stack (families/llama.py) run bidirectionally, two of
every three layers within a sliding window, and a bottleneck before the head. Only in the masked-LM mapping: the
reference is UltrabertForMaskedLM."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import _rules as rules
from ._family import derived_from
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA = LLAMA_FAMILIES[0]


def ultrabert_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """UltrabertConfig.__post_init__: layer i slides unless (i + 1) % 3 == 0, or as layer_types says; the window is
    sliding_window (a rotary per layer type either way)."""
    types = config.get("layer_types")
    sliding = ([kind == rules.SLIDING for kind in types] if isinstance(types, (list, tuple)) else
               [bool((i + 1) % 3) for i in range(config["num_hidden_layers"])])
    return rules.layer_pattern(config.get("sliding_window"), sliding, keep=True)


# identical to llama except: a rotary per layer type, the sliding layers by ultrabert_layers, the head
# UltrabertPredictionHead (head.linear1 hidden -> prediction_head_size and head.linear2 back, no biases, then
# head.decoder without a bias), the classifier's keys, which change no tensor, UltrabertConfig's defaults
# (configuration_ultrabert.py)
ULTRABERT = derived_from(
    LLAMA, model_type="ultrabert", causal_lm_class="UltrabertForMaskedLM",
    source="transformers 5.24.0 models/ultrabert/configuration_ultrabert.py",
    naming=dataclasses.replace(LLAMA.naming, lm_head="head.decoder", lm_head_in="head.linear1",
                               lm_head_out="head.linear2", rotary_per_layer_type=True),
    keys={**LLAMA.keys, "prediction_head_size": "prediction_head_size"},
    defaults={**LLAMA.defaults, "max_position_embeddings": 32768, "sliding_window": 128, "prediction_head_size": 768},
    count_neutral=LLAMA.count_neutral | {"classifier_pooling", "classifier_dropout"},
    derive=(rules.output_bias_follows("attention_bias"), ultrabert_layers))
MASKED_LM_ONLY = [ULTRABERT]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY
