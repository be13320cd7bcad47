"""Hybrids of Mamba and attention layers (transformers 5.24.0): Bamba and Granite 4.0-H (a Mamba-2 or an
attention mixer in each layer, then the FFN), Nemotron-H (each layer one norm and one of a Mamba-2,
attention, an MLP or experts), Jamba (Mamba-1 or attention by period, experts by period) and Falcon-H1
(a Mamba-2 beside the attention in every layer).  docs/notes/hybrids-a.md and hybrids-b.md have what
each class builds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, POSITION_BY_RULE, ROUTING_KEYS
from .granite import GRANITE_NEUTRAL

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
MAMBA_KEYS = same("mamba_n_heads", "mamba_n_groups", "mamba_d_state", "mamba_d_conv", "mamba_expand",
                  "mamba_conv_bias", "mamba_proj_bias")
MAMBA_DEFAULTS = {"mamba_n_heads": 128, "mamba_n_groups": 1, "mamba_d_state": 256, "mamba_d_conv": 4,
                  "mamba_expand": 2, "mamba_conv_bias": True, "mamba_proj_bias": False, "mamba_d_head": "auto"}
MAMBA_NEUTRAL = frozenset({"mamba_d_head", "mamba_chunk_size", "time_step_limit", "z_loss_coefficient",
                           "num_logits_to_keep"})
LINEAR = "linear_attention"


def _mamba_width(config: Mapping[str, Any], width_key: str | None = None) -> int:
    """BambaMixer: the inner width ``width_key``'s value (Falcon-H1's mamba_d_ssm) or int(mamba_expand ×
    hidden_size); the config classes refuse a mamba_d_head (other than "auto") whose heads do not fill it."""
    given = config.get(width_key) if width_key else None
    width = given or int(config["mamba_expand"] * config["hidden_size"])
    head = config.get("mamba_d_head", "auto")
    if head != "auto" and head * config["mamba_n_heads"] != width:
        raise ArchitectureError("mamba_d_head", f"{head} × mamba_n_heads={config['mamba_n_heads']} is not the "
                                f"Mamba width {width_key if given else 'mamba_expand × hidden_size'} = {width}")
    return width


def bamba_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """BambaConfig.layers_block_type: attention in attn_layer_indices (indices past the depth ignored),
    Mamba-2 everywhere else; None or [] is every layer Mamba."""
    attention = set(config.get("attn_layer_indices") or ())
    return {"mamba_layers": tuple(i for i in range(config["num_hidden_layers"]) if i not in attention),
            "mamba_intermediate_size": _mamba_width(config)}


def granite_hybrid_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """GraniteMoeHybridDecoderLayer: Mamba-2 where layer_types (or layers_block_type) says
    "linear_attention" (legacy "mamba"), attention for the other types; None is every layer Mamba.  The
    experts, when num_local_experts > 0, and the shared MLP run in every layer; without experts the
    shared MLP is the layer's one FFN."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types") or config.get("layers_block_type") or [LINEAR] * layers
    if not isinstance(types, (list, tuple)) or len(types) != layers:
        raise ArchitectureError("layer_types", f"must list one type for each of the {layers} layers, got "
                                f"{types!r}"[:200])
    out: dict[str, Any] = {"mamba_layers": tuple(i for i, kind in enumerate(types) if kind in (LINEAR, "mamba")),
                           "mamba_intermediate_size": _mamba_width(config), "layer_types": (),
                           "sliding_window": None}
    shared = config.get("shared_intermediate_size")
    if config.get("num_local_experts"):
        out["shared_expert_intermediate_size"] = shared or None
    else:  # dense: the shared MLP alone, and an expert width that means nothing
        out.update({"num_experts": 0, "num_experts_per_tok": 0, "intermediate_size": shared,
                    "moe_intermediate_size": None})
    return out


NEMOTRON_LETTERS = {"M": LINEAR, "E": "moe", "*": "full_attention", "-": "mlp"}
# NemotronHConfig.__post_init__ reads these older spellings first, over the current keys.
NEMOTRON_LEGACY = {"mamba_n_groups": "mamba_n_groups", "mamba_d_conv": "mamba_d_conv",
                   "mamba_conv_bias": "mamba_conv_bias"}


