"""Gemma 3n (E2B, E4B): Gemma 3's sandwich norms and q/k norms (its v_norm has no scale, no
parameters), plus per-layer FFN widths, keys and values shared by the last layers
(num_kv_shared_layers), per-layer inputs, AltUp and LAuReL (modeling_gemma3n.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS
from .gemma import EMBED_SCALE, GEMMA3_SWITCHES, SANDWICH

KEYS = {**{k: v for k, v in DECODER_KEYS.items() if k not in ("hidden_act", "intermediate_size")},
        "hidden_activation": "hidden_act",
        **same("head_dim", "attention_bias", "num_kv_shared_layers", "hidden_size_per_layer_input",
               "vocab_size_per_layer_input", "altup_num_inputs", "laurel_rank")}
DEFAULTS = {  # transformers 5.24.0 models/gemma3n/configuration_gemma3n.py (Gemma3nTextConfig)
    "vocab_size": 262_400, "hidden_size": 2048, "intermediate_size": 16_384, "num_hidden_layers": 35,
    "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 32_768, "tie_word_embeddings": True, "attention_bias": False, "sliding_window": 512,
    "vocab_size_per_layer_input": 262_144, "hidden_size_per_layer_input": 256, "altup_num_inputs": 4,
    "num_kv_shared_layers": 15, "laurel_rank": 64,
}
# Only steer the forward pass: which stream AltUp corrects, coefficient clipping and scaling,
# top-k activation sparsity per layer.
NEUTRAL = frozenset({"altup_active_idx", "altup_coef_clip", "altup_correct_scale", "activation_sparsity_pattern",
                     "intermediate_size"})  # intermediate_size: read by ffn_widths


def ffn_widths(config: Mapping[str, Any]) -> dict[str, Any]:
    """intermediate_size: one width for every layer, or a list with one per layer (Gemma3nTextConfig)."""
    widths = config["intermediate_size"]
    if isinstance(widths, (list, tuple)):
        if len(widths) != config["num_hidden_layers"]:
            raise ArchitectureError("intermediate_size", f"has {len(widths)} widths for num_hidden_layers="
                                    f"{config['num_hidden_layers']} (one per layer, or one number for all)")
        if len(set(widths)) == 1:
            return {"intermediate_size": widths[0], "intermediate_size_per_layer": ()}
        return {"intermediate_size": None, "intermediate_size_per_layer": tuple(widths)}
    return {"intermediate_size": widths, "intermediate_size_per_layer": ()}


def built_whatever(config: Mapping[str, Any]) -> dict[str, Any]:
    """Gemma3nTextDecoderLayer builds AltUp and LAuReL whatever their sizes (modeling_gemma3n.py lines 927-928,
    992-994: empty Linears beside their norms at 0, which paramledger does not count), and
    Gemma3nTextConfig.kv_sharing_modes (configuration_gemma3n.py lines 212-221) needs an unshared layer of every
    layer type (transformers' ValueError, where every layer is shared)."""
    for key in ("altup_num_inputs", "laurel_rank"):
        if config.get(key) == 0:
            raise ArchitectureError(key, "0 is not counted: Gemma3nTextDecoderLayer builds it whatever its size "
                                         "(empty Linears beside its norm)")
    shared, layers = config.get("num_kv_shared_layers"), config["num_hidden_layers"]
    if type(shared) is int and type(layers) is int and shared >= layers > 0:
        raise ArchitectureError("num_kv_shared_layers", f"{shared} shares every layer's keys and values: "
                                "transformers 5.24.0 cannot build it (Gemma3nTextConfig.kv_sharing_modes needs an "
                                "unshared layer of each type to produce them)")
    return {}


def sparsity_per_layer(config: Mapping[str, Any]) -> dict[str, Any]:
    """activation_sparsity_pattern (it sizes nothing): Gemma3nTextConfig.__post_init__ (configuration_gemma3n.py lines
    151-155) takes len() of a given one and refuses any length but num_hidden_layers (a number has none)."""
    pattern, layers = config.get("activation_sparsity_pattern"), config["num_hidden_layers"]
    if pattern is not None and not (isinstance(pattern, (list, tuple)) and len(pattern) == layers):
        raise ArchitectureError("activation_sparsity_pattern", f"must list one value for each of the {layers} layers, "
                                f"got {pattern!r}"[:200] + " (transformers 5.24.0 refuses another)")
    return {}


RULES = (rules.output_bias_follows("attention_bias"), rules.sliding_every(None, 5, True), ffn_widths,
         built_whatever, sparsity_per_layer)
SOURCE = "transformers 5.24.0 models/gemma3n/configuration_gemma3n.py"

# Gemma3nTextAttention registers q_norm after q_proj and k_norm after v_proj; Gemma3nTextModel registers the
# per-layer inputs' and AltUp's model-level modules after the layers and the final norm.
# Gemma3n's 0-D buffers (the tables' embed_scale, the per-layer inputs' scales, AltUp's router_input_scale)
BUFFERS = (*EMBED_SCALE, ("model.embed_tokens_per_layer.embed_scale", (), None, False, "hidden_size_per_layer_input"),
           ("model.per_layer_projection_scale", (), None, False, "hidden_size_per_layer_input"),
           ("model.per_layer_input_scale", (), None, False, "hidden_size_per_layer_input"),
           ("{layer}altup.router_input_scale", (), None, False, "altup_num_inputs"))
NAMING = dataclasses.replace(
    SANDWICH, model_buffers=BUFFERS, rotary_per_layer_type=True,
    layer_order=("self_attn.q_proj", "self_attn.q_norm", "self_attn.k_proj", "self_attn.v_proj", "self_attn.k_norm"),
    model_order=("model.embed_tokens", "model.layers", "model.norm", "model.embed_tokens_per_layer",
                 "model.per_layer_model_projection", "model.per_layer_projection_norm", "model.altup_projections",
                 "model.altup_unembed_projections"))

FAMILIES = [
    Family(
        model_type="gemma3n_text",
        causal_lm_class="Gemma3nForCausalLM",
        source=SOURCE + " (Gemma3nTextConfig)",
        naming=NAMING,
        keys=KEYS,
        defaults=DEFAULTS,
        switches=GEMMA3_SWITCHES,
        count_neutral=NEUTRAL,
        derive=RULES,
    ),
]
FAMILIES.append(multimodal(FAMILIES[0], "gemma3n", SOURCE + " (Gemma3nConfig.text_config)"))
