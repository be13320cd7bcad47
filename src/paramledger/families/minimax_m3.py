"""MiniMax-M3's text decoder (transformers 5.24.0 models/minimax_m3_vl/modeling_minimax_m3_vl.py,
MiniMaxM3VLForCausalLM over MiniMaxM3VLTextConfig).

Identical to MiniMax-M2's Llama-style MoE block (q/k norms per head, a bare router weight beside its score correction
buffer) except (MiniMaxM3VLTextConfig, MiniMaxM3VLDecoderLayer): intermediate_size is the routed experts' width, the
dense layers' (mlp_layer_types "dense") is dense_intermediate_size and the shared expert's shared_intermediate_size,
both fused gate_up_proj MLPs; the layers layer_types calls "minimax_m3_sparse" hold a block indexer
(parts/block_indexed_attention.py); a config may give both patterns in the legacy form the class folds in
(sparse_attention_config's sparse_attention_freq and index sizes, moe_layer_freq).  rotary_dim and the SwiGLU
clamps change no tensor (the rotary's width is rope_parameters' partial_rotary_factor of head_dim)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

SPARSE = "minimax_m3_sparse"
# MiniMaxM3VLTextConfig.__post_init__: the legacy sparse_attention_config names of the indexer's sizes
_LEGACY_INDEX = {"sparse_num_index_heads": "block_index_heads", "sparse_index_dim": "block_index_head_dim"}


def _per_layer(config: Mapping[str, Any], key: str, legacy: Any, legacy_key: str, values: tuple[str, str],
               fallback: str) -> list:
    """``key``'s list, else one made from the legacy flags (``legacy``, named ``legacy_key``), else ``fallback`` on
    every layer; a made list one entry a layer, as validate_layer_type then holds it (a given one: layer_lists.py)."""
    given = config.get(key)
    if given is None and legacy is not None:
        if not isinstance(legacy, (list, tuple)) or len(legacy) != config["num_hidden_layers"]:
            raise ArchitectureError(legacy_key, f"must list one flag a layer, for num_hidden_layers="
                                    f"{config['num_hidden_layers']}, got {legacy!r}"[:200] + " (transformers 5.24.0 "
                                    f"refuses the {key} it makes: PreTrainedConfig.validate_layer_type)")
        given = [values[0] if flag else values[1] for flag in legacy]
    if given is None:
        given = [fallback] * config["num_hidden_layers"]
    if not isinstance(given, (list, tuple)):
        raise ArchitectureError(key, f"must be a list, one entry a layer, got {given!r}")
    return list(given)


def m3_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """MiniMaxM3VLTextConfig.__post_init__: layer_types (else sparse_attention_config's sparse_attention_freq, else
    every layer full) places the indexers, mlp_layer_types (else moe_layer_freq, else every layer sparse) the dense
    FFNs; sparse_attention_config's index sizes override index_n_heads and index_head_dim."""
    sparse_config = config.get("sparse_attention_config") or {}
    if not isinstance(sparse_config, Mapping):
        raise ArchitectureError("sparse_attention_config", f"must be an object, got {sparse_config!r}")
    attention = _per_layer(config, "layer_types", sparse_config.get("sparse_attention_freq"),
                           "sparse_attention_config.sparse_attention_freq", (SPARSE, "full_attention"),
                           "full_attention")
    mlp = _per_layer(config, "mlp_layer_types", config.get("moe_layer_freq"), "moe_layer_freq", ("sparse", "dense"),
                     "sparse")
    out = {field: sparse_config[legacy] for legacy, field in _LEGACY_INDEX.items() if legacy in sparse_config}
    return {**out, "block_indexer_layers": tuple(i for i, kind in enumerate(attention) if kind == SPARSE),
            "mlp_only_layers": tuple(i for i, kind in enumerate(mlp) if kind != "sparse")}


FAMILIES = [
    Family(
        model_type="minimax_m3_vl_text",
        causal_lm_class="MiniMaxM3VLForCausalLM",
        source="transformers 5.24.0 models/minimax_m3_vl/configuration_minimax_m3_vl.py (MiniMaxM3VLTextConfig)",
        naming=Naming(gate_up="mlp.gate_up_proj", shared_expert_gate_up="mlp.shared_experts.gate_up_proj",
                      shared_expert_down="mlp.shared_experts.down_proj",
                      router_score_bias="mlp.gate.e_score_correction_bias", router_score_bias_dtype=None),
        keys={**DECODER_KEYS, **same("head_dim", "num_experts_per_tok"), "intermediate_size": "moe_intermediate_size",
              "dense_intermediate_size": "intermediate_size",
              "shared_intermediate_size": "shared_expert_intermediate_size", "num_local_experts": "num_experts",
              "index_n_heads": "block_index_heads", "index_head_dim": "block_index_head_dim"},
        defaults={"vocab_size": 200064, "hidden_size": 6144, "intermediate_size": 3072, "num_hidden_layers": 60,
                  "num_attention_heads": 64, "num_key_value_heads": 4, "head_dim": 128, "hidden_act": "silu",
                  "max_position_embeddings": 524288, "tie_word_embeddings": False, "num_experts_per_tok": 4,
                  "num_local_experts": 128, "dense_intermediate_size": 12288, "shared_intermediate_size": 3072,
                  "index_n_heads": 4, "index_head_dim": 128, "layer_types": None, "mlp_layer_types": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head", "router_correction_bias": False},
        count_neutral=ROUTING_KEYS | {"routed_scaling_factor", "rotary_dim", "swiglu_alpha", "swiglu_limit",
                                      "index_block_size", "index_topk_blocks", "index_local_blocks", "mlp_layer_types",
                                      "sparse_attention_config", "moe_layer_freq"},
        derive=(m3_layers,),
    ),
]