def nemotron_h_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """NemotronHConfig: layers_block_type (or layer_types) as given, else hybrid_override_pattern letter by
    letter (M Mamba-2, * attention, - MLP, E experts), else the class's four layers; the depth is the
    list's length.  Each layer holds one of the four and one norm; the Mamba width is mamba_num_heads ×
    mamba_head_dim.  tie_word_embeddings is never applied (_tied_weights_keys is empty)."""
    types = config.get("layers_block_type") or config.get("layer_types")
    if types is None:
        pattern = config.get("hybrid_override_pattern")
        if pattern is None:
            types = [LINEAR, "moe", "full_attention", "mlp"]
        elif not isinstance(pattern, str):
            raise ArchitectureError("hybrid_override_pattern", f"must be a string of M, *, - and E, got {pattern!r}"
                                    [:200])
        else:
            wrong = next((letter for letter in pattern if letter not in NEMOTRON_LETTERS), None)
            if wrong is not None:
                raise ArchitectureError("hybrid_override_pattern", f"{wrong!r} is not one of M, *, - or E "
                                        "(transformers 5.24.0 builds no layer for it)")
            types = [NEMOTRON_LETTERS[letter] for letter in pattern]
    legacy = {"mamba": LINEAR, "attention": "full_attention"}
    types = [legacy.get(kind, kind) for kind in types] if isinstance(types, (list, tuple)) else types
    if not isinstance(types, list) or not types or any(kind not in NEMOTRON_LETTERS.values() for kind in types):
        raise ArchitectureError("layers_block_type", f"must list linear_attention, full_attention, mlp or moe for "
                                f"each layer, got {types!r}"[:200])
    by = {kind: tuple(i for i, t in enumerate(types) if t == kind) for kind in NEMOTRON_LETTERS.values()}
    out: dict[str, Any] = {
        "num_hidden_layers": len(types), "mamba_layers": by[LINEAR], "mlp_only_layers": by["mlp"],
        "layers_without_ffn": by[LINEAR] + by["full_attention"], "layers_without_mixer": by["mlp"] + by["moe"],
        "mamba_intermediate_size": config["mamba_num_heads"] * config["mamba_head_dim"],
        "tie_word_embeddings": False,
    }
    out.update({field: config[key] for key, field in NEMOTRON_LEGACY.items() if key in config})
    if not by["moe"]:  # no expert layer: the experts' sizes build nothing
        out.update({"num_experts": 0, "num_experts_per_tok": 0, "mlp_only_layers": ()})
    return out


