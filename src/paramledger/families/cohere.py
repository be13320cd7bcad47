"""Cohere (Command R) and Cohere 2: one LayerNorm without bias feeding parallel attention and
FFN, tied embeddings; Cohere 2 adds three sliding layers to one global."""

from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
COHERE_SWITCHES = {**LLAMA_SWITCHES, "norm_type": "layernorm_nobias", "norm_placement": "parallel"}
COHERE_DEFAULTS = {"vocab_size": 256000, "hidden_size": 8192, "intermediate_size": 22528, "num_hidden_layers": 40,
                   "num_attention_heads": 64, "num_key_value_heads": None, "hidden_act": "silu",
                   "max_position_embeddings": 8192, "tie_word_embeddings": True, "attention_bias": False}

FAMILIES = [
    Family(
        model_type="cohere",
        causal_lm_class="CohereForCausalLM",
        source=TF.format("cohere"),
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias")},
        defaults={**COHERE_DEFAULTS, "use_qk_norm": False},
        switches=COHERE_SWITCHES,
        count_neutral=frozenset({"logit_scale", "use_qk_norm"}),
        # use_qk_norm (Command R+): CohereLayerNorm weights (heads, head_dim) on q, (kv_heads, head_dim) on k.
        derive=(rules.output_bias_follows("attention_bias"),
                lambda c: {"qk_norm": "per_head" if c.get("use_qk_norm") else "none"}, rules.no_sliding),
    ),
    Family(
        model_type="cohere2",
        causal_lm_class="Cohere2ForCausalLM",
        source=TF.format("cohere2"),
        # Cohere2Config sets head_dim = hidden_size // heads itself, unless the file gives one
        # (rules.head_dim_unless_given)
        keys={**DECODER_KEYS, **same("attention_bias")},
        defaults={**COHERE_DEFAULTS, "sliding_window": 4096},
        switches=COHERE_SWITCHES,
        count_neutral=frozenset({"logit_scale", "head_dim"}),
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_every("sliding_window_pattern", 4),
                rules.head_dim_unless_given),
    ),
]


def _cohere2_moe(config):
    """Cohere 2 MoE's dense prefix, its width and the sliding pattern (Cohere2MoeConfig.__post_init__).

    first_k_dense_replace (or mlp_layer_types) dense layers prefix_dense_intermediate_size wide
    (None: intermediate_size), every other layer routed (and shared) experts; sliding layers by
    prefix_dense_sliding_window_pattern over the dense prefix, sliding_window_pattern after it."""
    layers = config["num_hidden_layers"]
    k = config.get("first_k_dense_replace") or 0
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        kinds = ["dense" if i < k else "sparse" for i in range(layers)]
    types = config.get("layer_types")
    if isinstance(types, (list, tuple)):
        sliding = [t == rules.SLIDING for t in types]
    else:
        prefix = rules.positive("prefix_dense_sliding_window_pattern", config["prefix_dense_sliding_window_pattern"])
        rest = rules.positive("sliding_window_pattern", config["sliding_window_pattern"])
        sliding = [bool((i + 1) % prefix) for i in range(k)] + [bool((i + 1) % rest) for i in range(layers - k)]
    dense_width = config.get("prefix_dense_intermediate_size")
    return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
            "intermediate_size": dense_width if dense_width is not None else config["intermediate_size"],
            **rules.layer_pattern(config.get("sliding_window"), sliding)}


FAMILIES.append(
    Family(
        model_type="cohere2_moe",  # Cohere 2's parallel block with routed (and shared) experts after a dense prefix
        causal_lm_class="Cohere2MoeForCausalLM",
        source=TF.format("cohere2_moe"),
        # Routed experts are intermediate_size wide, the shared expert num_shared_experts times that;
        # the dense prefix is prefix_dense_intermediate_size wide (_cohere2_moe).  head_dim defaults to 128.
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "num_experts", "num_experts_per_tok"),
              "intermediate_size": "moe_intermediate_size", "num_shared_experts": "n_shared_experts"},
        defaults={**COHERE_DEFAULTS, "head_dim": 128, "sliding_window": 4096, "num_experts_per_tok": 2,
                  "num_experts": 8, "num_shared_experts": 0, "prefix_dense_sliding_window_pattern": 1,
                  "prefix_dense_intermediate_size": None, "sliding_window_pattern": 4, "mlp_layer_types": None,
                  "layer_types": None},
        # RMSNorm when rms_norm_eps is set, else a bias-free LayerNorm: one (hidden,) scale either way.
        switches=COHERE_SWITCHES,
        count_neutral=ROUTING_KEYS | {"logit_scale", "shared_expert_combination_strategy",
                                      "expert_selection_fn", "mlp_layer_types", "prefix_dense_sliding_window_pattern",
                                      "prefix_dense_intermediate_size", "first_k_dense_replace"},
        derive=(rules.output_bias_follows("attention_bias"), _cohere2_moe),
    )
)
