"""Mistral Large 4 (transformers 5.24.0 models/mistral_large4): the whole MistralLarge4ForConditionalGeneration, Mistral
3's model (a Pixtral tower, towers/pixtral.py, and Mistral3MultiModalProjector) around MistralLarge4TextModel.

Its decoder is Mistral 4's (DeepSeek-V3's fused experts and shared experts, a softmax router without a score
correction, first_k_dense_replace dense layers, by mlp_layer_types) with GLM-5's DSA attention except: a full-rank
q_proj with a learned softmax scaling, an indexer fed by the layer's input, NoPE layers (no_rope_layers), layers
reading an earlier layer's latent (kv_source_layers) and "shared" indexer layers (indexer_types), all in
parts/scaled_mla.py; the router's weight is float32; the rotary holds a learned ``alpha`` (one per inv_freq entry,
registered after the final norm: MistralLarge4TextRotaryEmbedding, LeRoPE).

transformers registers no CausalLM for mistral_large4_text (only MistralLarge4TextModel, headless): the decoder is
counted inside the whole model, and --text-only is refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..parts.scaled_mla import layers_key
from ..towers import Whole
from ..towers.pixtral import mistral3
from . import _rules as rules
from ._family import derived_from, multimodal
from .dsa import glm_indexer_types
from .even_rotary import ROPE_REQUIRES, inv_freq_length, rope_width_problem
from .mistral4 import FAMILIES as MISTRAL4_FAMILIES

MISTRAL4 = MISTRAL4_FAMILIES[0]
TF = "transformers 5.24.0 models/mistral_large4/configuration_mistral_large4.py"

# MistralLarge4TextConfig's defaults (q_lora_rank, mlp_bias and norm_topk_prob are deleted from it: unread)
DEFAULTS = {"vocab_size": 204800, "hidden_size": 6144, "intermediate_size": 24576, "moe_intermediate_size": 6144,
            "num_hidden_layers": 72, "num_attention_heads": 64, "num_key_value_heads": 64, "n_shared_experts": 1,
            "n_routed_experts": 128, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "v_head_dim": 128,
            "qk_nope_head_dim": 64, "num_experts_per_tok": 4, "hidden_act": "silu", "max_position_embeddings": 1048576,
            "tie_word_embeddings": False, "attention_bias": False, "index_topk": 2048, "index_head_dim": 128,
            "index_n_heads": 32, "first_k_dense_replace": 1, "mlp_layer_types": None, "no_rope_layers": None,
            "kv_source_layers": None, "indexer_types": None}


def _no_rope(config: Mapping[str, Any], layers: int) -> list[bool]:
    """no_rope_layers (1: the layer rotates), else every no_rope_layer_interval-th layer NoPE (default 4:
    MistralLarge4TextConfig.__post_init__); MistralLarge4TextAttention reads entry i of at least ``layers``."""
    given = config.get("no_rope_layers")
    if given is None:
        interval = config.get("no_rope_layer_interval", 4)
        if type(interval) is not int or interval < 1:
            raise ArchitectureError("no_rope_layer_interval", f"must be a positive integer, got {interval!r}"[:200])
        return [(i + 1) % interval != 0 for i in range(layers)]
    if not isinstance(given, (list, tuple)) or len(given) < layers or any(
            type(flag) not in (int, bool) or flag not in (0, 1) for flag in given):
        raise ArchitectureError("no_rope_layers", f"must list 1 (RoPE) or 0 (NoPE) for each of the {layers} layers, "
                                f"got {given!r}"[:300])
    return [bool(flag) for flag in given[:layers]]


def _kv_sources(config: Mapping[str, Any], layers: int) -> list[int]:
    """kv_source_layers (MistralLarge4TextConfig.validate_architecture: one entry per layer, each an earlier or
    the same layer that is its own source), else every layer its own."""
    given = config.get("kv_source_layers")
    if given is None:
        return list(range(layers))
    if not isinstance(given, (list, tuple)) or len(given) != layers or any(type(s) is not int for s in given):
        raise ArchitectureError("kv_source_layers", f"must list one layer index for each of the {layers} layers, "
                                f"got {given!r}"[:300])
    for layer, source in enumerate(given):
        if not 0 <= source <= layer or given[source] != source:
            raise ArchitectureError("kv_source_layers", f"layer {layer} must share KV with an earlier layer that "
                                    f"owns its cache, got {source} (MistralLarge4TextConfig.validate_architecture)")
    return list(given)


def _indexed(config: Mapping[str, Any], layers: int) -> list[bool]:
    """GLM-5's indexer_types (GlmMoeDsaConfig.__post_init__, which MistralLarge4TextConfig's calls): a "shared"
    layer builds no indexer."""
    given = config.get("indexer_types")
    if given is not None and (not isinstance(given, (list, tuple)) or len(given) != layers
                              or any(kind not in ("full", "shared") for kind in given)):
        raise ArchitectureError("indexer_types", f"must list \"full\" or \"shared\" for each of the {layers} "
                                f"layers, got {given!r}"[:300])
    types = glm_indexer_types(config)["indexer_types"] or ("full",) * layers
    return [kind != "shared" for kind in types]


# MistralLarge4TextConfig.__post_init__'s rope_parameters where none is given (configuration_mistral_large4.py 142-150)
CLASS_ROPE = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 2048.0, "original_max_position_embeddings": 512,
              "beta_fast": 32.0, "beta_slow": 1.0, "attention_factor": 1.0}


def large4_rope(config: Mapping[str, Any]) -> dict[str, Any]:
    """The rotary's rope_type: its learned alpha is zeros_like(inv_freq) (modeling_mistral_large4.py lines 88-98), as
    long as that type's init function makes inv_freq at qk_rope_head_dim (the config's head_dim, __post_init__ line
    177); a width it cannot make is refused (families/even_rotary.py inv_freq_length, rope_width_problem)."""
    rope = config.get("rope_scaling") or config.get("rope_parameters")  # (convert_rope_params_to_dict: BC first)
    if rope is None:
        rope = CLASS_ROPE
    if not isinstance(rope, Mapping):
        return {}  # (rope_form's and the reader's refusals say why)
    width = config["qk_rope_head_dim"]
    factor = rope.get("partial_rotary_factor", config.get("partial_rotary_factor", 1.0))
    if type(width) is not int or type(factor) not in (int, float):
        return {}
    kind = rope.get("rope_type", rope.get("type", "default"))
    if width > 4 and width % 2 and int(width * factor) == width:  # (validate_rope, modeling_rope_utils.py 897-911)
        raise ArchitectureError("qk_rope_head_dim", f"{width} is odd and rotated whole (partial_rotary_factor "
                                f"{factor}, the config's head_dim): RoPE rotates pairs (transformers' validate_rope "
                                "refuses it)")
    nested = any(isinstance(value, Mapping) for value in rope.values())  # (layer-typed: rope_form's to refuse)
    if not nested and (problem := rope_width_problem(rope, width, factor)) is not None:
        raise ArchitectureError("rope_parameters", problem)
    return {"rope_type": kind} if isinstance(kind, str) and kind in ROPE_REQUIRES else {}


def _inv_freq(arch: Any) -> int:
    return inv_freq_length(arch.rope_type, arch.qk_rope_head_dim, arch.partial_rotary_factor, default_whole=True)


# its inv_freq pair, as long as the alpha beside it (buffers.rotary_buffers reads no rope_type)
ROTARY = tuple((f"model.rotary_emb.{which}", (_inv_freq,), "float32", False) for which in ("inv_freq",
                                                                                           "original_inv_freq"))


def large4_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Each layer's attention (parts/scaled_mla.py's kind for its RoPE, latent source and indexer)."""
    layers = config["num_hidden_layers"]
    sources = _kv_sources(config, layers)
    placed: dict[str, list[int]] = {}
    for i, combo in enumerate(zip(_no_rope(config, layers), (s == i for i, s in enumerate(sources)),
                                  _indexed(config, layers))):
        placed.setdefault(layers_key(*combo), []).append(i)
    return {key: tuple(listed) for key, listed in placed.items()}


