"""Step-3.7 (transformers 5.24.0 models/step3p7, stepfun-ai/Step-3.7-Flash; issue #16): the whole
Step3p7ForConditionalGeneration, DeepSeek-OCR 2's model (modular_step3p7.py: Step3p7Model(DeepseekOcr2Model)): its
vision tower under model.vision_model (towers/step3p7.py), one Linear projector (4 × the tower's width in, the
downsamplers' output), the decoder under model.language_model and lm_head.  Step3p7Config has no tie_word_embeddings
of its own and text_config's ties nothing (PreTrainedModel reads the whole config's): the head is tied only where the
whole config sets it.

Its decoder (Step3p7TextModel over Step3p7TextConfig, model_type "step3p5") is Laguna's (families/afmoe.py) except
(modular_step3p7.py Step3p7Attention, Step3p7DecoderLayer, Step3p7SparseMoeBlock): the gate is always one per head
(gating = True, a class attribute); the sliding layers' heads are num_sliding_attention_heads (else the legacy
attention_other_setting's num_attention_heads); the dense MLP (mlp_layer_types "dense", else by the legacy
moe_layers_enum, else layers 0-2) is intermediate_size wide and the shared expert share_expert_dim wide, both
DeepSeek-V4's unfused gate/up/down; the keys are MiniMax-M3's (n_routed_experts, moe_intermediate_size); the per-layer
lists may carry num_nextn_predict_layers trailing MTP entries the config trims (the MTP layers are never built); the
rotary per layer type reads partial_rotary_factors' first layer of the type.  The SwiGLU clamps change no tensor.

transformers registers no CausalLM for step3p5: the decoder is counted inside the whole model, and --text-only is
refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.step3p7 import step3p7
from . import _rules as rules
from ._family import derived_from, multimodal, same
from ._tables import DECODER_KEYS, ROUTING_KEYS
from .afmoe import FAMILIES as AFMOE

TF = "transformers 5.24.0 models/step3p7/configuration_step3p7.py"
LAGUNA = next(family for family in AFMOE if family.model_type == "laguna")
_KINDS = {"layer_types": (rules.FULL, rules.SLIDING), "mlp_layer_types": ("dense", "sparse")}


def _listed(config: Mapping[str, Any], key: str, layers: int, padded: int) -> list | None:
    """A per-layer list as Step3p7TextConfig.__post_init__ keeps it: one entry a layer, the MTP layers' trailing
    entries trimmed; refused in one line otherwise (its @strict validation)."""
    given = config.get(key)
    if given is None:
        return None
    if not isinstance(given, (list, tuple)) or len(given) not in (layers, padded):
        raise ArchitectureError(key, f"must list one entry for each of the {layers} layers, got {given!r}"[:300])
    given = list(given)[:layers]
    if key in _KINDS and any(kind not in _KINDS[key] for kind in given):
        raise ArchitectureError(key, f"each entry must be one of {', '.join(_KINDS[key])}, got {given!r}"[:300])
    return given


def _moe_layers(config: Mapping[str, Any], padded: int) -> set[int]:
    """The legacy moe_layers_enum (a comma-separated string or a list of layer indices); absent, layers 3 on."""
    given = config.get("moe_layers_enum")
    if given is None:
        return set(range(3, padded))
    items = given.split(",") if isinstance(given, str) else given
    try:
        return {int(item) for item in items if str(item).strip()}
    except (TypeError, ValueError):
        raise ArchitectureError("moe_layers_enum", f"must list layer indices, got {given!r}"[:300]) from None


def step3p5_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Step3p7TextConfig.__post_init__ and Step3p7DecoderLayer: the attention and MLP patterns, the sliding layers'
    heads (per_layer_config), the rotary's share per layer type."""
    layers = config["num_hidden_layers"]
    mtp = config.get("num_nextn_predict_layers") or 0
    if isinstance(mtp, bool) or not isinstance(mtp, int) or mtp < 0:
        raise ArchitectureError("num_nextn_predict_layers", f"must be a whole number >= 0, got {mtp!r}")
    padded = layers + mtp
    types = _listed(config, "layer_types", layers, padded) or [rules.FULL] * layers
    kinds = _listed(config, "mlp_layer_types", layers, padded)
    if kinds is None:
        moe = _moe_layers(config, padded)
        kinds = ["sparse" if i in moe else "dense" for i in range(layers)]
    heads = config.get("num_sliding_attention_heads")
    if heads is None:
        other = config.get("attention_other_setting") or {}
        if not isinstance(other, Mapping):
            raise ArchitectureError("attention_other_setting", f"must be an object, got {other!r}"[:200])
        heads = other.get("num_attention_heads", config["num_attention_heads"])
    if isinstance(heads, bool) or not isinstance(heads, int) or heads <= 0:
        raise ArchitectureError("num_sliding_attention_heads", f"must be a positive whole number, got {heads!r}")
    per_layer = [heads if kind == rules.SLIDING else config["num_attention_heads"] for kind in types]
    out = {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
           "num_attention_heads_per_layer": () if heads == config["num_attention_heads"] else tuple(per_layer),
           "attention_output_gate": "per_head",
           **rules.layer_pattern(config.get("sliding_window"), [kind == rules.SLIDING for kind in types], keep=True)}
    rope = config.get("rope_parameters") or {}
    factors = _listed(config, "partial_rotary_factors", layers, padded)
    if factors and not all(isinstance(rope.get(kind), Mapping) for kind in set(types)):
        for kind, field in ((rules.FULL, "partial_rotary_factor"), (rules.SLIDING, "sliding_partial_rotary_factor")):
            if kind in types:  # the first layer of the type (all of a type agree)
                factor = factors[types.index(kind)]
                if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0 < factor <= 1:
                    raise ArchitectureError("partial_rotary_factors", f"must be numbers in (0, 1], got {factor!r}")
                out[field] = factor
    return out


