"""Beam (Reflection AI; transformers 5.24.0 models/beam): AFMoE's attention and sandwich norms with a per-head bias
on the output gate (parts/gate_bias_attention.py), routed experts without shared ones, RoPE on the sliding layers
only (the full ones run without positions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..parts import MIXER_MODULES
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/beam/configuration_beam.py"


def beam_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """BeamConfig.__post_init__: layer_types (absent: sliding unless (i + 1) is a multiple of 6, the last layer
    full), mlp_layer_types (absent: the first min(3, layers) dense, the rest sparse); every layer's attention
    carries the gate bias (BeamDecoderLayer builds BeamAttention in each)."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if isinstance(types, (list, tuple)):
        sliding = [kind == rules.SLIDING for kind in types]
    else:
        sliding = [bool((i + 1) % 6) for i in range(layers)]
        sliding[-1] = False
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        kinds = ["dense"] * min(3, layers) + ["sparse"] * (layers - min(3, layers))
    return {"gate_bias_attention_layers": tuple(range(layers)),
            "mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
            **rules.layer_pattern(config.get("sliding_window"), sliding)}


# BeamRotaryEmbedding (modeling_beam.py lines 68-89) keeps one inv_freq pair per layer type whose rope_parameters
# are not None: the sliding layers' alone at the class default ({"full_attention": None}).
_SLIDING_ROTARY = tuple((f"model.rotary_emb.sliding_attention_{which}", ("rotary_half",), "float32", False,
                         "sliding_window") for which in ("inv_freq", "original_inv_freq"))

FAMILIES = [] if "gate_bias_attention" not in MIXER_MODULES else [
    # identical to afmoe (families/afmoe.py) except: a (heads,) gate_bias beside gate_proj (BeamAttention), no
    # shared experts, DeepSeek-V3's router (its e_score_correction_bias a buffer), Gemma's names for the four norms,
    # mlp_layer_types for the dense layers and a rotary for the sliding layers only (configuration_beam.py)
    Family(
        model_type="beam",
        causal_lm_class="BeamForCausalLM",
        source=TF,
        naming=Naming(ffn_pre_norm="pre_feedforward_layernorm", rotary=None, model_buffers=_SLIDING_ROTARY,
                      router_score_bias="mlp.gate.e_score_correction_bias",
                      layer_order=("self_attn.gate_bias", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                                   "self_attn.o_proj", "self_attn.q_norm", "self_attn.k_norm", "self_attn.gate_proj",
                                   "mlp.experts", "mlp")),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "num_experts",
                                     "num_experts_per_tok")},
        defaults={"vocab_size": 151936, "hidden_size": 5120, "intermediate_size": 20480, "num_hidden_layers": 52,
                  "num_attention_heads": 48, "num_key_value_heads": 8, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 8192, "tie_word_embeddings": False, "attention_bias": False,
                  "sliding_window": 512, "moe_intermediate_size": 2560, "num_experts_per_tok": 8,
                  "num_experts": 256, "layer_types": None, "mlp_layer_types": None},
        switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "qk_norm": "head",
                  "attention_output_gate": "per_channel"},
        # n_group, topk_group, routed_scaling_factor: routing; final_logit_softcapping: the logits
        count_neutral=ROUTING_KEYS | {"mlp_layer_types", "n_group", "topk_group", "routed_scaling_factor",
                                      "final_logit_softcapping"},
        derive=(rules.output_bias_follows("attention_bias"), beam_layers),
    ),
]