# identical to Mistral 4 except: the attention (parts/scaled_mla.py, every layer placed by large4_layers), the
# rotary's learned alpha, MistralLarge4TextConfig's defaults and keys
TEXT = derived_from(
    MISTRAL4, model_type="mistral_large4", causal_lm_class="MistralLarge4ForConditionalGeneration", source=TF,
    naming=dataclasses.replace(MISTRAL4.naming, rotary_alpha="model.rotary_emb.alpha", rotary=None,
                               model_buffers=(*MISTRAL4.naming.model_buffers, *ROTARY)),
    keys={**{key: field for key, field in MISTRAL4.keys.items() if key != "q_lora_rank"},
          "num_experts": "num_experts", "index_n_heads": "scaled_mla_index_n_heads",
          "index_head_dim": "scaled_mla_index_head_dim", "index_topk": "scaled_mla_index_topk"},
    defaults=DEFAULTS,
    # read by the rules; head_dim and qk_head_dim are set from qk_rope_head_dim and the qk dims; layer_types is
    # "indexed_attention"; q_lora_rank, mlp_bias and norm_topk_prob are no fields of MistralLarge4TextConfig
    count_neutral=MISTRAL4.count_neutral | {
        "mlp_layer_types", "first_k_dense_replace", "no_rope_layers", "no_rope_layer_interval", "kv_source_layers",
        "indexer_types", "index_topk_pattern", "index_topk_freq", "index_skip_topk_offset", "head_dim", "qk_head_dim",
        "layer_types", "q_lora_rank", "mlp_bias", "num_nextn_predict_layers", "num_mtp_layers"},
    derive=(rules.mlp_layer_types(lambda i, config: i < config["first_k_dense_replace"]), rules.no_sliding,
            large4_layers, large4_rope))

# MistralLarge4Config.sub_configs_defaults: Mistral Large 4's Pixtral tower (hidden_act changes no tensor)
VISION = {"model_type": "pixtral", "hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 30,
          "num_attention_heads": 16, "patch_size": 14, "image_size": 1540}

# MistralLarge4ForConditionalGeneration is Mistral3ForConditionalGeneration (modular_mistral_large4.py): the tower,
# Mistral3MultiModalProjector, the decoder under model.language_model, lm_head; MistralLarge4Config's
# tie_word_embeddings is False
CONDITIONAL = multimodal(
    TEXT, "mistral_large4", TF + " (MistralLarge4Config, text_config MistralLarge4TextConfig)",
    Whole(VISION, mistral3, tie_word_embeddings=False,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (MistralLarge4TextModel "
                                "has no head and no CausalLM is registered): count the whole model"),
    "MistralLarge4ForConditionalGeneration")
CONDITIONAL = dataclasses.replace(CONDITIONAL, count_neutral=CONDITIONAL.count_neutral | {
    "image_token_index", "image_token_id", "projector_hidden_act", "vision_feature_layer", "multimodal_projector_bias",
    "spatial_merge_size"})

FAMILIES = [CONDITIONAL]
