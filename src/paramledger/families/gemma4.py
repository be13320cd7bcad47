"""Gemma 4 (E2B, E4B, 26B-A4B, 31B): Gemma 3's sandwich and q/k norms (its v_norm has no scale, no
parameters) and Gemma 3n's per-layer inputs and shared KV layers, plus per-layer attention shapes
(per_layer_config: head_dim 512 on the full-attention layers), keys serving as values on the
full-attention layers (attention_k_eq_v), a double-width FFN on the KV-sharing layers
(use_double_wide_mlp) and a dense FFN beside routed experts (enable_moe_block) (modeling_gemma4.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.gemma4 import ABSENT, embedders
from . import _rules as rules
from ._family import Family, multimodal, same
from .gemma import GEMMA2_KEYS, GEMMA3_SWITCHES

KEYS = {**GEMMA2_KEYS, **same("num_kv_shared_layers", "hidden_size_per_layer_input", "vocab_size_per_layer_input",
                              "attention_k_eq_v")}
DEFAULTS = {  # transformers 5.24.0 models/gemma4/configuration_gemma4.py (Gemma4TextConfig)
    "vocab_size": 262_144, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 30,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 131_072, "tie_word_embeddings": True, "attention_bias": False, "sliding_window": 512,
    "vocab_size_per_layer_input": 262_144, "hidden_size_per_layer_input": 256, "attention_k_eq_v": False,
    "num_kv_shared_layers": 0, "enable_moe_block": False, "use_double_wide_mlp": False,
}
# Read by gemma4_layers (per_layer_config and the two keys its default is made of, the MoE block, the
# double-width FFN); use_bidirectional_attention "all" halves the window (also read there).
# expert_intermediate_size: an earlier name in released configs (google/gemma-4-31B-it has it null) that the
# 5.24.0 class does not read at all.
NEUTRAL = frozenset({"per_layer_config", "global_head_dim", "num_global_key_value_heads", "enable_moe_block",
                     "num_experts", "top_k_experts", "moe_intermediate_size", "use_double_wide_mlp",
                     "expert_intermediate_size"})
SLIDING, FULL = rules.SLIDING, rules.FULL
PER_LAYER_KEYS = ("head_dim", "num_key_value_heads")  # what Gemma4TextAttention reads from per_layer_config


def gemma4_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Gemma4TextConfig.__post_init__ and the layers it builds: the layer pattern (5 sliding : 1 full,
    the last layer forced full), per_layer_config's head_dim and KV heads, the MoE block, the
    double-width FFN of the KV-sharing layers; per-layer inputs off at hidden_size_per_layer_input 0."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    types = list(types) if isinstance(types, (list, tuple)) else [
        SLIDING if (i + 1) % 6 else FULL for i in range(layers)]
    if types:
        types[-1] = FULL  # transformers forces the last layer to full attention (with a warning)
    if len(types) != layers:
        raise ArchitectureError("layer_types", f"has {len(types)} entries for num_hidden_layers={layers}")
    window = config.get("sliding_window")
    if SLIDING in types:
        window = rules.positive("sliding_window", window)
        if config.get("use_bidirectional_attention") == "all":
            window = window // 2 + 1  # Gemma4TextConfig: exclusive bounds for bidirectional attention
    out: dict[str, Any] = rules.layer_pattern(window, [kind == SLIDING for kind in types])

    head_dim, kv_heads = config.get("head_dim"), config.get("num_key_value_heads")
    given = config.get("per_layer_config", False)
    if given is False:  # the class default: one override for every full-attention layer
        overrides = {"head_dim": rules.positive("global_head_dim", config.get("global_head_dim", 512))}
        if config.get("attention_k_eq_v") and config.get("num_global_key_value_heads") is not None:
            overrides["num_key_value_heads"] = rules.positive("num_global_key_value_heads",
                                                              config["num_global_key_value_heads"])
        given = {i: overrides for i, kind in enumerate(types) if kind == FULL}
    if not isinstance(given or {}, Mapping):
        raise ArchitectureError("per_layer_config", f"must be an object of layer index -> overrides, got {given!r}")
    per_layer = {"head_dim": [head_dim] * layers, "num_key_value_heads": [kv_heads] * layers}
    for index, layer_overrides in (given or {}).items():
        try:
            layer = int(index)
        except ValueError:
            raise ArchitectureError("per_layer_config", f"{index!r} is not a layer index") from None
        if not 0 <= layer < layers:
            raise ArchitectureError("per_layer_config", f"layer {layer} is outside 0..{layers - 1}")
        if not isinstance(layer_overrides, Mapping):
            raise ArchitectureError("per_layer_config", f"layer {layer}: must be an object, got {layer_overrides!r}")
        for key, value in layer_overrides.items():
            if key not in PER_LAYER_KEYS:
                raise ArchitectureError("per_layer_config", f"layer {layer} overrides {key}; Gemma 4 reads only "
                                        f"{' and '.join(PER_LAYER_KEYS)} per layer")
            per_layer[key][layer] = rules.positive("per_layer_config", value)
    dims, kvs = per_layer["head_dim"], per_layer["num_key_value_heads"]
    shape_of: dict[str, tuple] = {}  # attention type -> (head_dim, KV heads) of its first layer
    for shape, kind in zip(zip(dims, kvs), types):
        if shape_of.setdefault(kind, shape) != shape:
            raise ArchitectureError("per_layer_config", f"the {kind} layers differ (transformers 5.24.0 builds one "
                                    "rotary embedding per attention type and cannot build this)")
    out["head_dim_per_layer"] = tuple(dims) if len(set(dims)) > 1 else ()
    out["head_dim"] = dims[0] if len(set(dims)) == 1 else head_dim
    out["num_key_value_heads_per_layer"] = tuple(kvs) if len(set(kvs)) > 1 else ()
    out["num_key_value_heads"] = kvs[0] if len(set(kvs)) == 1 else kv_heads

    if config.get("enable_moe_block"):
        moe = {}
        for key in ("num_experts", "top_k_experts", "moe_intermediate_size"):
            if config.get(key) is None:
                raise ArchitectureError(key, "missing (required with enable_moe_block: transformers 5.24.0 "
                                             "cannot build or route the experts without it)")
            moe[key] = rules.positive(key, config[key])
        out.update(num_experts=moe["num_experts"], num_experts_per_tok=moe["top_k_experts"],
                   moe_intermediate_size=moe["moe_intermediate_size"], moe_beside_dense_mlp=True,
                   router_scales=True)
    shared = config.get("num_kv_shared_layers") or 0
    if shared and not config.get("hidden_size_per_layer_input"):
        raise ArchitectureError("num_kv_shared_layers", "needs per-layer inputs (hidden_size_per_layer_input): "
                                "transformers 5.24.0's Gemma4TextModel slices them at the first shared layer and "
                                "cannot run a prompt without them")
    if config.get("use_double_wide_mlp") and shared:  # Gemma4TextMLP: twice as wide on the sharing layers
        width = config["intermediate_size"]
        out["intermediate_size_per_layer"] = tuple(2 * width if i >= layers - shared else width
                                                   for i in range(layers))
    if not config.get("hidden_size_per_layer_input"):
        out["vocab_size_per_layer_input"] = None  # no per-layer inputs: their table's rows mean nothing
    return out


# Gemma4TextAttention registers q_norm and k_norm between q_proj and k_proj; the decoder layer its norms,
# the per-layer input's modules, then the router and the experts with their own norms; Gemma4TextModel its
# per-layer input table and projection after the layers and the final norm.
# Gemma4TextScaledWordEmbedding's embed_scale (and the per-layer table's), each layer's layer_scalar (in the
# checkpoint), a rotary per attention layer type
BUFFERS = (("model.embed_tokens.embed_scale", (), None, False), ("{layer}layer_scalar", (1,), None, True),
           ("model.embed_tokens_per_layer.embed_scale", (), None, False, "hidden_size_per_layer_input"))
NAMING = Naming(model_buffers=BUFFERS, rotary_per_layer_type=True,
                layer_order=("self_attn.q_proj", "self_attn.q_norm", "self_attn.k_norm", "self_attn.k_proj",
                             "self_attn.v_proj", "self_attn.o_proj", "mlp", "input_layernorm",
                             "post_attention_layernorm",
                             "pre_feedforward_layernorm", "post_feedforward_layernorm", "per_layer_input_gate",
                             "per_layer_projection", "post_per_layer_input_norm", "router.scale",
                             "router.per_expert_scale", "router.proj", "experts", "post_feedforward_layernorm_1",
                             "post_feedforward_layernorm_2", "pre_feedforward_layernorm_2"),
                model_order=("model.embed_tokens", "model.layers", "model.norm", "model.embed_tokens_per_layer",
                             "model.per_layer_model_projection", "model.per_layer_projection_norm"),
                ffn_pre_norm="pre_feedforward_layernorm", router="router.proj",
                experts_gate_up="experts.gate_up_proj", experts_down="experts.down_proj")
SOURCE = "transformers 5.24.0 models/gemma4/configuration_gemma4.py"

FAMILIES = [
    Family(
        model_type="gemma4_text",
        causal_lm_class="Gemma4ForCausalLM",
        source=SOURCE + " (Gemma4TextConfig)",
        naming=NAMING,
        keys=KEYS,
        defaults=DEFAULTS,
        switches=GEMMA3_SWITCHES,
        count_neutral=NEUTRAL,
        derive=(rules.output_bias_follows("attention_bias"), gemma4_layers),
    ),
]
# The whole model (Gemma4ForConditionalGeneration, what AutoModelForCausalLM builds from a Gemma4Config): a vision
# and an audio tower only where the config gives their sub-config (towers/gemma4.py; Gemma4Config() builds neither),
# their embedders, the decoder under model.language_model, lm_head tied by the whole config's tie_word_embeddings.
# Gemma4Model registers vision_tower, language_model, audio_tower, embed_vision, embed_audio (modeling_gemma4.py
# lines 2231-2245); an image's tokens follow its size and the processor's max_soft_tokens: not declared.
_WHOLE = multimodal(FAMILIES[0], "gemma4", SOURCE + " (Gemma4Config: text_config gemma4_text, vision_config "
                    "gemma4_vision, audio_config gemma4_audio)",
                    Whole({"model_type": "gemma4_vision", ABSENT: True}, embedders, projector_prefix="model.",
                          audio_config={"model_type": "gemma4_audio", ABSENT: True}, audio_first=False,
                          # Gemma4Config builds its own sub-config classes whatever their model_type says
                          vision_kind="gemma4_vision", audio_kind="gemma4_audio",
                          described="gemma4 is multimodal: counting the whole model (its vision and audio towers "
                          "where the config gives them, their embedders and the text decoder); --text-only counts "
                          "the decoder alone"),
                    "Gemma4ForConditionalGeneration")
FAMILIES.append(dataclasses.replace(_WHOLE, naming=dataclasses.replace(_WHOLE.naming, model_order=(
    "model.vision_tower", *_WHOLE.naming.model_order, "model.audio_tower", "model.embed_vision", "model.embed_audio",
    "lm_head"))))
