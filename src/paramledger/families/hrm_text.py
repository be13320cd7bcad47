"""HRM-Text (transformers 5.24.0 models/hrm_text, sapientinc's HRM-Text-1B): two stacks of Llama-like layers run in
cycles, a low-level L_module and a high-level H_module, each num_layers_per_stack layers and a parameterless
final_norm (HrmTextStack, modeling_hrm_text.py lines 279-308).

Identical to Llama except (HrmTextModel, HrmTextAttention, HrmTextRMSNorm): every norm is parameterless; the
attention is multi-head whatever num_key_value_heads says (num_key_value_groups = 1), with a per-channel sigmoid
output gate, gate_proj, biased by attention_bias as q, k, v and o are (parts/biased_gate_attention.py); the layers
are named in two stacks, L_module's then H_module's (Naming.layer_stacks: the design holds both, in
named_parameters() order); the model holds z_L_init (hidden_size), the L stack's initial state, registered
requires_grad=False (frozen, and counted: it is in named_parameters() and the state dict), first in
named_parameters() (a module's own parameters before its children's); no model norm.

HrmTextModel.forward runs, for each of H_cycles, the L stack L_cycles times and then the H stack once, each run of a
layer caching its keys and values in a slot of its own (cycle_offset): L_module's layers run H_cycles × L_cycles
times a token, H_module's H_cycles times (layer_passes, parts/repeated.py), num_layers_per_stack × H_cycles ×
(L_cycles + 1) slots, the num_hidden_layers HrmTextConfig.__post_init__ rewrites."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_REPEAT, big
from ..naming import Naming
from ..parts import MIXER_MODULES
from . import _rules as rules
from ._family import Family, same
from ._tables import LLAMA_SWITCHES

TF = "transformers 5.24.0 models/hrm_text/configuration_hrm_text.py"
LOW, HIGH = "model.L_module.layers.{i}", "model.H_module.layers.{i}"  # HrmTextModel.L_module, then H_module

NAMING = Naming(layer=LOW, layer_stacks=(LOW, HIGH), model_vectors=("model.z_L_init",),
                model_order=("model.z_L_init", "model.embed_tokens", "model.L_module.layers", "lm_head"))


def hrm_stacks(config: Mapping[str, Any]) -> dict[str, Any]:
    """HrmTextConfig.__post_init__: num_layers_per_stack, or where it is None num_hidden_layers, is each stack's
    depth (a saved config carries both, num_hidden_layers then the cache's slots); both stacks in the design, L's
    first, each layer's runs a token from the cycles (HrmTextModel.forward)."""
    key = "num_layers_per_stack" if config.get("num_layers_per_stack") is not None else "num_hidden_layers"
    depth = rules.positive(key, config.get(key))
    if depth > MAX_REPEAT // 2:  # the layer lists are enumerated (docs/limits.md)
        raise ArchitectureError(key, f"gives {big(2 * depth)} layers in its two stacks, beyond the bound of "
                                f"{MAX_REPEAT:,} (docs/limits.md)")
    high, low = _cycles_of("H_cycles", config), _cycles_of("L_cycles", config)
    return {"num_hidden_layers": 2 * depth, "biased_gate_attention_layers": tuple(range(2 * depth)),
            "layer_passes": (high * low,) * depth + (high,) * depth}


def _cycles_of(key: str, config: Mapping[str, Any]) -> int:
    """H_cycles or L_cycles: a whole number, 0 or more (0 builds: a stack that never runs; transformers 5.24.0
    fails on a negative H_cycles, ``[1] * max(0, ...)`` then a negative num_hidden_layers)."""
    value = config.get(key)
    if type(value) is not int or value < 0:
        raise ArchitectureError(key, f"must be a whole number, 0 or more, got {value!r}"[:200])
    return value


def _cycles(arch: Any) -> str:
    return ("HRM-Text runs its L_module's layers H_cycles × L_cycles times a token and its H_module's H_cycles "
            "times (HrmTextModel.forward): its tensors are counted once, as held; the KV cache holds a slot per run "
            "and the FLOPs count every run")


FAMILIES = [] if "biased_gate_attention" not in MIXER_MODULES else [
    Family(
        model_type="hrm_text",
        causal_lm_class="HrmTextForCausalLM",
        source=TF,
        naming=NAMING,
        keys=same("vocab_size", "hidden_size", "intermediate_size", "num_attention_heads", "head_dim",
                  "max_position_embeddings", "tie_word_embeddings", "hidden_act", "attention_bias", "mlp_bias"),
        defaults={"vocab_size": 151808, "hidden_size": 1536, "intermediate_size": 4096, "num_hidden_layers": 16,
                  "num_attention_heads": 12, "hidden_act": "silu", "max_position_embeddings": 2048,
                  "tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False, "head_dim": 128,
                  "H_cycles": 2, "L_cycles": 3, "num_layers_per_stack": None},
        # HrmTextRMSNorm holds no weight; no model norm (each stack's final_norm is parameterless too)
        switches={**LLAMA_SWITCHES, "norm_type": "nonparametric", "final_norm": False,
                  "attention_output_gate": "per_channel", "frozen": ("model.z_L_init",)},
        # num_hidden_layers, num_layers_per_stack, H_cycles and L_cycles: read by the rule (no key is the depth
        # field's); num_key_value_heads: no HrmTextConfig field, read by nothing (the attention is multi-head);
        # L_bp_cycles (which cycles train), embedding_scale (a multiplier), prefix_lm (the mask): no tensor
        count_neutral=frozenset({"num_hidden_layers", "num_layers_per_stack", "H_cycles", "L_cycles",
                                 "num_key_value_heads", "L_bp_cycles", "embedding_scale", "prefix_lm"}),
        derive=(rules.no_sliding, rules.output_bias_follows("attention_bias"), hrm_stacks),
        explain=(_cycles,),
    ),
]
