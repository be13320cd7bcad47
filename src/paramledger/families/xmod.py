"""X-MOD (transformers 5.24.0 models/xmod; XmodForCausalLM, the class the mapping registers, holds XmodForMaskedLM's
tensors): RoBERTa (families/roberta.py) with language adapters in every layer's output
(parts/language_adapters.py).

Identical to roberta except (configuration_xmod.py, modeling_xmod.py lines 397-430, 537-575): XmodOutput's
adapter_modules, one per language of `languages` (hidden -> hidden // adapter_reduction_factor -> hidden, biased),
after output.LayerNorm, with adapter_layer_norm's own LayerNorm before them; pre_norm adds the encoder's LayerNorm
(roberta.encoder.LayerNorm) after the layers, the layers' tensors unchanged (the same LayerNorms, read before their
sublayers); XmodConfig's defaults (BERT's vocabulary, one language: en_XX)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .bert import reading_cross_attention
from .roberta import ROBERTA


def adapters(config: Mapping[str, Any]) -> dict[str, Any]:
    """XmodOutput.adapter_modules: an nn.ModuleDict keyed by str(language), in the list's order (a repeated
    language keeps its first place); XmodEncoder's LayerNorm with pre_norm."""
    languages = tuple(dict.fromkeys(str(language) for language in config.get("languages") or ()))
    factor = config["adapter_reduction_factor"]
    if not isinstance(factor, int) or isinstance(factor, bool) or factor < 1:
        raise ArchitectureError("adapter_reduction_factor", f"{factor!r} is not a positive integer")
    width = config["hidden_size"] // factor
    if languages and width < 1:
        raise ArchitectureError("adapter_reduction_factor", f"{factor} leaves no bottleneck of hidden_size="
                                f"{config['hidden_size']} (paramledger counts only a positive width)")
    return {"adapter_languages": languages, "adapter_size": width if languages else None,
            "adapter_layer_norm": bool(config.get("adapter_layer_norm")), "final_norm": bool(config.get("pre_norm"))}


XMOD = derived_from(
    ROBERTA, model_type="xmod", causal_lm_class="XmodForCausalLM",
    source="transformers 5.24.0 models/xmod/configuration_xmod.py",
    naming=dataclasses.replace(
        ROBERTA.naming, final_norm="roberta.encoder.LayerNorm",
        layer_order=("attention", "crossattention", "intermediate", "output.dense", "output.LayerNorm",
                     "output.adapter_layer_norm", "output.adapter_modules")),
    defaults={**ROBERTA.defaults, "vocab_size": 30522, "adapter_reduction_factor": 2, "adapter_layer_norm": False,
              "languages": ["en_XX"], "pre_norm": False},
    switches={key: value for key, value in ROBERTA.switches.items() if key != "final_norm"},
    # languages, adapter_reduction_factor, adapter_layer_norm and pre_norm are read by adapters(); the others
    # choose where a LayerNorm is read, or which adapter runs
    count_neutral=ROBERTA.count_neutral | {"languages", "adapter_reduction_factor", "adapter_layer_norm", "pre_norm",
                                           "adapter_reuse_layer_norm", "ln_before_adapter", "default_language"},
    derive=(*ROBERTA.derive, adapters))

FAMILIES = [reading_cross_attention(XMOD)]  # XmodLayer's crossattention is BERT's, under BERT's names
