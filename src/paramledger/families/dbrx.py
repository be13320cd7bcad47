"""DBRX (databricks/dbrx-base, dbrx-instruct): every layer MoE, GQA through one fused Wqkv,
bias-free LayerNorms, and its sizes nested in attn_config and ffn_config.  The experts are 2-D,
flattened on the first axis: w1 (gate) and v1 (up) (experts × ffn_hidden_size, d_model), and w2
(down) stored (experts × ffn_hidden_size, d_model) too (modeling_dbrx.py, DbrxExpertGLU)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same

# DbrxAttentionConfig and DbrxFFNConfig defaults (transformers 5.24.0 models/dbrx/configuration_dbrx.py).
ATTN_DEFAULTS = {"kv_n_heads": 1}
FFN_DEFAULTS = {"ffn_hidden_size": 3584, "moe_num_experts": 4, "moe_top_k": 1, "ffn_act_fn": None}


def _section(config: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    section = config.get(key)
    if section is None:  # the config class builds its default sub-config
        return {}
    if not isinstance(section, Mapping):
        raise ArchitectureError(key, f"must be a JSON object, got {section!r}")
    return section


def dbrx_sizes(config: Mapping[str, Any]) -> dict[str, Any]:
    """attn_config's kv_n_heads (DbrxConfig copies it to num_key_value_heads, whatever the config
    says there) and ffn_config's experts, top-k, their width and activation (DbrxFFNConfig); a tied
    head is refused, as DbrxConfig.validate_architecture refuses it, and so is a hidden_size other
    than d_model."""
    if config.get("tie_word_embeddings"):
        raise ArchitectureError("tie_word_embeddings", "DBRX's LM head is never tied (transformers 5.24.0's "
                                                       "DbrxConfig refuses it)")
    # DbrxConfig.__post_init__ hands d_model to the FFN before attribute_map applies hidden_size.
    if config["hidden_size"] != config["d_model"]:
        raise ArchitectureError("hidden_size", f"{config['hidden_size']} differs from d_model={config['d_model']}: "
                                "transformers 5.24.0 sizes DBRX's experts by d_model and the rest by hidden_size, "
                                "a model that cannot run (spell the width d_model)")
    attn = {**ATTN_DEFAULTS, **_section(config, "attn_config")}
    ffn = {**FFN_DEFAULTS, **_section(config, "ffn_config")}
    act = ffn["ffn_act_fn"] if ffn["ffn_act_fn"] is not None else {"name": "silu"}  # DbrxFFNConfig.__post_init__
    if not isinstance(act, Mapping):
        raise ArchitectureError("ffn_config.ffn_act_fn", f"must be a JSON object like {{\"name\": \"silu\"}}, "
                                                         f"got {act!r}")
    return {"num_key_value_heads": rules.positive("attn_config.kv_n_heads", attn["kv_n_heads"]),
            "moe_intermediate_size": rules.positive("ffn_config.ffn_hidden_size", ffn["ffn_hidden_size"]),
            "num_experts": rules.positive("ffn_config.moe_num_experts", ffn["moe_num_experts"]),
            "num_experts_per_tok": rules.positive("ffn_config.moe_top_k", ffn["moe_top_k"]),
            "hidden_act": str(act.get("name", "silu"))}


FAMILIES = [
    Family(
        model_type="dbrx",
        causal_lm_class="DbrxForCausalLM",
        source="transformers 5.24.0 models/dbrx/configuration_dbrx.py",
        naming=Naming(rotary="transformer.rotary_emb",
                      embed="transformer.wte", layer="transformer.blocks.{i}", qkv="norm_attn_norm.attn.Wqkv",
                      o="norm_attn_norm.attn.out_proj", attn_pre_norm="norm_attn_norm.norm_1",
                      ffn_pre_norm="norm_attn_norm.norm_2", router="ffn.router.layer",
                      experts_gate_up="ffn.experts.mlp.w1", experts_up="ffn.experts.mlp.v1",
                      experts_down="ffn.experts.mlp.w2", experts_flat=True, final_norm="transformer.norm_f",
                      layer_order=("norm_attn_norm.norm_1", "norm_attn_norm.attn", "norm_attn_norm.norm_2", "ffn")),
        # DbrxConfig.attribute_map: hidden_size, num_attention_heads, num_hidden_layers and
        # max_position_embeddings stand for d_model, n_heads, n_layers and max_seq_len.
        keys={"d_model": "hidden_size", "n_heads": "num_attention_heads", "n_layers": "num_hidden_layers",
              "max_seq_len": "max_position_embeddings",
              **same("vocab_size", "tie_word_embeddings", "hidden_size", "num_attention_heads", "num_hidden_layers",
                     "max_position_embeddings")},
        defaults={"d_model": 2048, "n_heads": 16, "n_layers": 24, "max_seq_len": 2048, "vocab_size": 32000,
                  "tie_word_embeddings": False, "attn_config": None, "ffn_config": None},
        # Wqkv, out_proj and the router carry no bias; norm_1, norm_2, norm_f are LayerNorm(bias=False).
        switches={"mlp_gated": True, "norm_type": "layernorm_nobias", "norm_placement": "pre",
                  "position_embedding_type": "rope"},
        # attn_config and ffn_config: read by dbrx_sizes (clip_qkv, rope_theta, attn_pdrop and the routing
        # keys in them change no count); num_key_value_heads: overwritten from attn_config.kv_n_heads.
        count_neutral=frozenset({"attn_config", "ffn_config", "num_key_value_heads", "emb_pdrop"}),
        # DbrxAttentionConfig's and DbrxFFNConfig's keys: dbrx_sizes reads the sizes, the rest are dropout,
        # clipping, rope and routing arithmetic (ffn_config's hidden_size is overwritten by d_model;
        # uniform_expert_assignment is an older config class's routing switch).
        sections={"attn_config": frozenset({"kv_n_heads", "attn_pdrop", "clip_qkv", "rope_theta"}),
                  "ffn_config": frozenset({"ffn_hidden_size", "moe_num_experts", "moe_top_k", "ffn_act_fn",
                                           "moe_jitter_eps", "moe_loss_weight", "moe_normalize_expert_weights",
                                           "hidden_size", "uniform_expert_assignment"})},
        derive=(dbrx_sizes, rules.no_sliding),
    ),
]
