"""Dots 3 Note (transformers 5.24.0 models/dots3_note, dots-studio's dots3-note-prev): DeepSeek-V3's decoder (MLA,
routed experts under a sigmoid router with a float32 weight and a score-correction buffer, shared experts, the
first first_k_dense_replace layers dense) except: every attention has a per-head output gate and a norm on the
rotary key (parts/head_gated_mla.py), the "indexed_attention" layers run DeepSeek-V3.2's lightning indexer, and
the "sliding_attention" layers are latent attention of other sizes within a window (parts/sliding_head_gated_mla.py:
Dots3NoteTextConfig's swa_* keys, or per_layer_config).  One rotary per layer type, named by it
(``{type}_inv_freq``), int(head_dim × qk_rope_head_dim / head_dim) channels wide with that type's sizes
(Dots3NoteTextConfig.convert_rope_params_to_dict, Dots3NoteTextRotaryEmbedding).

AutoModelForCausalLM builds Dots3NoteForCausalLM from a Dots3NoteTextConfig, and from a Dots3NoteConfig too (its
text_config; a config without one holds the text keys at the top, Dots3NoteConfig.__post_init__)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/dots3_note/configuration_dots3_note.py"
TYPES = ("full_attention", "indexed_attention", "sliding_attention")
MLA = ("num_attention_heads", "num_key_value_heads", "q_lora_rank", "kv_lora_rank", "head_dim", "qk_nope_head_dim",
       "qk_rope_head_dim", "v_head_dim")
# Dots3NoteTextConfig.__post_init__: the released checkpoint's sliding sizes (swa_* keys) and their defaults
SWA_DEFAULTS = {"num_attention_heads": 64, "num_key_value_heads": 64, "q_lora_rank": 1024, "kv_lora_rank": 1024,
                "head_dim": 256, "qk_nope_head_dim": 192, "v_head_dim": 128}
DEFAULTS = {"vocab_size": 152064, "hidden_size": 5120, "intermediate_size": 13824, "moe_intermediate_size": 1536,
            "num_hidden_layers": 46, "num_attention_heads": 128, "num_key_value_heads": 128, "n_shared_experts": 1,
            "n_routed_experts": 256, "kv_lora_rank": 512, "q_lora_rank": 1024, "qk_rope_head_dim": 64,
            "v_head_dim": 128, "qk_nope_head_dim": 128, "n_group": 1, "topk_group": 1, "num_experts_per_tok": 8,
            "hidden_act": "silu", "max_position_embeddings": 524288, "tie_word_embeddings": False,
            "mlp_layer_types": None, "attention_bias": False, "index_topk": 2048, "index_head_dim": 128,
            "index_n_heads": 64, "mlp_bias": False, "head_dim": 256, "layer_types": None, "sliding_window": None,
            "shared_experts_intermediate_size": 1536}


def _layer_types(config: Mapping[str, Any]) -> list[str]:
    """Dots3NoteTextConfig.__post_init__: the given layer_types, else every fourth layer from 1 (and 0) full, the
    rest sliding (use_sliding_window); full layers are indexed unless use_dsa is False, and use_dsa (True unless the
    config gives per_layer_config) turns every full layer indexed, or False every indexed one full."""
    layers = config["num_hidden_layers"]
    use_dsa = config.get("use_dsa", None if "per_layer_config" in config else True)
    given = config.get("layer_types")
    if given is None:
        full = "full_attention" if use_dsa is False else "indexed_attention"
        sliding = config.get("use_sliding_window", True)
        given = [full if not sliding or i < 2 or i % 4 == 1 else "sliding_attention" for i in range(layers)]
    if not isinstance(given, (list, tuple)) or len(given) != layers or any(kind not in TYPES for kind in given):
        raise ArchitectureError("layer_types", f"must list one of {', '.join(TYPES)} for each of the {layers} "
                                f"layers, got {given!r}"[:300])
    if use_dsa is not None:
        old, new = ("full_attention", "indexed_attention") if use_dsa else ("indexed_attention", "full_attention")
        given = [new if kind == old else kind for kind in given]
    return list(given)


def _overrides(config: Mapping[str, Any], types: list[str]) -> dict[int, dict[str, Any]]:
    """per_layer_config as given (each layer's overrides), else the sliding layers' swa_* sizes."""
    layers = len(types)
    if "per_layer_config" not in config:
        swa = {key: config.get(f"swa_{key}", value) for key, value in SWA_DEFAULTS.items()}
        rope = config.get("swa_qk_rope_head_dim")
        swa["qk_rope_head_dim"] = rope if rope is not None else _minus(swa["head_dim"], swa["qk_nope_head_dim"])
        return {i: swa for i, kind in enumerate(types) if kind == "sliding_attention"}
    given = config["per_layer_config"]
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise ArchitectureError("per_layer_config", f"must be an object of layer index -> overrides, got {given!r}"
                                [:200])
    out: dict[int, dict[str, Any]] = {}
    for index, overrides in given.items():
        try:
            layer = int(index)
        except (TypeError, ValueError):
            raise ArchitectureError("per_layer_config", f"{index!r} is not a layer index"[:200]) from None
        if not 0 <= layer < layers:
            raise ArchitectureError("per_layer_config", f"layer {layer} is outside 0..{layers - 1}")
        if not isinstance(overrides, Mapping):
            raise ArchitectureError("per_layer_config", f"layer {layer}: must be an object, got {overrides!r}"[:200])
        for key in overrides:
            if key not in MLA:
                raise ArchitectureError("per_layer_config", f"layer {layer} overrides {key}; Dots 3 Note reads only "
                                        f"its attention's sizes there ({', '.join(MLA)})"[:300])
        out[layer] = dict(overrides)
    return out


def _minus(a: Any, b: Any) -> Any:
    return a - b if type(a) is int and type(b) is int else None


def _check_types(config: Mapping[str, Any], sizes: dict[str, dict[str, Any]]) -> None:
    """Dots3NoteTextConfig.validate_architecture, one line naming the key."""
    for kind, own in sizes.items():
        if own["q_lora_rank"] is None:
            raise ArchitectureError("q_lora_rank", f"required on the {kind} layers (Dots3NoteTextConfig."
                                    "validate_architecture: MLA queries need it)")
        if own["num_key_value_heads"] != own["num_attention_heads"]:
            raise ArchitectureError("num_key_value_heads", f"{own['num_key_value_heads']!r} on the {kind} layers is "
                                    f"not num_attention_heads={own['num_attention_heads']!r} (Dots3NoteTextConfig."
                                    "validate_architecture)"[:300])
        rope, index = own["qk_rope_head_dim"], config.get("index_head_dim")
        if kind == "indexed_attention" and type(rope) is int and type(index) is int and rope > index:
            raise ArchitectureError("qk_rope_head_dim", f"{rope} is more than index_head_dim={index} "
                                    "(Dots3NoteTextConfig.validate_architecture)")
    if "sliding_attention" in sizes:
        own = sizes["sliding_attention"]
        if own["head_dim"] != _sum(own["qk_nope_head_dim"], own["qk_rope_head_dim"]):
            raise ArchitectureError("swa_head_dim", f"{own['head_dim']!r} is not the sliding layers' "
                                    f"qk_nope_head_dim + qk_rope_head_dim (Dots3NoteTextConfig."
                                    "validate_architecture)"[:300])
    shared, experts, groups, topk = (config.get(key) for key in ("n_shared_experts", "n_routed_experts", "n_group",
                                                                 "topk_group"))
    if type(shared) is not int or shared < 1:
        raise ArchitectureError("n_shared_experts", f"must be 1 or more, got {shared!r} (Dots3NoteTextConfig."
                                "validate_architecture)"[:200])
    if type(groups) is int and type(experts) is int:
        if groups < 1 or experts % groups:
            raise ArchitectureError("n_group", f"{groups} does not divide n_routed_experts={experts} "
                                    "(Dots3NoteTextConfig.validate_architecture)")
        if experts // groups < 2:
            raise ArchitectureError("n_routed_experts", f"{experts} gives fewer than two experts in each of the "
                                    f"{groups} groups (Dots3NoteTextConfig.validate_architecture)")
        if type(topk) is int and not 1 <= topk <= groups:
            raise ArchitectureError("topk_group", f"must be in 1..n_group={groups}, got {topk} "
                                    "(Dots3NoteTextConfig.validate_architecture)")


def _sum(a: Any, b: Any) -> Any:
    return a + b if type(a) is int and type(b) is int else None


def dots3_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Each layer's attention from its type and per-layer sizes; the dense layers; the window; the shared experts'
    width (n_shared_experts × shared_experts_intermediate_size, or moe_shared_expert_intermediate_size)."""
    types = _layer_types(config)
    overrides = _overrides(config, types)
    sizes: dict[str, dict[str, Any]] = {}
    for layer, kind in enumerate(types):
        own = {key: overrides.get(layer, {}).get(key, config.get(key)) for key in MLA}
        if sizes.setdefault(kind, own) != own:  # Dots3NoteTextRotaryEmbedding reads one config per layer type
            raise ArchitectureError("per_layer_config", f"the {kind} layers differ (transformers 5.24.0 builds one "
                                    "rotary per layer type from one config: it refuses this)")
    if sizes.get("full_attention", sizes.get("indexed_attention")) != sizes.get("indexed_attention",
                                                                              sizes.get("full_attention")):
        raise ArchitectureError("per_layer_config", "gives the full_attention and indexed_attention layers other "
                                "latent sizes: not counted yet (both kinds read the design's)")
    _check_types(config, sizes)
    main = sizes.get("indexed_attention") or sizes.get("full_attention") or {key: config.get(key) for key in MLA}
    swa = sizes.get("sliding_attention") or dict.fromkeys(MLA)
    window = config.get("sliding_window")
    window = config.get("sliding_window_size", 512) if window is None else window
    shared = config.get("moe_shared_expert_intermediate_size", config.get("shared_experts_intermediate_size"))
    kinds = config.get("mlp_layer_types")
    if not isinstance(kinds, (list, tuple)):
        first, freq = config.get("first_k_dense_replace", 1), config.get("moe_layer_freq", 1)
        kinds = ["sparse" if i >= first and (bool(freq[i]) if isinstance(freq, (list, tuple)) else i % freq == 0)
                 else "dense" for i in range(len(types))]
    sliding = tuple(i for i, kind in enumerate(types) if kind == "sliding_attention")
    return {
        **{key: main[key] for key in MLA},
        "head_gated_mla_layers": tuple(i for i, kind in enumerate(types) if kind == "full_attention"),
        "indexed_head_gated_mla_layers": tuple(i for i, kind in enumerate(types) if kind == "indexed_attention"),
        "sliding_head_gated_mla_layers": sliding,
        **({f"swa_{key}": swa[key] for key in MLA if key != "num_key_value_heads"} if sliding else {}),
        # no indexed layer: no indexer at all (its sizes are then unread)
        **({} if "indexed_attention" in sizes else dict.fromkeys(("index_n_heads", "index_head_dim", "index_topk"))),
        "layer_types": tuple("sliding_attention" if kind == "sliding_attention" else "full_attention"
                             for kind in types),
        "sliding_window": window if sliding else None,
        "shared_expert_intermediate_size": shared * config["n_shared_experts"] if type(shared) is int else None,
        "mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense"),
    }


