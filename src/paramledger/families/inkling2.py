"""Inkling 2 (transformers 5.24.0 models/inkling2, thinkingmachines/Inkling-2-Small): the text decoder,
Inkling2ForCausalLM.

Inkling's decoder (families/inkling.py) except (modeling_inkling2.py): every layer is one part
(parts/inkling2_layer.py: block attention residual queries, L2-clip scales, dynamic k/v convs on the full layers, a
gated output, sink logits, a normed relative bias; every layer routed experts, registered before a float32 router
without shared rows, no shared experts, no dense layers); the model holds final_input.query (hidden,) after its
norm (Inkling2TextModel, line 1369); lm_head has unpadded_vocab_size rows (line 1458), never tied."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ..towers import Whole
from ..towers.inkling2 import width_matches
from ._family import Family, derived_from, multimodal, same
from ._tables import LLAMA_SWITCHES
from .inkling import LAYER_TYPES, _float32_states_note, _whole

TF = "transformers 5.24.0 models/inkling2/configuration_inkling2.py"

NAMING = Naming(embed_norm="model.embed_tokens.embed_norm", rotary=None, model_vectors=("model.final_input.query",),
                model_order=("model.embed_tokens", "model.layers", "model.norm", "model.final_input", "lm_head"))

# Inkling2TextConfig's fields (configuration_inkling2.py lines 96-134)
DEFAULTS = {"vocab_size": 201024, "unpadded_vocab_size": 200058, "hidden_size": 4608, "num_hidden_layers": 48,
            "num_attention_heads": 48, "num_key_value_heads": 8, "head_dim": 128, "swa_num_attention_heads": 48,
            "swa_num_key_value_heads": 8, "swa_head_dim": 128, "sliding_window_size": 1024, "d_rel": 16,
            "rel_extent": 1024, "log_scaling_n_floor": 128000, "log_scaling_alpha": 0.1, "layer_types": None,
            "max_position_embeddings": 1048576, "conv_kernel_size": 4, "hidden_act": "silu",
            "moe_intermediate_size": 2304, "n_routed_experts": 384, "num_experts_per_tok": 8, "route_scale": 8.0,
            "qk_l2_clip_threshold": 22.627416997969522, "rel_l2_clip_threshold": 8.0,
            "n_layers_per_attn_res_block": 6, "mlp_gate_softcap": 4.0, "mlp_up_softcap": 25.0,
            "final_logit_softcapping": 30.0, "scoring_func": "sigmoid"}


def inkling2_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Inkling2TextConfig.__post_init__: layer_types as given, else "hybrid" at every sixth layer ((i + 1) % 6 == 0)
    and "hybrid_sliding" elsewhere; layer 0 without a block attention residual before its attention."""
    layers = _whole(config, "num_hidden_layers", 1)
    kinds = config.get("layer_types")
    if kinds is None:
        kinds = ["hybrid" if (i + 1) % 6 == 0 else "hybrid_sliding" for i in range(layers)]
    if not isinstance(kinds, (list, tuple)) or len(kinds) != layers or any(k not in LAYER_TYPES for k in kinds):
        raise ArchitectureError("layer_types", f"must list 'hybrid' or 'hybrid_sliding' for each of the {layers} "
                                f"layers, got {kinds!r}"[:200])
    _whole(config, [key for key in config if key in ("n_routed_experts", "num_local_experts")][-1], 1)
    _whole(config, "n_layers_per_attn_res_block", 1)  # (Inkling2DecoderLayer: layer_idx % it, modeling line 866)
    values: dict[str, Any] = {
        "inkling2_first_layers": (0,), "inkling2_first_full": kinds[0] == "hybrid",
        "inkling2_full_layers": tuple(i for i, k in enumerate(kinds) if k == "hybrid" and i),
        "inkling2_sliding_layers": tuple(i for i, k in enumerate(kinds) if k == "hybrid_sliding" and i),
        "layer_types": tuple(LAYER_TYPES[k] for k in kinds), "layers_without_ffn": tuple(range(layers)),
    }
    if "hybrid_sliding" not in kinds:  # no layer slides: the window and the swa sizes are read by none
        values.update(sliding_window=None, inkling_swa_num_attention_heads=None,
                      inkling_swa_num_key_value_heads=None, inkling_swa_head_dim=None)
    return values