def jamba_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """JambaConfig: layer i is attention when i % attn_layer_period == attn_layer_offset, else Mamba-1;
    its FFN routed when i % expert_layer_period == expert_layer_offset and num_experts > 1 (one expert is a
    dense MLP); the config refuses an offset not below its period."""
    layers = config["num_hidden_layers"]
    periods = {}
    for kind in ("attn", "expert"):
        period, offset = config[f"{kind}_layer_period"], config[f"{kind}_layer_offset"]
        if not (type(period) is int and type(offset) is int and 0 <= offset < period):
            raise ArchitectureError(f"{kind}_layer_offset", f"{offset!r} must be a whole number below "
                                    f"{kind}_layer_period={period!r}")
        periods[kind] = (period, offset)
    (attn_period, attn_offset), (expert_period, expert_offset) = periods["attn"], periods["expert"]
    rank = config.get("mamba_dt_rank", "auto")
    out: dict[str, Any] = {
        "mamba_layers": tuple(i for i in range(layers) if i % attn_period != attn_offset),
        "mamba_dt_rank": -(-config["hidden_size"] // 16) if rank == "auto" else rank,
        "mlp_only_layers": tuple(i for i in range(layers) if i % expert_period != expert_offset),
    }
    if config.get("num_experts", 16) <= 1:  # JambaDecoderLayer: num_experts 1 builds JambaMLP
        out.update({"num_experts": 0, "num_experts_per_tok": 0, "mlp_only_layers": ()})
    return out


def falcon_h1_widths(config: Mapping[str, Any]) -> dict[str, Any]:
    """FalconH1Mixer: mamba_d_ssm wide (None: mamba_expand × hidden_size), which mamba_n_heads must divide
    and mamba_d_head (other than "auto") fill; out_proj biased by projectors_bias, in_proj by mamba_proj_bias."""
    return {"mamba_intermediate_size": _mamba_width(config, "mamba_d_ssm"),
            "mamba_out_proj_bias": bool(config.get("projectors_bias"))}


# Bamba: FFN first, then its two norms, then the mixer (BambaDecoderLayer registers feed_forward first).
BAMBA_NAMING = Naming(gate="feed_forward.gate_proj", up="feed_forward.up_proj", down="feed_forward.down_proj",
                      ffn_pre_norm="pre_ff_layernorm", final_norm="model.final_layernorm",
                      layer_order=("feed_forward", "input_layernorm", "pre_ff_layernorm"))
# Granite 4.0-H: both norms, the experts (router, then experts), the shared MLP, then the mixer; without
# experts the shared MLP is a fused gated FFN under the same names.
GRANITE_HYBRID_NAMING = Naming(
    layer_order=("input_layernorm", "post_attention_layernorm", "block_sparse_moe.router", "block_sparse_moe",
                 "shared_mlp"),
    router="block_sparse_moe.router", experts_gate_up="block_sparse_moe.experts.gate_up_proj",
    experts_down="block_sparse_moe.experts.down_proj", shared_expert_gate_up="shared_mlp.input_linear",
    shared_expert_down="shared_mlp.output_linear", gate_up="shared_mlp.input_linear", down="shared_mlp.output_linear")
# Nemotron-H: everything a layer holds is its "mixer"; the one norm first; the experts before their router.
NEMOTRON_NAMING = Naming(rotary=None, router_score_bias="mixer.gate.e_score_correction_bias",
    embed="model.embeddings", final_norm="model.norm_f", attn_pre_norm="norm", mamba="mixer",
    q="mixer.q_proj", k="mixer.k_proj", v="mixer.v_proj", o="mixer.o_proj", up="mixer.up_proj",
    down="mixer.down_proj", router="mixer.gate", experts_gate_up="mixer.experts.up_proj",
    experts_down="mixer.experts.down_proj", shared_expert="mixer.shared_experts",
    layer_order=("norm", "mixer.experts", "mixer.gate"))

# Jamba: the mixer, the FFN (router before experts), then both norms.
JAMBA_NAMING = Naming(gate="feed_forward.gate_proj", up="feed_forward.up_proj", down="feed_forward.down_proj",
                      router="feed_forward.router", experts_gate_up="feed_forward.experts.gate_up_proj",
                      experts_down="feed_forward.experts.down_proj", ffn_pre_norm="pre_ff_layernorm",
                      final_norm="model.final_layernorm")
# Falcon-H1: the FFN, the Mamba-2, the attention, then both norms.
FALCON_H1_NAMING = Naming(mamba_mup_vector=True,
                          gate="feed_forward.gate_proj", up="feed_forward.up_proj", down="feed_forward.down_proj",
                          ffn_pre_norm="pre_ff_layernorm", final_norm="model.final_layernorm",
                          layer_order=("feed_forward", "mamba", "self_attn", "input_layernorm", "pre_ff_layernorm"))
FALCON_H1_NEUTRAL = frozenset({
    "mamba_d_ssm", "mamba_d_head", "projectors_bias", "mamba_norm_before_gate", "mamba_chunk_size",
    "mamba_use_mlp", "embedding_multiplier", "lm_head_multiplier", "key_multiplier", "attention_in_multiplier",
    "attention_out_multiplier", "ssm_out_multiplier", "ssm_in_multiplier", "mlp_multipliers", "ssm_multipliers",
    "time_step_min", "time_step_max", "time_step_floor", "time_step_limit", "num_logits_to_keep",
    "layers_block_type", "mamba_rms_norm"})

def rope_only_if_said(config: Mapping[str, Any]) -> dict[str, Any]:
    """GraniteMoeHybridModel holds a rotary only where position_embedding_type is "rope" (else no position)."""
    return {"position_embedding_type": "rope" if config.get("position_embedding_type") == "rope" else "none"}


FAMILIES = [
    Family(
        model_type="jamba",
        causal_lm_class="JambaForCausalLM",
        source=TF.format("jamba"),
        naming=JAMBA_NAMING,
        keys={**DECODER_KEYS, **same("head_dim", "num_experts", "num_experts_per_tok", "mamba_d_state",
                                     "mamba_d_conv", "mamba_expand", "mamba_conv_bias", "mamba_proj_bias"),
              "num_local_experts": "num_experts"},
        defaults={"vocab_size": 65536, "tie_word_embeddings": False, "hidden_size": 4096, "intermediate_size": 14336,
                  "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 262144, "num_experts": 16, "num_experts_per_tok": 2,
                  "expert_layer_period": 2, "expert_layer_offset": 1, "attn_layer_period": 8, "attn_layer_offset": 4,
                  "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": "auto",
                  "mamba_conv_bias": True, "mamba_proj_bias": False},
        # Mamba-1 with learned RMSNorms on dt, B and C; no positions; q/k/v/o never biased.
        switches={**LLAMA_SWITCHES, "mamba_version": 1, "mamba_dt_norms": True, "position_embedding_type": "none"},
        count_neutral=(ROUTING_KEYS | {"attn_layer_period", "attn_layer_offset", "expert_layer_period",
                                       "expert_layer_offset", "mamba_dt_rank", "use_mamba_kernels", "use_mambapy",
                                       "use_associative_scan", "num_logits_to_keep", "layers_block_type"}),
        derive=(rules.no_sliding, jamba_layers),
    ),
    Family(
        model_type="falcon_h1",
        causal_lm_class="FalconH1ForCausalLM",
        source=TF.format("falcon_h1"),
        naming=FALCON_H1_NAMING,
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias"), **MAMBA_KEYS,
              "mamba_rms_norm": "mamba_gated_norm"},
        defaults={"vocab_size": 128000, "tie_word_embeddings": False, "hidden_size": 4096, "intermediate_size": 14336,
                  "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "hidden_act": "silu",
                  "max_position_embeddings": 8192, "mamba_d_ssm": 1024, "mamba_n_heads": 128, "mamba_d_head": "auto",
                  "mamba_n_groups": 1, "mamba_d_state": 256, "mamba_d_conv": 4, "mamba_expand": 2,
                  "mamba_conv_bias": True, "mamba_proj_bias": False, "mamba_rms_norm": False,
                  "projectors_bias": False, "attention_bias": False, "mlp_bias": False},
        # Every layer runs a Mamba-2 beside its attention; the multipliers are floats (mup_vector a buffer).
        switches={**LLAMA_SWITCHES, "mamba_beside_attention": True},
        count_neutral=FALCON_H1_NEUTRAL | MAMBA_NEUTRAL,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding, falcon_h1_widths),
    ),
    Family(
        model_type="bamba",
        causal_lm_class="BambaForCausalLM",
        source=TF.format("bamba"),
        naming=BAMBA_NAMING,
        # head_dim: BambaAttention reads getattr(config, "head_dim", hidden_size // num_attention_heads)
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias"), **MAMBA_KEYS},
        defaults={"partial_rotary_factor": 0.5, "vocab_size": 128000, "tie_word_embeddings": False, "hidden_size": 4096,
                  "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
                  "num_key_value_heads": 8, "hidden_act": "silu", "max_position_embeddings": 262144,
                  "attention_bias": False, "mlp_bias": False, "attn_layer_indices": None, **MAMBA_DEFAULTS},
        switches=LLAMA_SWITCHES,
        # attn_rotary_emb, mamba_dt_rank, use_mamba_kernels: in the released Bamba-9B config.json, read by no
        # transformers 5.24.0 bamba module (the rotary width comes from partial_rotary_factor)
        count_neutral=MAMBA_NEUTRAL | {"attn_layer_indices", "attn_rotary_emb", "mamba_dt_rank", "use_mamba_kernels"},
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding, bamba_layers),
    ),
    Family(
        model_type="granitemoehybrid",
        causal_lm_class="GraniteMoeHybridForCausalLM",
        source=TF.format("granitemoehybrid"),
        naming=GRANITE_HYBRID_NAMING,
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "num_experts_per_tok"), **MAMBA_KEYS,
              "num_local_experts": "num_experts", "intermediate_size": "moe_intermediate_size"},
        defaults={"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "num_local_experts": 8, "num_experts_per_tok": 2, "shared_intermediate_size": 1024,
                  "layer_types": None, **MAMBA_DEFAULTS},
        switches=POSITION_BY_RULE,
        count_neutral=(GRANITE_NEUTRAL | MAMBA_NEUTRAL
                       | {"shared_intermediate_size", "position_embedding_type", "normalization_function",
                          "layers_block_type"}),
        derive=(rules.output_bias_follows("attention_bias"), granite_hybrid_layers, rope_only_if_said),
    ),
    Family(
        model_type="nemotron_h",
        causal_lm_class="NemotronHForCausalLM",
        source=TF.format("nemotron_h"),
        naming=NEMOTRON_NAMING,
        keys={**same("vocab_size", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
                     "intermediate_size", "mlp_bias", "num_experts_per_tok", "moe_intermediate_size",
                     "moe_latent_size", "max_position_embeddings"),
              "mlp_hidden_act": "hidden_act", "ssm_state_size": "mamba_d_state", "mamba_num_heads": "mamba_n_heads",
              "n_groups": "mamba_n_groups", "conv_kernel": "mamba_d_conv", "use_conv_bias": "mamba_conv_bias",
              "use_bias": "mamba_proj_bias", "n_routed_experts": "num_experts",
              "moe_shared_expert_intermediate_size": "shared_expert_intermediate_size"},
        defaults={"vocab_size": 131072, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
                  "head_dim": 128, "intermediate_size": 21504, "mlp_hidden_act": "relu2", "mlp_bias": False,
                  "ssm_state_size": 128, "mamba_num_heads": 128, "mamba_head_dim": 64, "n_groups": 8,
                  "conv_kernel": 4, "use_conv_bias": True, "use_bias": False, "n_routed_experts": 8,
                  "moe_intermediate_size": 7688, "moe_shared_expert_intermediate_size": 7688,
                  "moe_latent_size": None, "num_experts_per_tok": 2, "max_position_embeddings": 4096},
        # Ungated FFNs (relu2), q/k/v/o never biased, one norm a layer.
        switches={"norm_type": "rmsnorm", "norm_placement": "pre", "position_embedding_type": "rope",
                  "mlp_gated": False},
        count_neutral=(ROUTING_KEYS | MAMBA_NEUTRAL | frozenset(NEMOTRON_LEGACY)
                       | {"layers_block_type", "hybrid_override_pattern", "mamba_head_dim", "num_hidden_layers",
                          "tie_word_embeddings", "attention_bias", "n_shared_experts", "expand", "mamba_expand",
                          "mamba_hidden_act", "mamba_proj_bias", "n_group", "topk_group", "routed_scaling_factor",
                          "moe_shared_expert_overlap", "num_nextn_predict_layers", "mtp_layers_block_type",
                          "mtp_hybrid_override_pattern", "chunk_size", "time_step_min", "time_step_max",
                          "time_step_floor", "mamba_dt_min", "mamba_dt_max", "mamba_dt_limit",
                          "mamba_dt_init_floor", "residual_in_fp32", "rescale_prenorm_residual",
                          "use_mamba_kernels", "num_logits_to_keep", "mamba_ssm_cache_dtype"}),
        derive=(rules.no_sliding, nemotron_h_layers),
    ),
]
