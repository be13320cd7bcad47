"""OLMo-Hybrid: Gated DeltaNet layers with q, k and v projected apart and Llama's pre-norms, beside OLMo 2's
attention layers (norms after each sublayer, q/k norms over every channel) (transformers 5.24.0
modeling_olmo_hybrid.py, configuration_olmo_hybrid.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, POSITION_BY_RULE

TF = "transformers 5.24.0 models/olmo_hybrid/configuration_olmo_hybrid.py"
LINEAR, FULL = "linear_attention", "full_attention"
LINEAR_ORDER = ("A_log", "dt_bias", "q_proj", "k_proj", "v_proj", "a_proj", "b_proj", "g_proj", "o_proj", "conv1d",
                "o_norm")
# OlmoHybridAttentionDecoderLayer: self_attn, mlp, post_attention_layernorm, post_feedforward_layernorm;
# OlmoHybridLinearAttentionDecoderLayer: mlp, input_layernorm, post_attention_layernorm, then linear_attn (its own
# A_log and dt_bias before its projections).
NAMING = Naming(linear_q="linear_attn.q_proj", linear_k="linear_attn.k_proj", linear_v="linear_attn.v_proj",
                linear_z="linear_attn.g_proj", linear_b="linear_attn.b_proj", linear_a="linear_attn.a_proj",
                linear_out="linear_attn.o_proj", linear_norm="linear_attn.o_norm",
                layer_order=("self_attn", "mlp", "input_layernorm", "post_attention_layernorm",
                             "post_feedforward_layernorm", *("linear_attn." + name for name in LINEAR_ORDER)))


def olmo_hybrid_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """OlmoHybridConfig.__post_init__: layer_types as given, else "full_attention" where i % 4 == 3 (the last layer
    when none is); the DeltaNet's heads default to num_attention_heads, its key heads' width to
    int(0.75 × hidden_size / linear_num_key_heads), its value heads' to twice that; num_key_value_heads to
    num_attention_heads.  The rotary exists only with a rope_theta (OlmoHybridModel: none in the releases)."""
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    types = config.get("layer_types")
    if types is None:
        types = [FULL if i % 4 == 3 else LINEAR for i in range(layers)]
        if FULL not in types:
            types[-1] = FULL
    if not isinstance(types, (list, tuple)) or len(types) != layers or not set(types) <= {LINEAR, FULL}:
        raise ArchitectureError("layer_types", f"must list linear_attention or full_attention for each of the "
                                f"{layers} layers, got {types!r}"[:200])
    given = {key: rules.positive(key, config[key]) for key in ("linear_num_key_heads", "linear_num_value_heads",
             "linear_key_head_dim", "linear_value_head_dim", "num_key_value_heads") if config.get(key) is not None}
    # (null: the class's default, OlmoHybridConfig.__post_init__ lines 131-140; 0 is no default, and builds
    # empty DeltaNet projections or divides by zero)
    key_heads = given.get("linear_num_key_heads", heads)
    key_dim = given.get("linear_key_head_dim") or int(0.75 * config["hidden_size"] / key_heads)
    rope = config.get("rope_parameters")
    rotates = not isinstance(rope, Mapping) or rope.get("rope_theta", 10000.0) is not None
    return {"linear_attention_layers": tuple(i for i, kind in enumerate(types) if kind == LINEAR),
            "linear_attention_norm_placement": "pre", "sliding_window": None, "layer_types": (),
            "num_key_value_heads": given.get("num_key_value_heads", heads),
            "linear_num_key_heads": key_heads, "linear_num_value_heads": given.get("linear_num_value_heads", heads),
            "linear_key_head_dim": key_dim, "linear_value_head_dim": given.get("linear_value_head_dim", 2 * key_dim),
            "position_embedding_type": "rope" if rotates else "none"}


FAMILIES = [
    Family(
        model_type="olmo_hybrid",
        causal_lm_class="OlmoHybridForCausalLM",
        source=TF,
        naming=NAMING,
        # head_dim: OlmoHybridAttention reads getattr(config, "head_dim", hidden_size // num_attention_heads)
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "linear_conv_kernel_dim")},
        defaults={"vocab_size": 100352, "hidden_size": 3840, "intermediate_size": 11008, "num_hidden_layers": 32,
                  "num_attention_heads": 30, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 65536, "tie_word_embeddings": False, "attention_bias": False,
                  "layer_types": None, "linear_num_key_heads": None, "linear_num_value_heads": None,
                  "linear_key_head_dim": None, "linear_value_head_dim": None, "linear_conv_kernel_dim": 4},
        switches={**POSITION_BY_RULE, "norm_placement": "post", "qk_norm": "full"},
        # read by olmo_hybrid_layers (the DeltaNet's sizes, filled as the config class fills them)
        count_neutral=frozenset({"linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                                 "linear_value_head_dim", "num_key_value_heads", "linear_a_log_min",
                                 "linear_a_log_max", "linear_dt_min", "linear_dt_max", "linear_dt_init_floor",
                                 "linear_allow_neg_eigval"}),
        derive=(rules.output_bias_follows("attention_bias"), olmo_hybrid_layers),
    ),
]
