"""Zyphra's Zamba and Zamba2 (transformers 5.24.0 modeling_zamba.py, modeling_zamba2.py; docs/notes/hybrids-b.md):
every layer a Mamba layer (one RMSNorm and a mixer, no FFN); a "hybrid" layer first runs a transformer block
shared with the other hybrid layers (attention over the hidden state beside the original embeddings, 2 ×
hidden_size wide, and a gated FFN), projects its output back through a linear of its own, and keeps its Mamba
layer under mamba_decoder.  The shared block's later uses alias the first's tensors only when
tie_word_embeddings is true: the sharing is declared as tied weights, which transformers drops with the head's
tying (get_expanded_tied_weights_keys), so untied every hybrid layer holds a copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ._family import Family, derived_from, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, POSITION_BY_RULE

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
HYBRID = "hybrid"


def _given(config: Mapping[str, Any], *keys: str) -> Any:
    """The value of whichever of ``keys`` comes last in the config (None: none given): keys that
    attribute_map sends to one attribute (head_dim -> attention_head_dim), set in the order given."""
    return next((config[key] for key in reversed(list(config)) if key in keys and config[key] is not None), None)


def _hybrid_layers(config: Mapping[str, Any], types: Any) -> dict[str, Any]:
    """One layer per entry of layers_block_type (the config refuses a list of another length than
    num_hidden_layers): each a Mamba layer, a "hybrid" one running the shared block too; the attention's
    head width attention_head_dim (head_dim; None: 2 × hidden_size // num_attention_heads)."""
    layers = config["num_hidden_layers"]
    if not isinstance(types, (list, tuple)) or len(types) != layers or not all(isinstance(t, str) for t in types):
        raise ArchitectureError("layers_block_type", f"must list \"mamba\" or \"hybrid\" for each of the {layers} "
                                f"layers (num_hidden_layers), got {types!r}"[:200])
    every = tuple(range(layers))
    head_dim = _given(config, "attention_head_dim", "head_dim")
    return {"mamba_layers": every, "layers_without_ffn": every,
            "shared_block_layers": tuple(i for i, kind in enumerate(types) if kind == HYBRID),
            "tie_shared_blocks": bool(config["tie_word_embeddings"]),
            "head_dim": head_dim or 2 * config["hidden_size"] // config["num_attention_heads"]}


def zamba_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """ZambaConfig: layers_block_type as given, else "mamba", "mamba", "hybrid", then "hybrid" for the
    i-th further layer where i % attn_layer_period == attn_layer_offset; mamba_dt_rank "auto" is
    ceil(hidden_size / 16); tied, ZambaModel ties every later hybrid's shared_transf to the first's."""
    types = _given(config, "layers_block_type", "layer_types")
    if types is None:
        period, offset = config["attn_layer_period"], config["attn_layer_offset"]
        types = ["mamba", "mamba", HYBRID] + [HYBRID if i % period == offset else "mamba"
                                              for i in range(config["num_hidden_layers"] - 3)]
    out = _hybrid_layers(config, types)
    if out["tie_shared_blocks"] and len(out["shared_block_layers"]) == 1:
        raise ArchitectureError("tie_word_embeddings", "true with a single hybrid layer: transformers 5.24.0 cannot "
                                "build it (the tie of later shared_transf blocks to the first matches none)")
    rank = config["mamba_dt_rank"]
    out["mamba_dt_rank"] = -(-config["hidden_size"] // 16) if rank == "auto" else rank
    return out


def zamba2_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Zamba2Config: layers_block_type as given, else the class's 54 layers (six hybrids of the first 43);
    intermediate_size None is 4 × hidden_size; add_bias_linear biases the FFN as it does the Mamba's
    projections.  Hybrid k runs block k % num_mem_blocks; without a hybrid layer nothing reads the block's
    keys.  A given layer_types or hybrid_layer_ids (which the adapter lists count) must name the same hybrids."""
    types = config.get("layers_block_type")
    if types is None:
        types = ["mamba"] + (["mamba"] * 5 + [HYBRID]) * 7 + ["mamba"] * 4 + [HYBRID] + ["mamba"] * 3 + [
            HYBRID] + ["mamba"] * 2
    hybrids = [i for i, kind in enumerate(types) if kind == HYBRID] if isinstance(types, (list, tuple)) else None
    # hybrid_layer_ids is made from layers_block_type before layer_types (the same attribute) is set
    for key in ("layer_types", "hybrid_layer_ids"):
        given = config.get(key)
        if given is not None and isinstance(given, (list, tuple)) and key == "layer_types":
            given = [i for i, kind in enumerate(given) if kind == HYBRID]
        if given is not None and given != hybrids:
            raise ArchitectureError(key, f"names other hybrid layers than layers_block_type ({hybrids}): "
                                    "transformers 5.24.0 would size the adapters for the one and build the other")
    out = _hybrid_layers(config, types)
    out["intermediate_size"] = config["intermediate_size"] or 4 * config["hidden_size"]
    out["mlp_bias"] = bool(config["add_bias_linear"])
    if not out["shared_block_layers"]:
        out.update({"num_mem_blocks": 1, "adapter_rank": None, "use_shared_attention_adapter": False,
                    "attention_hidden_size": None})
    return out


# The shared block's FFN is its feed_forward; norms input_layernorm (the Mamba layer's and the block's
# first) and pre_ff_layernorm; the Mamba mixer is "mamba".
ZAMBA_NAMING = Naming(gate="feed_forward.gate_proj", up="feed_forward.up_proj", down="feed_forward.down_proj",
                      ffn_pre_norm="pre_ff_layernorm", final_norm="model.final_layernorm", shared_block="shared_transf")
# Zamba2: a fused gate_up; the hybrid layer registers its linear and Mamba layer before the shared block.
ZAMBA2_NAMING = Naming(gate_up="feed_forward.gate_up_proj", down="feed_forward.down_proj",
                       ffn_pre_norm="pre_ff_layernorm", final_norm="model.final_layernorm",
                       layer_order=("linear", "mamba_decoder", "shared_transformer"))
NEUTRAL = frozenset({"layers_block_type", "attention_head_dim", "head_dim", "use_mamba_kernels", "time_step_min",
                     "time_step_max", "time_step_floor"})

ZAMBA = Family(
    model_type="zamba",
    causal_lm_class="ZambaForCausalLM",
    source=TF.format("zamba"),
    naming=ZAMBA_NAMING,
    keys={**DECODER_KEYS, **same("mamba_d_state", "mamba_d_conv", "mamba_expand", "mamba_conv_bias",
                                 "mamba_proj_bias", "attention_hidden_size"), "n_mamba_heads": "mamba_n_heads"},
    defaults={"vocab_size": 32000, "tie_word_embeddings": True, "hidden_size": 3712, "attention_hidden_size": None,
              "intermediate_size": 14848, "num_hidden_layers": 76, "num_attention_heads": 16,
              "attention_head_dim": None, "num_key_value_heads": 16, "n_mamba_heads": 2, "hidden_act": "gelu",
              "max_position_embeddings": 4096, "attn_layer_period": 6, "attn_layer_offset": 4,
              "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": "auto",
              "mamba_conv_bias": True, "mamba_proj_bias": False, "layers_block_type": None},
    # Mamba-1 split into n_mamba_heads heads; no positional encoding; the shared block's q/k/v/o and FFN unbiased.
    switches={**LLAMA_SWITCHES, "mamba_version": 1, "position_embedding_type": "none"},
    count_neutral=NEUTRAL | {"attn_layer_period", "attn_layer_offset", "mamba_dt_rank", "hidden_mamba_act",
                             "use_associative_scan"},
    derive=(zamba_layers,),
)

def mem_rope(config: Mapping[str, Any]) -> dict[str, Any]:
    """Zamba2's shared attention rotates q and k (a rotary of its own) only with use_mem_rope."""
    return {"position_embedding_type": "rope" if config.get("use_mem_rope") else "none"}


FAMILIES = [
    ZAMBA,
    # Zamba2 = Zamba except: Mamba-2 mixers (conv1d always biased, a gated norm), num_mem_blocks shared blocks
    # taken in turn, a fused gate_up, a LoRA adapter per use on it (and on q, k, v with
    # use_shared_attention_adapter), add_bias_linear on the FFN and the Mamba's projections.
    derived_from(ZAMBA, model_type="zamba2", causal_lm_class="Zamba2ForCausalLM", source=TF.format("zamba2"),
                 naming=ZAMBA2_NAMING,
                 keys={**DECODER_KEYS, **same("mamba_d_state", "mamba_d_conv", "mamba_expand", "attention_hidden_size",
                                              "num_mem_blocks", "adapter_rank", "use_shared_attention_adapter"),
                       "n_mamba_heads": "mamba_n_heads", "mamba_ngroups": "mamba_n_groups",
                       "add_bias_linear": "mamba_proj_bias"},
                 defaults={"vocab_size": 32000, "max_position_embeddings": 4096, "hidden_size": 2560,
                           "num_hidden_layers": 54, "layers_block_type": None, "mamba_d_state": 64, "mamba_d_conv": 4,
                           "mamba_expand": 2, "mamba_ngroups": 1, "n_mamba_heads": 8, "use_conv_bias": True,
                           "add_bias_linear": False, "intermediate_size": None, "hidden_act": "gelu",
                           "num_attention_heads": 32, "num_key_value_heads": None, "num_mem_blocks": 1,
                           "use_shared_attention_adapter": False, "adapter_rank": 128, "use_mem_rope": False,
                           "tie_word_embeddings": True},
                 switches={**POSITION_BY_RULE, "mamba_version": 2, "mamba_conv_bias": True, "mamba_gated_norm": True},
                 # use_mem_rope: a rotary (buffers only); the rest are derived values the class writes over
                 count_neutral=NEUTRAL | {"use_conv_bias", "use_mem_rope", "chunk_size", "use_long_context",
                                          "use_mem_eff_path", "hybrid_layer_ids", "kv_channels", "num_query_groups",
                                          "mamba_headdim"},
                 derive=(zamba2_layers, mem_rope)),
]
