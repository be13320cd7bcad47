"""Gemma 4 unified (google/gemma-4-12B-it's text decoder): Gemma 4's text decoder without per-layer inputs and
without the MoE block (transformers 5.24.0 models/gemma4_unified/modular_gemma4_unified.py).

Identical to gemma4_text (families/gemma4.py) except (Gemma4UnifiedTextConfig, Gemma4UnifiedTextDecoderLayer):
vocab_size_per_layer_input, hidden_size_per_layer_input, enable_moe_block, num_experts, top_k_experts and
moe_intermediate_size are not fields (the config sets them to AttributeError(): the layer is Gemma 2's sandwich with
Gemma 4's attention and FFN, layer_scalar kept); sliding_window defaults to 1024, max_position_embeddings to 262144,
use_bidirectional_attention to "vision"; and shared KV layers run without per-layer inputs (Gemma4UnifiedTextModel's
own forward), so gemma4_text's refusal of them is not this family's.  Measured identical, tensor by tensor and buffer
by buffer, to Gemma4ForCausalLM with hidden_size_per_layer_input 0 on the same keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import _rules as rules
from ._family import derived_from
from .gemma4 import DEFAULTS, KEYS, NEUTRAL, gemma4_layers
from .gemma4 import FAMILIES as GEMMA4

_GONE = ("vocab_size_per_layer_input", "hidden_size_per_layer_input", "enable_moe_block", "num_experts",
         "top_k_experts", "moe_intermediate_size")


def unified_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """gemma4_layers without per-layer inputs or experts, the KV-sharing layers allowed without them
    (Gemma4TextMLP: twice as wide there with use_double_wide_mlp)."""
    shared = config.get("num_kv_shared_layers") or 0
    out = gemma4_layers({**{key: value for key, value in config.items() if key not in _GONE},
                         "num_kv_shared_layers": 0})
    if config.get("use_double_wide_mlp") and shared:
        layers, width = config["num_hidden_layers"], config["intermediate_size"]
        out["intermediate_size_per_layer"] = tuple(2 * width if i >= layers - shared else width
                                                   for i in range(layers))
    return out


_TEXT = GEMMA4[0]
FAMILIES = [
    derived_from(
        _TEXT,
        model_type="gemma4_unified_text",
        causal_lm_class="Gemma4UnifiedForCausalLM",
        source="transformers 5.24.0 models/gemma4_unified/configuration_gemma4_unified.py (Gemma4UnifiedTextConfig)",
        keys={key: field for key, field in KEYS.items() if key not in _GONE},
        defaults={**{key: value for key, value in DEFAULTS.items() if key not in _GONE},
                  "sliding_window": 1024, "max_position_embeddings": 262_144, "use_bidirectional_attention": "vision"},
        count_neutral=NEUTRAL - set(_GONE),
        derive=(rules.output_bias_follows("attention_bias"), unified_layers),
    ),
]
