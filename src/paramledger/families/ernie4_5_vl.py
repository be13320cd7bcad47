"""ERNIE 4.5 VL MoE (Ernie4_5_VLMoeForConditionalGeneration, the image-text-to-text mapping's), counted whole: ERNIE
4.5 MoE's decoder (families/moe.py) under model.language_model, then its vision tower under model.vision_tower and
the resampler under model.resampler_model (towers/ernie4_5_vl.py), lm_head last, tied by the whole config's
tie_word_embeddings (Ernie4_5_VLMoeConfig: True).

transformers 5.24.0 models/ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py and configuration_ernie4_5_vl_moe.py.  The
decoder differs from ERNIE 4.5 MoE's: mlp_layer_types places the sparse layers (Ernie4_5_VLMoeTextConfig fills
["dense"] + ["sparse"] × (layers - 1); the moe_layer_* keys are gone), and a sparse layer holds two routed sets, text
and vision experts, at moe_intermediate_size[0] and [1] (default [1536, 512]), with shared experts
moe_intermediate_size[0] × moe_num_shared_experts wide (parts/modality_experts.py).  The head is unbiased whatever
use_bias says (Glm4vForConditionalGeneration's lm_head).  No class builds the decoder alone with a head:
--text-only is refused.  docs/notes/multimodal-trio.md."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER
from ..towers import Whole
from ..towers.ernie4_5_vl import resampler
from . import _rules as rules
from ._family import derived_from, multimodal
from ._tables import ROUTING_KEYS
from .moe import FAMILIES as MOE_FAMILIES

ERNIE_MOE = next(f for f in MOE_FAMILIES if f.model_type == "ernie4_5_moe")
TF = "transformers 5.24.0 models/ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py"


def expert_widths(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """text_config with moe_intermediate_size's two widths (the class fills [1536, 512]) read apart: the text
    experts' (moe_intermediate_size, as ERNIE 4.5 MoE reads it) and the vision experts'
    (vision_moe_intermediate_size), each refused in one line where the decoder could not be built."""
    widths = text.get("moe_intermediate_size")
    if widths is None:
        widths = [1536, 512]
    if (not isinstance(widths, (list, tuple)) or len(widths) < 2
            or not all(type(w) is int and 0 < w <= MAX_INTEGER for w in widths[:2])):
        raise ArchitectureError("text_config.moe_intermediate_size", f"must list the text and the vision experts' "
                                f"widths, two positive whole numbers, got {widths!r}"[:200])
    return {**text, "moe_intermediate_size": widths[0], "vision_moe_intermediate_size": widths[1]}


def modality_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """The sparse layers (mlp_layer_types), use_bias on every attention and dense or shared MLP projection (never
    the head nor the routed experts), and the text rotary's mrope_section, each refused in one line where
    Ernie4_5_VLMoeDecoderLayer would misread it or Ernie4_5_VLMoeTextRotaryEmbedding could not be built."""
    layers = config["num_hidden_layers"]
    kinds = config.get("mlp_layer_types")
    if kinds is None:
        kinds = ["dense"] + ["sparse"] * (layers - 1)
    if not isinstance(kinds, (list, tuple)) or len(kinds) != layers or any(k not in ("dense", "sparse") for k in kinds):
        raise ArchitectureError("mlp_layer_types", f"must list \"dense\" or \"sparse\" for each of the {layers} "
                                f"layers, got {kinds!r}"[:200])
    if type(config.get("moe_num_experts")) is not int or config["moe_num_experts"] <= 0:
        raise ArchitectureError("moe_num_experts", "must be positive (transformers 5.24.0 builds no router without "
                                "experts)")
    rope = config.get("rope_parameters") or {}
    if isinstance(rope, Mapping):
        if rope.get("rope_type", "default") != "default":
            raise ArchitectureError("rope_parameters.rope_type", f"must be \"default\" (Ernie 4.5 VL rotates no "
                                    f"other way), got {rope.get('rope_type')!r}"[:200])
        section = rope.get("mrope_section", [22, 22, 20])
        head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
        rows = (head_dim + 1) // 2  # inv_freq: arange(0, head_dim, 2)
        fits = (isinstance(section, (list, tuple)) and len(section) >= 3
                and all(type(s) is int and s >= 0 for s in section[:3]))
        if fits:
            hw, t = section[0] + section[1], section[2]
            fits = hw == t == 0 or 0 < t <= rows and rows - t == hw
        if not fits:
            raise ArchitectureError("rope_parameters.mrope_section", f"must split the {rows} rotary frequencies "
                                    f"(head_dim {head_dim} / 2) into height + width + time, got {section!r}"[:200])
    bias = bool(config.get("use_bias"))
    return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
            "attention_output_bias": bias, "mlp_bias": bias, "lm_head_bias": False}


# identical to ernie4_5_moe except: mlp_layer_types for the moe_layer_* keys, two expert widths, an unbiased head,
# read under the whole model's model_type (no CausalLM reads it alone)
TEXT = derived_from(
    ERNIE_MOE, model_type="ernie4_5_vl_moe", causal_lm_class="Ernie4_5_VLMoeForConditionalGeneration",
    source=f"{TF} (Ernie4_5_VLMoeTextConfig)",
    keys={**ERNIE_MOE.keys, "vision_moe_intermediate_size": "vision_moe_intermediate_size"},
    defaults={**{k: v for k, v in ERNIE_MOE.defaults.items() if not k.startswith("moe_layer_")},
              "moe_intermediate_size": None, "mlp_layer_types": None},
    count_neutral=ROUTING_KEYS | {"moe_norm_min", "mlp_layer_types"},
    derive=(modality_layers, rules.no_sliding),
)
WHOLE = multimodal(
    TEXT, "ernie4_5_vl_moe", f"{TF} (Ernie4_5_VLMoeConfig)",
    Whole({"model_type": "ernie4_5_vl_moe_vision"}, resampler, projector_prefix="model.resampler_model.",
          vision_kind="ernie4_5_vl_moe_vision", text_rewritten=expert_widths,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds with a head (no ERNIE 4.5 "
                                "VL CausalLM is registered): count the whole model"),
    "Ernie4_5_VLMoeForConditionalGeneration")
# Ernie4_5_VLMoeModel registers language_model, vision_tower, resampler_model; the class then lm_head
DECODER = WHOLE.naming
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(DECODER, model_order=(
    DECODER.embed, DECODER.layer.partition(".{i}")[0], DECODER.final_norm, "model.vision_tower",
    "model.resampler_model", DECODER.lm_head)))]