# Identical to Laguna's table except: Step3p7TextConfig's keys and defaults (MiniMax-M3's names, attribute_map's
# aliases), and the patterns step3p5_layers reads.
TEXT = derived_from(
    LAGUNA,
    model_type="step3p7",  # (unregistered: the whole family, the same table, reads text_config)
    causal_lm_class="Step3p7ForConditionalGeneration",
    source=TF + " (Step3p7TextConfig)",
    # MiniMax-M3's router (MiniMaxM3VLTopKRouter): its e_score_correction_bias a buffer in the model's dtype, not a
    # Parameter
    naming=dataclasses.replace(LAGUNA.naming, router_correction_bias=None,
                               router_score_bias="mlp.gate.e_score_correction_bias", router_score_bias_dtype=None,
                               layer_order=(*LAGUNA.naming.layer_order[:-1], "mlp.gate.weight", "mlp.experts")),
    switches={**LAGUNA.switches, "router_correction_bias": False},
    keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "num_experts_per_tok"),
          "mlp_bias": "mlp_bias",  # Step3p7MLP's three Linears, the dense layers' and the shared expert's
          "n_routed_experts": "num_experts", "num_local_experts": "num_experts", "moe_num_experts": "num_experts",
          "moe_top_k": "num_experts_per_tok", "num_attention_groups": "num_key_value_heads",
          "share_expert_dim": "shared_expert_intermediate_size",
          "share_expert_dims": "shared_expert_intermediate_size"},
    defaults={"vocab_size": 128815, "hidden_size": 4096, "intermediate_size": 11264, "num_hidden_layers": 45,
              "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128, "hidden_act": "silu",
              "max_position_embeddings": 128000, "tie_word_embeddings": False, "sliding_window": None,
              "moe_intermediate_size": 1280, "share_expert_dim": 1280, "num_experts_per_tok": 8,
              "n_routed_experts": 288, "layer_types": None, "mlp_layer_types": None, "attention_bias": False,
              "num_sliding_attention_heads": None, "num_nextn_predict_layers": 0, "mlp_bias": False},
    # query_pre_attn_scalar scales the scores, the SwiGLU limits clamp, the MTP lists describe layers never built
    count_neutral=ROUTING_KEYS | {"num_sliding_attention_heads", "attention_other_setting", "mlp_layer_types",
                                  "moe_layers_enum", "num_nextn_predict_layers", "partial_rotary_factors",
                                  "query_pre_attn_scalar", "moe_router_scaling_factor", "swiglu_limits",
                                  "swiglu_limits_shared", "mtp_layer_types", "mtp_mlp_layer_types",
                                  "per_layer_config"},
    derive=(rules.output_bias_follows("attention_bias"), step3p5_layers),
)

CONDITIONAL = multimodal(
    TEXT, "step3p7", TF + " (Step3p7Config: text_config step3p5, vision_config step3p5_vision)",
    Whole({"model_type": "step3p5_vision"}, step3p7, vision_prefix="model.vision_model.", tie_word_embeddings=False,
          vision_kind="step3p5_vision",
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (no CausalLM is registered "
                                "for step3p5): count the whole model"),
    "Step3p7ForConditionalGeneration")
# DeepseekOcr2Model's registration order: the tower, the decoder, then the projector
ORDER = ("model.vision_model", "model.language_model.embed_tokens", "model.language_model.layers",
         "model.language_model.norm", "model.multi_modal_projector")
CONDITIONAL = dataclasses.replace(CONDITIONAL, count_neutral=CONDITIONAL.count_neutral | {"image_token_id",
                                                                                          "projector_bias"},
                                  naming=dataclasses.replace(CONDITIONAL.naming, model_order=ORDER))

FAMILIES = [CONDITIONAL]
