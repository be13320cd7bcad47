"""Liquid's LFM2 and LFM2-MoE: gated short-convolution layers beside attention layers with per-head q/k
norms, each with an FFN (transformers 5.24.0 modeling_lfm2.py, modeling_lfm2_moe.py; docs/notes/hybrids-b.md)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ._family import Family, derived_from, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
NAMING = Naming(o="self_attn.out_proj", q_norm="self_attn.q_layernorm", k_norm="self_attn.k_layernorm",
                gate="feed_forward.w1", up="feed_forward.w3", down="feed_forward.w2", attn_pre_norm="operator_norm",
                ffn_pre_norm="ffn_norm", final_norm="model.embedding_norm",  # the norm after the last layer
                router="feed_forward.gate", experts_gate_up="feed_forward.experts.gate_up_proj",
                experts_down="feed_forward.experts.down_proj",
                layer_order=("conv", "self_attn", "feed_forward.experts", "feed_forward"))
# Lfm2Config.__post_init__ pops the older spellings into the current keys.
LEGACY = {"tie_embedding": "tie_word_embeddings", "block_ff_dim": "intermediate_size"}
SWITCHES = {**LLAMA_SWITCHES, "qk_norm": "head"}


def _legacy(config: Mapping[str, Any]) -> dict[str, Any]:
    return {field: config[key] for key, field in LEGACY.items() if key in config}


def conv_layers(config: Mapping[str, Any], types: Any) -> dict[str, Any]:
    """A layer is the short conv where its type is "conv", attention for any other."""
    layers = config["num_hidden_layers"]
    if not isinstance(types, (list, tuple)) or len(types) != layers:
        raise ArchitectureError("layer_types", f"must list one type for each of the {layers} layers, got "
                                f"{types!r}"[:200])
    return {"conv_layers": tuple(i for i, kind in enumerate(types) if kind == "conv"), "layer_types": (),
            "sliding_window": None, **_legacy(config)}


def lfm2_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Lfm2Config: layer_types as given, else "full_attention" at full_attn_idxs and "conv" elsewhere; no
    full_attn_idxs: every layer attention.  Lfm2MLP's width: intermediate_size, or with
    block_auto_adjust_ff_dim int(2/3 of it) × block_ffn_dim_multiplier, rounded up to block_multiple_of."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if types is None:
        attention = config.get("full_attn_idxs")
        types = ["full_attention" if attention is None or i in attention else "conv" for i in range(layers)]
    out = conv_layers(config, types)
    width = out.get("intermediate_size", config["intermediate_size"])
    if config.get("block_auto_adjust_ff_dim", True):
        width = int(2 * width / 3)
        multiplier = config.get("block_ffn_dim_multiplier", 1.0)
        if multiplier is not None:
            width = int(multiplier * width)
        step = config.get("block_multiple_of", 256)
        width = step * math.ceil(width / step)
        if width < 1:  # transformers builds 0 × hidden matrices: no model a checkpoint could hold
            raise ArchitectureError("intermediate_size", f"{config['intermediate_size']} adjusts to an FFN width of "
                                    "0 (block_auto_adjust_ff_dim: int(2/3 of it) × block_ffn_dim_multiplier)")
    out["intermediate_size"] = width
    return out


def lfm2_moe_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Lfm2MoeConfig: layer_types as given (the class has no fallback: it cannot build without them); the
    first num_dense_layers layers run a dense FFN, the rest routed experts (expert_bias is a buffer)."""
    types = config.get("layer_types")
    if types is None:
        raise ArchitectureError("layer_types", "missing (required: transformers 5.24.0 cannot build this family "
                                "without it)")
    out = conv_layers(config, types)
    dense = config.get("num_dense_layers", 2)
    out["mlp_only_layers"] = tuple(range(min(dense, config["num_hidden_layers"])))
    return out


LFM2 = Family(
    model_type="lfm2",
    causal_lm_class="Lfm2ForCausalLM",
    source=TF.format("lfm2"),
    naming=NAMING,
    # head_dim: Lfm2Attention reads getattr(config, "head_dim", hidden_size // num_attention_heads)
    keys={**DECODER_KEYS, **same("head_dim", "conv_bias", "conv_L_cache")},
    defaults={"vocab_size": 65536, "hidden_size": 2560, "intermediate_size": 12288, "num_hidden_layers": 32,
              "num_attention_heads": 32, "num_key_value_heads": 8, "tie_word_embeddings": True,
              "max_position_embeddings": 128000, "conv_bias": False, "conv_L_cache": 3, "block_multiple_of": 256,
              "block_ffn_dim_multiplier": 1.0, "block_auto_adjust_ff_dim": True, "full_attn_idxs": None,
              "layer_types": None, "hidden_act": "silu"},
    switches=SWITCHES,
    count_neutral=frozenset({"block_multiple_of", "block_ffn_dim_multiplier", "block_auto_adjust_ff_dim",
                             "full_attn_idxs", "norm_eps", "conv_dim", "conv_dim_out", "conv_use_xavier_init",
                             "block_dim", "block_ff_dim", "block_mlp_init_scale", "block_out_init_scale",
                             "block_use_swiglu", "block_use_xavier_init", "block_norm_eps", "tie_embedding",
                             "num_heads", "theta", "use_pos_enc"}),  # use_pos_enc: the released configs' key, unread
    derive=(lfm2_layers,),
)

FAMILIES = [
    LFM2,
    # LFM2-MoE = LFM2 except: routed experts after num_dense_layers dense layers, no FFN width rule, and
    # layer_types required.
    derived_from(LFM2, model_type="lfm2_moe", causal_lm_class="Lfm2MoeForCausalLM", source=TF.format("lfm2_moe"),
                 naming=dataclasses.replace(NAMING, rotary="model.pos_emb",
                                            router_score_bias="feed_forward.expert_bias"),
                 keys={**LFM2.keys, **same("num_experts", "num_experts_per_tok", "moe_intermediate_size",
                                           "use_expert_bias")},
                 defaults={"vocab_size": 65536, "hidden_size": 2048, "intermediate_size": 7168,
                           "moe_intermediate_size": 1792, "num_hidden_layers": 32, "num_attention_heads": 32,
                           "num_key_value_heads": 8, "tie_word_embeddings": True, "max_position_embeddings": 128000,
                           "conv_bias": False, "conv_L_cache": 3, "num_dense_layers": 2, "num_experts": 32,
                           "num_experts_per_tok": 4, "layer_types": None, "hidden_act": "silu"},
                 count_neutral=(ROUTING_KEYS | {"num_dense_layers", "routed_scaling_factor",
                                                "norm_eps", "tie_embedding"}),
                 derive=(lfm2_moe_layers,)),
]