INKLING2 = Family(
    model_type="inkling2_text",
    causal_lm_class="Inkling2ForCausalLM",
    source=TF,
    naming=NAMING,
    # Inkling2TextConfig.attribute_map: intermediate_size is the experts' width, sliding_window,
    # num_local_experts, sconv_kernel_size and model_max_length other spellings
    keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
              "head_dim", "d_rel", "rel_extent", "moe_intermediate_size", "num_experts_per_tok",
              "max_position_embeddings", "hidden_act",
              unpadded_vocab_size="output_vocab_size", intermediate_size="moe_intermediate_size",
              swa_num_attention_heads="inkling_swa_num_attention_heads",
              swa_num_key_value_heads="inkling_swa_num_key_value_heads", swa_head_dim="inkling_swa_head_dim",
              sliding_window_size="sliding_window", sliding_window="sliding_window",
              conv_kernel_size="sconv_kernel_size", sconv_kernel_size="sconv_kernel_size",
              n_routed_experts="num_experts", num_local_experts="num_experts",
              model_max_length="max_position_embeddings"),
    defaults=DEFAULTS,
    # the layer holds its own norms and experts (placement none); no rotary; never tied
    switches={**LLAMA_SWITCHES, "norm_placement": "none", "position_embedding_type": "none",
              "tie_word_embeddings": False},
    # numerics: the clips, softcaps, log scaling, routing (route_scale, routed_scaling_factor, scoring_func),
    # the residual blocks' length (n_layers_per_attn_res_block: which layers start a block, no tensor);
    # tie_word_embeddings: no Inkling2TextConfig field, and Inkling2ForCausalLM ties nothing
    count_neutral=frozenset({"log_scaling_n_floor", "log_scaling_alpha", "route_scale", "routed_scaling_factor",
                             "qk_l2_clip_threshold", "rel_l2_clip_threshold", "n_layers_per_attn_res_block",
                             "mlp_gate_softcap", "mlp_up_softcap", "final_logit_softcapping", "scoring_func",
                             "tie_word_embeddings", "number_of_conv_states"}),
    derive=(inkling2_layers,),
    explain=(_float32_states_note,),
)

LOOP_KEYS = {"core_start": "loop_layer_index_start", "core_end": "loop_layer_index_end",
             "num_passes": "loop_num_passes", "gate_rank": "loop_gate_rank"}  # loop_config's spellings


def loop_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Inkling2LoopTextConfig (__post_init__: loop_config's core_start, core_end, num_passes, gate_rank over the
    loop_* keys; validate_architecture): layers loop_layer_index_start to loop_layer_index_end - 1 hold message
    gates and run loop_num_passes times a token; the model's message_input.query holds end - start rows."""
    section = config.get("loop_config")
    if section is not None and not isinstance(section, Mapping):
        raise ArchitectureError("loop_config", f"must be a JSON object, got {section!r}"[:200])
    loop = {field: (section or {}).get(key, config.get(field)) for key, field in LOOP_KEYS.items()}
    key = {field: f"loop_config.{name}" if section and name in section else field for name, field in LOOP_KEYS.items()}
    block = _whole(config, "n_layers_per_attn_res_block", 1)
    for field, least in (("loop_num_passes", 1), ("loop_gate_rank", 1), ("loop_layer_index_start", 1),
                         ("loop_layer_index_end", 0)):
        value = loop[field]
        if type(value) is not int or value < least:
            raise ArchitectureError(key[field], f"must be a whole number of {least} or more, got {value!r} "
                                    "(Inkling2LoopTextConfig.validate_architecture)"[:200])
    start, end = loop["loop_layer_index_start"], loop["loop_layer_index_end"]
    for field, value in (("loop_layer_index_start", start), ("loop_layer_index_end", end)):
        if value % block:
            raise ArchitectureError(key[field], f"{value} is not a multiple of n_layers_per_attn_res_block={block} "
                                    "(Inkling2LoopTextConfig.validate_architecture)")
    if end < start:  # message_input.query would have end - start rows
        raise ArchitectureError(key["loop_layer_index_end"], f"{end} is before loop_layer_index_start={start}: "
                                "message_input.query cannot have a negative number of rows")
    values = inkling2_layers(config)
    looped = range(start, end)
    values.update(
        inkling2_full_layers=tuple(i for i in values["inkling2_full_layers"] if i not in looped),
        inkling2_sliding_layers=tuple(i for i in values["inkling2_sliding_layers"] if i not in looped),
        inkling2_loop_full_layers=tuple(i for i in values["inkling2_full_layers"] if i in looped),
        inkling2_loop_sliding_layers=tuple(i for i in values["inkling2_sliding_layers"] if i in looped),
        loop_gate_rank=loop["loop_gate_rank"], loop_num_passes=loop["loop_num_passes"],
        inkling2_loop_layer_count=end - start)
    return values


