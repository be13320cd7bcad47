"""Mamba, FalconMamba and Mamba-2: every layer one RMSNorm and one state-space mixer, no attention
and no FFN (transformers 5.24.0 modeling_mamba.py MambaBlock, modeling_falcon_mamba.py,
modeling_mamba2.py Mamba2Block)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ._family import Family, derived_from, same

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"

# backbone.embeddings, backbone.layers.{i}.norm and .mixer, backbone.norm_f, lm_head
NAMING = Naming(embed="backbone.embeddings", layer="backbone.layers.{i}", attn_pre_norm="norm", mamba="mixer",
                final_norm="backbone.norm_f", layer_order=("norm",))
KEYS = {**same("vocab_size", "hidden_size", "num_hidden_layers", "tie_word_embeddings", "hidden_act"),
        "state_size": "mamba_d_state", "conv_kernel": "mamba_d_conv", "expand": "mamba_expand",
        "use_bias": "mamba_proj_bias", "use_conv_bias": "mamba_conv_bias"}
# MambaConfig.__post_init__ sets intermediate_size = expand × hidden_size where the config gives none.
MAMBA_KEYS = {**KEYS, "intermediate_size": "mamba_intermediate_size"}
# No attention anywhere: the design's one required head count is a placeholder no tensor reads.
SWITCHES = {"num_attention_heads": 1, "norm_type": "rmsnorm", "norm_placement": "pre", "position_embedding_type":
            "none"}
NEUTRAL = frozenset({"residual_in_fp32", "time_step_scale", "time_step_min", "time_step_max", "time_step_init_scheme",
                     "time_step_floor", "rescale_prenorm_residual", "use_mambapy", "use_associative_scan",
                     "mixer_rms_eps", "time_step_limit", "chunk_size", "layer_norm_epsilon", "time_step_rank"})


def every_layer_mamba(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every layer is a Mamba block: a norm and a mixer, no FFN (MambaBlock, Mamba2Block)."""
    layers = tuple(range(config["num_hidden_layers"]))
    return {"mamba_layers": layers, "layers_without_ffn": layers}


def time_step_rank(config: Mapping[str, Any]) -> dict[str, Any]:
    """MambaConfig.__post_init__: time_step_rank "auto" is ceil(hidden_size / 16)."""
    rank = config.get("time_step_rank", "auto")
    return {"mamba_dt_rank": math.ceil(config["hidden_size"] / 16) if rank == "auto" else rank}


MAMBA = Family(
    model_type="mamba",
    causal_lm_class="MambaForCausalLM",
    source=TF.format("mamba"),
    naming=NAMING,
    keys=MAMBA_KEYS,
    defaults={"vocab_size": 50280, "hidden_size": 768, "state_size": 16, "num_hidden_layers": 32, "expand": 2,
              "conv_kernel": 4, "use_bias": False, "use_conv_bias": True, "hidden_act": "silu",
              "time_step_rank": "auto", "tie_word_embeddings": True},
    switches={**SWITCHES, "mamba_version": 1},
    count_neutral=NEUTRAL,
    derive=(every_layer_mamba, time_step_rank),
)


def mamba2_width(config: Mapping[str, Any]) -> dict[str, Any]:
    """Mamba2Mixer: the inner width is int(expand × hidden_size); Mamba2Config refuses a num_heads ×
    head_dim that differs from it (validate_architecture, configuration_mamba2.py lines 96-103), so head_dim changes
    no count."""
    heads, head_dim, width = config.get("num_heads"), config.get("head_dim"), config["hidden_size"] * config["expand"]
    if type(heads) is int and type(head_dim) is int and heads * head_dim != width:
        raise ArchitectureError("head_dim", f"{head_dim:,} × num_heads {heads:,} is not hidden_size × expand = "
                                f"{width:,} (Mamba2Config.validate_architecture refuses it)")
    return {"mamba_intermediate_size": int(width)}


FAMILIES = [
    MAMBA,
    # FalconMamba = Mamba except: RMS-normalizes B, C and dt inside the mixer with no learned weights
    # (rms_forward, mixer_rms_eps), so the same tensors.
    derived_from(MAMBA, model_type="falcon_mamba", causal_lm_class="FalconMambaForCausalLM",
                 source=TF.format("falcon_mamba"), naming=dataclasses.replace(NAMING, mamba_norm_buffers=True)),
    # Mamba-2 = Mamba except: heads with one time step each (dt_bias, A_log, D per head), B and C by
    # n_groups through the conv, a gated RMSNorm, no x_proj or dt_proj; untied by default.
    derived_from(MAMBA, model_type="mamba2", causal_lm_class="Mamba2ForCausalLM", source=TF.format("mamba2"),
                 keys={**KEYS, "num_heads": "mamba_n_heads", "n_groups": "mamba_n_groups"},
                 defaults={"vocab_size": 32768, "hidden_size": 4096, "state_size": 128, "num_hidden_layers": 64,
                           "expand": 2, "conv_kernel": 4, "n_groups": 8, "num_heads": 128, "head_dim": 64,
                           "use_bias": False, "use_conv_bias": True, "hidden_act": "silu",
                           "tie_word_embeddings": False},
                 switches={**SWITCHES, "mamba_version": 2},
                 count_neutral=NEUTRAL | {"head_dim"},
                 derive=(every_layer_mamba, mamba2_width)),
]
