"""DeepSeek-V4 (transformers 5.24.0 models/deepseek_v4): DeepSeek-V3's routed and shared experts and HY-V4's
hyper-connections and hc_head, around another attention: shared-KV multi-query attention whose layers compress
their context by layer type (parts/shared_kv_attention.py: sliding, CSA with its lightning indexer, HCA), the first
num_hash_layers layers routed by a frozen token -> expert table (tid2eid).

It differs from deepseek_v3 (families/deepseek.py) in: the attention (above), no dense layers, one shared expert of
moe_intermediate_size whatever n_shared_experts says (DeepseekV4MLP reads config.intermediate_size, an alias of it),
mlp_bias on that shared expert, the router registered before the experts, the router's buffer by mlp_layer_types,
two hyper-connections in every layer and hc_head after the final norm, and the rotary pairs named by rope type
("main", "compress") in the model and in every compressor and indexer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ..parts.shared_kv_attention import CSA, HCA, SLIDING
from ._family import Family, same
from ._tables import LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/deepseek_v4/configuration_deepseek_v4.py"
TYPES = (SLIDING, CSA, HCA)
MLP_TYPES = ("hash_moe", "moe")
RATIO_TYPES = {0: SLIDING, 4: CSA, 128: HCA}  # _COMPRESS_RATIO_TO_LAYER_TYPE: the legacy compress_ratios
DEFAULT_RATES = {CSA: 4, HCA: 128}  # DeepseekV4Config.default_compress_rates

DEFAULTS = {"vocab_size": 129280, "hidden_size": 4096, "moe_intermediate_size": 2048, "num_hidden_layers": 43,
            "num_attention_heads": 64, "num_key_value_heads": 1, "head_dim": 512, "q_lora_rank": 1024,
            "num_experts_per_tok": 6, "n_routed_experts": 256, "n_shared_experts": 1, "max_position_embeddings": 1048576,
            "layer_types": None, "compress_rates": None, "hc_mult": 4, "mlp_layer_types": None, "sliding_window": 128,
            "o_groups": 8, "o_lora_rank": 1024, "index_n_heads": 64, "index_head_dim": 128, "index_topk": 512,
            "hidden_act": "silu", "tie_word_embeddings": False, "partial_rotary_factor": None, "mlp_bias": False}


def _listed(config: Mapping[str, Any], key: str, given: Any, allowed: tuple[str, ...], layers: int) -> list[str]:
    """A per-layer list as DeepseekV4Config keeps it: the first num_hidden_layers entries, each one of ``allowed``
    (validate_layer_type: a shorter list is refused)."""
    if not isinstance(given, (list, tuple)) or len(given) < layers or any(kind not in allowed
                                                                          for kind in given[:layers]):
        raise ArchitectureError(key, f"must list one of {', '.join(allowed)} for each of the {layers} layers, got "
                                f"{given!r}"[:300])
    return list(given[:layers])


def _layer_types(config: Mapping[str, Any], layers: int) -> list[str]:
    """DeepseekV4Config.__post_init__: layer_types, else the legacy compress_ratios (0, 4, 128 per layer), else two
    HCA layers then CSA and HCA in turn."""
    given = config.get("layer_types")
    if given is None and config.get("compress_ratios") is not None:
        ratios = config["compress_ratios"]
        if not isinstance(ratios, (list, tuple)) or any(ratio not in RATIO_TYPES for ratio in ratios):
            raise ArchitectureError("compress_ratios", f"must list 0, 4 or 128 for each layer (transformers maps "
                                    f"no other), got {ratios!r}"[:300])
        given = [RATIO_TYPES[ratio] for ratio in ratios]
        key = "compress_ratios"
    else:
        key = "layer_types"
    if given is None:
        given = [HCA] * min(layers, 2) + [CSA if i % 2 else HCA for i in range(max(layers - 2, 0))]
    return _listed(config, key, given, TYPES, layers)


def _rates(config: Mapping[str, Any]) -> dict[str, Any]:
    """compress_rates (default CSA 4, HCA 128), the legacy compress_rate_csa and compress_rate_hca folded in."""
    given = config.get("compress_rates")
    if given is not None and not isinstance(given, Mapping):
        raise ArchitectureError("compress_rates", f"must map a layer type to its rate, got {given!r}"[:200])
    rates = dict(DEFAULT_RATES if given is None else given)
    for kind, legacy in ((CSA, "compress_rate_csa"), (HCA, "compress_rate_hca")):
        if config.get(legacy) is not None:
            rates[kind] = config[legacy]
    return rates


def _rotary_factor(config: Mapping[str, Any]) -> Any:
    """The share of head_dim each rotary turns: partial_rotary_factor, else the legacy qk_rope_head_dim / head_dim,
    else 64 / 512; a config nesting rope_parameters by rope type gives each its own (absent: 1.0,
    DeepseekV4RotaryEmbedding.compute_default_rope_parameters)."""
    nested = config.get("rope_parameters")
    if isinstance(nested, Mapping) and isinstance(nested.get("main"), Mapping) and isinstance(
            nested.get("compress"), Mapping):
        main, compress = (nested[kind].get("partial_rotary_factor", 1.0) for kind in ("main", "compress"))
        if main != compress:
            raise ArchitectureError("rope_parameters", f"the main and compress rotaries turn other shares of head_dim "
                                    f"({main!r}, {compress!r}): not counted yet (one width for both)"[:300])
        return main
    if config.get("partial_rotary_factor") is not None:
        return config["partial_rotary_factor"]
    rope, head_dim = config.get("qk_rope_head_dim"), config["head_dim"]
    return rope / head_dim if rope is not None else 64 / 512


def deepseek_v4_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Each layer's attention type and router (DeepseekV4Config.__post_init__), their rates and sizes, the window
    every layer keeps, the rotary share and the one shared expert."""
    layers = config["num_hidden_layers"]
    types = _layer_types(config, layers)
    kinds = config.get("mlp_layer_types")
    if kinds is None:  # the first num_hash_layers (3) hash-routed
        hashed = config.get("num_hash_layers", 3)
        if type(hashed) is not int or hashed < 0:
            raise ArchitectureError("num_hash_layers", f"must be a whole number from 0, got {hashed!r}"[:200])
        kinds = ["hash_moe"] * min(layers, hashed) + ["moe"] * max(0, layers - hashed)
    kinds = _listed(config, "mlp_layer_types", kinds, MLP_TYPES, layers)
    rates = _rates(config)
    for kind in (CSA, HCA):
        if kind in types and kind not in rates:
            raise ArchitectureError("compress_rates", f"gives no rate for the {kind} layers")
    window = config.get("sliding_window")
    if window is None:  # every layer keeps its window (DeepseekV4Config: an int)
        raise ArchitectureError("sliding_window", "must be set: every DeepSeek-V4 layer attends within its window")
    csa = tuple(i for i, kind in enumerate(types) if kind == CSA)
    hca = tuple(i for i, kind in enumerate(types) if kind == HCA)
    return {
        "shared_kv_attention_layers": tuple(range(layers)),
        "compressed_sparse_attention_layers": csa,
        "heavily_compressed_attention_layers": hca,
        "hash_moe_layers": tuple(i for i, kind in enumerate(kinds) if kind == "hash_moe"),
        "compress_rate_csa": rates[CSA] if csa else None,
        "compress_rate_hca": rates[HCA] if hca else None,
        # no CSA layer: no indexer at all (its sizes are then unread)
        **({} if csa else {"compressor_index_n_heads": None, "compressor_index_head_dim": None}),
        "sliding_window": window,
        "partial_rotary_factor": _rotary_factor(config),
        "num_key_value_heads": 1,  # one K = V head (kv_proj: head_dim wide), whatever the key says
        "n_shared_experts": 1,
        "shared_expert_intermediate_size": config["moe_intermediate_size"],
    }