# Inkling2LoopForCausalLM (transformers 5.24.0 models/inkling2_loop): Inkling 2's decoder except: the looped layers'
# message gates and passes (loop_layers), the model's message_input.query (looped layers, 4, hidden) after
# final_input; its own defaults (Inkling2LoopTextConfig, configuration_inkling2_loop.py lines 98-142)
LOOP = derived_from(
    INKLING2, model_type="inkling2_loop_text", causal_lm_class="Inkling2LoopForCausalLM",
    source="transformers 5.24.0 models/inkling2_loop/configuration_inkling2_loop.py",
    naming=dataclasses.replace(NAMING, model_arrays=(("model.message_input.query",
                                                      ("inkling2_loop_layer_count", 4, "hidden_size")),),
                               model_order=("model.embed_tokens", "model.layers", "model.norm", "model.final_input",
                                            "model.message_input", "lm_head")),
    defaults={**DEFAULTS, "hidden_size": 2304, "num_hidden_layers": 24, "num_attention_heads": 24,
              "swa_num_attention_heads": 24, "log_scaling_n_floor": 8192, "moe_intermediate_size": 1152,
              "n_routed_experts": 128, "loop_layer_index_start": 6, "loop_layer_index_end": 18, "loop_num_passes": 3,
              "loop_gate_rank": 64},
    keys={**INKLING2.keys, **same("loop_gate_rank", "loop_num_passes")},
    count_neutral=INKLING2.count_neutral | {"loop_layer_index_start", "loop_layer_index_end", "loop_config"},
    derive=(loop_layers,),
)

def _tower_before_head(naming: Naming) -> Naming:
    """Inkling2Model registers language_model, then vision_tower (its merger inside), then the head."""
    return dataclasses.replace(naming, model_order=(*naming.model_order[:-1], "model.vision_tower",
                                                    naming.model_order[-1]))


def _conditional(text: Family, model_type: str, conditional: str, source: str, width: int) -> Family:
    """Inkling2ForConditionalGeneration and Inkling2LoopForConditionalGeneration: the decoder under language_model,
    the vision tower (towers/inkling2.py; its text_hidden_size must be the decoder's: Inkling2Config
    .validate_architecture), a head never tied; --text-only counts the decoder alone.  ``width``: the tower's
    text_hidden_size when the config gives no vision_config (the config class's default)."""
    whole = Whole({"model_type": "inkling2_vision", "text_hidden_size": width}, width_matches,
                  tie_word_embeddings=False, tie_keys=(), vision_kind="inkling2_vision", renamed=_tower_before_head)
    family = multimodal(text, model_type, source, whole, conditional)
    return dataclasses.replace(family, count_neutral=family.count_neutral | {"image_token_id", "tie_word_embeddings"})


CONDITIONAL = _conditional(INKLING2, "inkling2", "Inkling2ForConditionalGeneration",
                           "transformers 5.24.0 models/inkling2/configuration_inkling2.py (Inkling2Config)", 4608)
# Inkling2LoopConfig's vision_config default: Inkling2VisionConfig with text_hidden_size 2304 (its SubConfigSpec)
LOOP_CONDITIONAL = _conditional(LOOP, "inkling2_loop", "Inkling2LoopForConditionalGeneration",
                                "transformers 5.24.0 models/inkling2_loop/configuration_inkling2_loop.py "
                                "(Inkling2LoopConfig)", 2304)

FAMILIES = [] if "inkling2_loop_layer" not in MIXER_MODULES else [INKLING2, LOOP, CONDITIONAL, LOOP_CONDITIONAL]