def _half_rotary(head_dim: str, rope: str) -> Any:
    """The inv_freq length of a type's rotary: arange(0, int(head_dim × (rope / head_dim)), 2), the factor as
    Dots3NoteTextConfig.convert_rope_params_to_dict works it out, in floating point as transformers does."""
    return lambda arch: (int(getattr(arch, head_dim) * (getattr(arch, rope) / getattr(arch, head_dim))) + 1) // 2


# sorted(set(layer_types)), as Dots3NoteTextRotaryEmbedding registers them: each type's pair, where its kind has layers
ROTARY = tuple((f"model.rotary_emb.{kind}_{which}", (_half_rotary(*widths),), "float32", False, layers)
               for kind, widths, layers in (
                   ("full_attention", ("head_dim", "qk_rope_head_dim"), "head_gated_mla_layers"),
                   ("indexed_attention", ("head_dim", "qk_rope_head_dim"), "indexed_head_gated_mla_layers"),
                   ("sliding_attention", ("swa_head_dim", "swa_qk_rope_head_dim"), "sliding_head_gated_mla_layers"))
               for which in ("inv_freq", "original_inv_freq"))

NAMING = Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST,
                attn_gate="self_attn.g_proj", rotary=None, model_buffers=ROTARY)

TEXT = Family(
    model_type="dots3_note_text",
    causal_lm_class="Dots3NoteForCausalLM",
    naming=NAMING,
    source=TF,
    keys={**DECODER_KEYS, **same("moe_intermediate_size", "kv_lora_rank", "q_lora_rank", "qk_rope_head_dim",
                                 "v_head_dim", "qk_nope_head_dim", "num_experts_per_tok", "attention_bias",
                                 "head_dim", "index_topk", "index_head_dim", "index_n_heads"),
          "n_routed_experts": "num_experts", "num_local_experts": "num_experts"},  # attribute_map
    defaults=DEFAULTS,
    switches=LLAMA_SWITCHES,
    # Read by dots3_layers: the layer and MLP types and what Dots3NoteTextConfig.__post_init__ makes them of, the
    # sliding sizes, the window, the shared experts' width.  mlp_bias: no Dots3Note MLP reads it; swa_rope_theta:
    # the sliding rotary's base.
    count_neutral=ROUTING_KEYS | {"mlp_layer_types", "first_k_dense_replace", "moe_layer_freq", "use_dsa",
                                  "use_sliding_window", "per_layer_config", "sliding_window_size",
                                  "shared_experts_intermediate_size", "moe_shared_expert_intermediate_size",
                                  "n_shared_experts", "mlp_bias", "swa_rope_theta", "qk_head_dim",
                                  "num_nextn_predict_layers", "num_mtp_layers",
                                  *(f"swa_{key}" for key in MLA)},
    derive=(rules.output_bias_follows("attention_bias"), dots3_layers),
)


