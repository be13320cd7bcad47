"""Dory (NVIDIA Nemotron-Labs Dory): Gemma 2's sandwich block on the unit sphere (nGPT), AFMoE's per-channel output
gate (transformers 5.24.0 models/dory/modeling_dory.py).

Identical to AFMoE's dense attention and Gemma 2's sandwich layer except (DoryAttention, DoryMLP, DoryDecoderLayer,
DoryLMHead): every norm is DoryL2Norm, with no parameters (the four of the sandwich, q/k norms, the attention's and
the FFN's sub-norms, the final norm); the learned gains move into per-channel scales: sqk and s_gate (heads × head_dim)
on the attention, suv_gate and suv_up (intermediate_size) on the FFN (parts/ngpt_scales.py), lambda_1 and lambda_2
(hidden_size) on the layer (the residual's interpolation rates, registered on the layer first: Doge's residual
scales renamed) and logit_scale (vocab_size) on the head, its own even when the head's weight is tied (held apart
as a head's vector, after the weight).  gate_proj is never biased (attention_bias biases q, k, v and o).

The recurrent section (n_input_layers, n_recurrent_layers, n_output_layers, n_recurrent_loops) runs layers again
and changes no tensor; a released config.json lists each layer as an attention and an mlp block, num_hidden_layers
and the section sizes doubled (DoryConfig.__post_init__ halves them: dory_layers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES
from .layer_lists import VALIDATED, off_the_depth

# DoryDecoderLayer's own lambda_1, lambda_2 first, then self_attn (its sqk, s_gate, then q, k, v, o and gate_proj),
# then mlp (suv_gate, suv_up, then its projections); the norms hold nothing.  The head's weight, then logit_scale.
NAMING = Naming(attn_residual_scale="lambda_1", ffn_residual_scale="lambda_2", lm_head_bias="lm_head.logit_scale",
                lm_head_linear_bias=False, rotary_per_layer_type=True,
                layer_order=("lambda_1", "lambda_2", "self_attn.sqk", "self_attn.s_gate", "self_attn.q_proj",
                             "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "self_attn.gate_proj",
                             "mlp.suv_gate", "mlp.suv_up", "mlp"),
                model_order=("model.embed_tokens", "model.layers", "lm_head.weight", "lm_head.logit_scale"))


def _check_sections(layers: int, sections: list, loops: Any, halved: bool) -> None:
    """DoryConfig.validate_architecture (configuration_dory.py lines 123-127): the input, recurrent and output layers
    sum to num_hidden_layers (each halved with an "mlp" layer_types; the recurrent ones, null, the rest), and the
    recurrent section runs at least once; transformers 5.24.0 refuses the config otherwise."""
    if not all(type(count) is int for count in sections if count is not None) or type(sections[0]) is not int or (
            type(sections[2]) is not int):
        return  # (a count of another type is refused by the size checks or by transformers' @strict fields)
    given, recurrent, output = (count // 2 if halved and count is not None else count for count in sections)
    recurrent = layers - given - output if recurrent is None else recurrent
    if given + recurrent + output != layers:
        raise ArchitectureError("n_recurrent_layers", f"n_input_layers + n_recurrent_layers + n_output_layers is "
                                f"{given + recurrent + output}, not num_hidden_layers={layers}: transformers 5.24.0 "
                                "refuses it (DoryConfig.validate_architecture)")
    if type(loops) is int and loops < 1:
        raise ArchitectureError("n_recurrent_loops", f"must be at least 1, got {loops}: transformers 5.24.0 refuses "
                                "it (DoryConfig.validate_architecture)")


DORY_KINDS = ("full_attention", "sliding_attention")


def dory_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """DoryConfig.__post_init__: a layer_types listing "mlp" blocks (released configs) names each layer twice
    (attention, then mlp): every other entry, half the layers; absent, layer i is full when (i + 1) % 4 == 0."""
    layers, types = config["num_hidden_layers"], config.get("layer_types")
    sections = [config.get("n_input_layers", 8), config.get("n_recurrent_layers"), config.get("n_output_layers", 8)]
    halved = isinstance(types, (list, tuple)) and "mlp" in types
    if halved:
        types, layers = list(types[::2]), layers // 2
    _check_sections(layers, sections, config.get("n_recurrent_loops", 2), halved)
    if isinstance(types, (list, tuple)):  # (as PreTrainedConfig.validate_layer_type then holds the list it keeps)
        if len(types) != layers:
            raise off_the_depth("layer_types", len(types), layers, VALIDATED,
                                " (halved: an attention and an mlp entry a layer)" if halved else "")
        if (unknown := next((kind for kind in types if kind not in DORY_KINDS), None)) is not None:
            raise ArchitectureError("layer_types", f"{unknown!r}"[:80] + " is not full_attention or sliding_attention"
                                    ": transformers 5.24.0 cannot build it (DoryConfig gives each kind a rope_theta)")
    given = {"layer_types": types, "num_hidden_layers": layers}
    return {"num_hidden_layers": layers,
            **rules.sliding_every(None, 4)({**config, **given})}


def _recurrence(arch: Any) -> str:
    return ("Dory runs its recurrent section n_recurrent_loops times (DoryModel.forward): its tensors are counted "
            "once, as held; the KV cache and FLOPs here count each layer once, a pass of the layers")


FAMILIES = [
    Family(
        model_type="dory",
        causal_lm_class="DoryForCausalLM",
        source="transformers 5.24.0 models/dory/configuration_dory.py",
        naming=NAMING,
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias")},
        defaults={"vocab_size": 131072, "hidden_size": 2560, "intermediate_size": 7168, "num_hidden_layers": 36,
                  "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 256, "hidden_act": "silu",
                  "max_position_embeddings": 8192, "tie_word_embeddings": False, "attention_bias": False,
                  "mlp_bias": False, "sliding_window": 1024, "layer_types": None},
        switches={**LLAMA_SWITCHES, "norm_type": "nonparametric", "norm_placement": "sandwich", "qk_norm": "head",
                  "attn_sub_norm": True, "ffn_sub_norm": True, "attention_output_gate": "per_channel",
                  "residual_scales": True, "ngpt_scales_beside_attention": True, "lm_head_bias": True},
        # the recurrent section and its cache mode run layers again (KV cache, FLOPs), never add a tensor
        count_neutral=frozenset({"ngpt_alpha_init", "n_input_layers", "n_recurrent_layers", "n_output_layers",
                                 "n_recurrent_loops", "recurrent_kv_cache_mode"}),
        derive=(rules.output_bias_follows("attention_bias"), dory_layers),
        explain=(_recurrence,),
    ),
]
