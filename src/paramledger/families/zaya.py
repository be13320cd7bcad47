"""ZAYA (transformers 5.24.0 models/zaya, Zyphra's ZAYA1): Llama's pre-norm block with compressed convolutional
attention in every layer (parts/cca.py: ZayaAttention, modeling_zaya.py lines 353-427), routed experts behind an MLP
router that scores a skip expert beside them and, from layer 1 on, adds the previous layer's router state
(parts/mlp_router.py: ZayaSparseMoeBlock, lines 612-634; ZayaRouter.use_eda, line 524), and a scale and shift of each
sublayer's output and residual (parts/residual_affine.py: ZayaResidualScaling, lines 478-490).

ZayaDecoderLayer (lines 430-440) registers self_attn, mlp, input_layernorm, post_attention_layernorm,
post_attention_residual_scale and post_mlp_residual_scale: the builder's order (mixer, FFN, norms, extras).
ZayaModel (lines 690-703) registers embed_tokens, the layers and norm, then its own input_hidden_states_scale and
_bias, which named_parameters() lists first (a module's own parameters before its children's).  ZayaForCausalLM
(lines 789-799): lm_head a Linear biased by lm_head_bias, its weight tied to embed_tokens by _tied_weights_keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import Family, same
from ._tables import LLAMA_SWITCHES

TF = "transformers 5.24.0 models/zaya/configuration_zaya.py"
LAYER_TYPES = {"hybrid": "full_attention", "hybrid_sliding": "sliding_attention"}  # their cache layers' kinds
# Two keys of ZAYA1's first, Megatron-style config.json that no native one holds (converters to the native schema,
# quoted in docs/notes/decoders-x.md, pair each native layer with two of its layers and halve its ffn_hidden_size)
LEGACY_KEYS = ("cca", "ffn_hidden_size")

NAMING = Naming(
    model_vectors=("model.input_hidden_states_scale", "model.input_hidden_states_bias"),
    model_order=("model.input_hidden_states_scale", "model.input_hidden_states_bias", "model.embed_tokens",
                 "model.layers", "model.norm", "lm_head"),
    rotary_per_layer_type=True, rotary_layer_types=("hybrid", "hybrid_sliding"),  # ZayaRotaryEmbedding, lines 47-67
)


def zaya_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """ZayaConfig: every layer CCA attention with the MLP router; layer_types (None: "hybrid" everywhere) picks
    a full or a sliding window cache layer (cache_utils.py: LinearAttentionAndFullAttentionLayer,
    LinearAttentionAndSlidingWindowAttentionLayer); validate_architecture allows top-1 routing only and needs a
    sliding_window for "hybrid_sliding".  RoPE turns partial_rotary_factor of each head per layer type (0.5 each
    when rope_parameters is None)."""
    legacy = next((key for key in LEGACY_KEYS if key in config), None)
    if legacy is not None:
        raise ArchitectureError(legacy, "is a key of ZAYA1's Megatron-style config, which counts its attention and "
                                "MoE blocks as layers apart (num_hidden_layers twice the native one): transformers "
                                "5.24.0's ZayaConfig reads none of them (convert the config to the native schema)")
    layers = config["num_hidden_layers"]
    if not isinstance(layers, int) or isinstance(layers, bool) or layers < 0:
        return {}  # the Architecture refuses it, naming the key
    if config.get("num_experts_per_tok") != 1:
        raise ArchitectureError("num_experts_per_tok", f"must be 1 in ZAYA, got {config.get('num_experts_per_tok')!r}"
                                " (ZayaConfig.validate_architecture)"[:200])
    given = config.get("layer_types")
    kinds = ["hybrid"] * layers if given is None else given
    if not isinstance(kinds, list) or len(kinds) != layers or any(kind not in LAYER_TYPES for kind in kinds):
        raise ArchitectureError("layer_types", f"must list 'hybrid' or 'hybrid_sliding' for each of the {layers} "
                                f"layers, got {kinds!r}"[:200])
    window = config.get("sliding_window")
    if "hybrid_sliding" in kinds and window is None:
        raise ArchitectureError("sliding_window", "required with a 'hybrid_sliding' layer "
                                "(ZayaConfig.validate_architecture)")
    values: dict[str, Any] = {"cca_layers": tuple(range(layers)), "partial_rotary_factor": 0.5,
                              "sliding_partial_rotary_factor": 0.5}
    rope = config.get("rope_parameters")
    if isinstance(rope, Mapping):  # ZayaConfig keeps the given rope_parameters whole, one section per layer type
        for kind, field in (("hybrid", "partial_rotary_factor"), ("hybrid_sliding", "sliding_partial_rotary_factor")):
            section = rope.get(kind)
            if isinstance(section, Mapping):
                values[field] = section.get("partial_rotary_factor", 1.0)
    if "hybrid_sliding" in kinds:
        values.update(sliding_window=window, layer_types=tuple(LAYER_TYPES[kind] for kind in kinds))
    else:  # no layer slides: the window is read by none
        values.update(sliding_window=None, layer_types=tuple(LAYER_TYPES[kind] for kind in kinds))
    return values


def _skip_expert_note(arch: Any) -> str:
    return (f"the router scores a skip expert beside the {arch.num_experts} (ZayaRouter: num_experts + 1 classes): "
            "active parameters and FLOPs count one expert a token, a bound (a token routed to the skip expert runs "
            "none)")


FAMILIES = [] if "cca" not in MIXER_MODULES else [
    Family(
        model_type="zaya",
        causal_lm_class="ZayaForCausalLM",
        source=TF,
        naming=NAMING,
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
                  "head_dim", "moe_intermediate_size", "num_experts", "num_experts_per_tok", "router_hidden_size",
                  "cca_time0", "cca_time1", "attention_bias", "lm_head_bias", "tie_word_embeddings",
                  "max_position_embeddings", "hidden_act"),
        defaults={"vocab_size": 262272, "hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 8,
                  "num_key_value_heads": 2, "head_dim": 128, "hidden_act": "silu", "max_position_embeddings": 131072,
                  "tie_word_embeddings": True, "rope_parameters": None, "sliding_window": None,
                  "moe_intermediate_size": 2048, "num_experts_per_tok": 1, "num_experts": 16, "layer_types": None,
                  "attention_bias": False, "lm_head_bias": False, "router_hidden_size": 256, "cca_time0": 2,
                  "cca_time1": 2},
        # attention_bias biases o_proj too (ZayaAttention, line 366: the CCA part reads it for all five); the
        # experts are gated (gate_up_proj), the router's MLP always GELU (hidden_act is the experts'); every layer
        # routed, none dense
        switches={**LLAMA_SWITCHES, "residual_affine": True},
        derive=(zaya_layers,),
        explain=(_skip_expert_note,),
    ),
]