def _adapters(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """No projector of its own (each tower's adapter is inside it); Dots3NoteConfig.validate_architecture: both
    adapters' output width is the text hidden_size."""
    from ..towers import dots3_note as towers
    from ..towers._kind import section

    audio = towers.audio("", section(config, "audio_config", towers.AUDIO), None)
    for key, width in (("vision_config", vision.adapter_out_dim), ("audio_config", audio.adapter_out_dim)):
        if width != hidden:
            raise ArchitectureError(f"{key}.adapter_out_dim", f"{width} is not the text hidden_size={hidden} "
                                    "(Dots3NoteConfig.validate_architecture)")
    return []


def _towers_after_decoder(naming: Naming) -> Naming:
    """Dots3NoteModel registers language_model, vision_tower, audio_tower (then the head): the towers after the
    decoder's final norm."""
    decoder = (naming.embed, naming.layer.partition(".{i}")[0], naming.final_norm)
    return dataclasses.replace(naming, model_order=(*decoder, "model.vision_tower", "model.audio_tower",
                                                    naming.lm_head))


# Dots3NoteForConditionalGeneration (lines 1734-1747): Dots3NoteModel (the decoder under language_model, the vision and
# audio towers, towers/dots3_note.py) and lm_head, tied by the whole config's tie_word_embeddings alone (False;
# measured against text_config's, each unset, false and true).  A config without text_config holds the decoder's
# keys at its top level (Dots3NoteConfig.__post_init__: the released form).  --text-only counts the decoder alone:
# Dots3NoteForCausalLM, what AutoModelForCausalLM builds from a Dots3NoteConfig (its text_config, tied by
# text_config's key).
WHOLE = Whole({"model_type": "dots3_note_vision_encoder"}, _adapters, audio_config={"model_type":
                                                                                    "dots3_note_audio_encoder"},
              audio_first=False, tie_word_embeddings=False, text_at_top=True, renamed=_towers_after_decoder)
CONDITIONAL = multimodal(TEXT, "dots3_note", TF, WHOLE, "Dots3NoteForConditionalGeneration")
# the whole config's own keys, where the decoder's sit at the top level beside them
CONDITIONAL = dataclasses.replace(CONDITIONAL, count_neutral=CONDITIONAL.count_neutral | {
    "image_token_id", "video_token_id", "audio_token_id", "audio_config"})

FAMILIES = [TEXT, CONDITIONAL]