def _rotary_half(arch: Any) -> int:
    """inv_freq's length: arange(0, int(head_dim × partial_rotary_factor), 2)."""
    return (int(arch.head_dim * arch.partial_rotary_factor) + 1) // 2


# DeepseekV4Model.rotary_emb: one pair per rope type (main, compress), non-persistent
ROTARY = tuple((f"model.rotary_emb.{kind}_{which}", (_rotary_half,), "float32", False)
               for kind in ("main", "compress") for which in ("inv_freq", "original_inv_freq"))

# DeepseekV4DecoderLayer registers self_attn, mlp, the two norms, then attn_hc and ffn_hc (under none of these)
NAMING = Naming(rotary=None, model_buffers=ROTARY, hyper_head="model.hc_head",
                layer_order=("self_attn", "mlp", "input_layernorm", "post_attention_layernorm"))

FAMILIES = [] if "shared_kv_attention" not in MIXER_MODULES else [
    Family(
        model_type="deepseek_v4",
        causal_lm_class="DeepseekV4ForCausalLM",
        naming=NAMING,
        source=TF,
        keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "head_dim",
                     "max_position_embeddings", "tie_word_embeddings", "hidden_act", "q_lora_rank",
                     "num_experts_per_tok", "moe_intermediate_size", "mlp_bias", "o_groups", "o_lora_rank",
                     "hc_mult"),
              # attribute_map: num_local_experts is n_routed_experts, intermediate_size moe_intermediate_size
              "n_routed_experts": "num_experts", "num_local_experts": "num_experts",
              "intermediate_size": "moe_intermediate_size",
              "index_n_heads": "compressor_index_n_heads", "index_head_dim": "compressor_index_head_dim"},
        defaults=DEFAULTS,
        switches=LLAMA_SWITCHES,
        # Read by deepseek_v4_layers: the types, rates, window and rotary share (and their legacy keys).
        # num_key_value_heads: one K = V head whatever it says; n_shared_experts: one shared expert whatever it
        # says; attention_bias: no attention Linear is biased; the rest numerics, routing or the MTP layer
        # DeepseekV4ForCausalLM does not build; expert_dtype moves into quantization_config.
        count_neutral=ROUTING_KEYS | {"num_key_value_heads", "n_shared_experts", "mlp_layer_types", "compress_rates",
                                      "compress_ratios", "compress_rate_csa", "compress_rate_hca", "num_hash_layers",
                                      "qk_rope_head_dim", "compress_rope_theta", "hc_sinkhorn_iters", "hc_eps",
                                      "swiglu_limit", "index_topk", "num_nextn_predict_layers", "attention_bias",
                                      "expert_dtype"},
        derive=(deepseek_v4_layers,),
    ),
]
