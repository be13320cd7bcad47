"""Inkling (transformers 5.24.0 models/inkling, thinkingmachines/Inkling): the text decoder, InklingForCausalLM.

Llama's pre-norm block, except (modeling_inkling.py): the token table carries an RMSNorm (InklingNormedEmbedding,
embed_tokens.embed_norm); no rotary, a relative bias mixed per token in every attention, keys and values through
short convs (parts/inkling_attention.py), the sliding layers at their own swa_* sizes
(parts/inkling_sliding_attention.py); a short conv on each sublayer's output (parts/inkling_sconv.py); dense MLPs
with a global_scale and MoE layers whose router scores the shared experts too, the shared experts 3-D
(parts/inkling_ffn.py).  InklingDecoderLayer registers self_attn, mlp, input_layernorm, post_attention_layernorm,
attn_sconv, mlp_sconv (layer_order).  InklingForCausalLM's lm_head (vocab_size rows; unpadded_vocab_size only drops
logits) is never tied (_tied_weights_keys = {}).  The MTP layers (num_mtp_layers) are not built: the class ignores
model.mtp.* on load (_keys_to_ignore_on_load_unexpected)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ..towers import Whole, no_projector
from ._family import Family, multimodal, same
from ._tables import LLAMA_SWITCHES

TF = "transformers 5.24.0 models/inkling/configuration_inkling.py"
LAYER_TYPES = {"hybrid": "full_attention", "hybrid_sliding": "sliding_attention"}  # their cache layers' kinds
MLP_TYPES = ("dense", "sparse")

NAMING = Naming(embed_norm="model.embed_tokens.embed_norm", rotary=None,
                layer_order=("self_attn", "mlp", "input_layernorm", "post_attention_layernorm", "attn_sconv",
                             "mlp_sconv"))

# InklingTextConfig's fields (configuration_inkling.py lines 99-145)
DEFAULTS = {"vocab_size": 201024, "unpadded_vocab_size": None, "hidden_size": 6144, "num_hidden_layers": 66,
            "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128, "swa_num_attention_heads": 64,
            "swa_num_key_value_heads": 16, "swa_head_dim": 128, "sliding_window_size": 512, "d_rel": 16,
            "rel_extent": 1024, "log_scaling_n_floor": None, "log_scaling_alpha": 0.1, "local_layer_ids": None,
            "layer_types": None, "max_position_embeddings": 131072, "conv_kernel_size": 4, "mlp_layer_types": None,
            "intermediate_size": 24576, "hidden_act": "silu", "moe_intermediate_size": 3072, "n_routed_experts": 256,
            "num_experts_per_tok": 6, "n_shared_experts": 2, "shared_expert_sink": True, "route_scale": 8.0,
            "logits_mup_width_multiplier": 24.0, "rms_norm_eps_moe_gate": 1e-6, "num_mtp_layers": None,
            "chain_hidden_post_norm": False, "mtp_hidden_states_first": True, "mtp_local_layer_ids": None}


def _whole(config: Mapping[str, Any], key: str, least: int = 0) -> int:
    value = config.get(key)
    if type(value) is not int or value < least:
        raise ArchitectureError(key, f"must be a whole number of {least} or more, got {value!r}"[:200])
    return value


def inkling_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """InklingTextConfig.__post_init__: layer_types as given, else "hybrid_sliding" at local_layer_ids (None: every
    layer i with (i + 1) % 6) and "hybrid" elsewhere; mlp_layer_types as given, else "dense" below dense_mlp_idx (0)
    and "sparse" after; a dense_intermediate_size sizes the dense MLP, intermediate_size then the experts."""
    layers = _whole(config, "num_hidden_layers")
    kinds = config.get("layer_types")
    if kinds is None:
        local = config.get("local_layer_ids")
        if local is not None and (not isinstance(local, (list, tuple)) or any(type(i) is not int for i in local)):
            raise ArchitectureError("local_layer_ids", f"must list layer indices, got {local!r}"[:200])
        local = set(local) if local is not None else {i for i in range(layers) if (i + 1) % 6}
        kinds = ["hybrid_sliding" if i in local else "hybrid" for i in range(layers)]
    if not isinstance(kinds, (list, tuple)) or len(kinds) != layers or any(k not in LAYER_TYPES for k in kinds):
        raise ArchitectureError("layer_types", f"must list 'hybrid' or 'hybrid_sliding' for each of the {layers} "
                                f"layers, got {kinds!r}"[:200])
    mlp = config.get("mlp_layer_types")
    if mlp is None:
        first = _whole(config, "dense_mlp_idx") if "dense_mlp_idx" in config else 0
        mlp = ["dense" if i < first else "sparse" for i in range(layers)]
    if not isinstance(mlp, (list, tuple)) or len(mlp) != layers or any(k not in MLP_TYPES for k in mlp):
        raise ArchitectureError("mlp_layer_types", f"must list 'dense' or 'sparse' for each of the {layers} layers, "
                                f"got {mlp!r}"[:200])
    values: dict[str, Any] = {
        "inkling_attention_layers": tuple(i for i, k in enumerate(kinds) if k == "hybrid"),
        "inkling_sliding_layers": tuple(i for i, k in enumerate(kinds) if k == "hybrid_sliding"),
        "layer_types": tuple(LAYER_TYPES[k] for k in kinds),
        "mlp_only_layers": tuple(i for i, k in enumerate(mlp) if k == "dense"),
    }
    if "sparse" in mlp:  # the experts' count by whichever of its keys the config gives last (attribute_map)
        _whole(config, [key for key in config if key in ("n_routed_experts", "num_local_experts")][-1], 1)
    else:  # no layer routes: the experts' keys size nothing
        values.update(num_experts=0, num_experts_per_tok=0)
    if not values["inkling_sliding_layers"]:  # no layer slides: the window is read by none
        values.update(sliding_window=None, inkling_swa_num_attention_heads=None,
                      inkling_swa_num_key_value_heads=None, inkling_swa_head_dim=None)
    if not values["inkling_attention_layers"]:  # the full layers' bank is built by none
        values["rel_extent"] = None
    if config.get("dense_intermediate_size") is not None:  # #49416: checkpoints name the dense width apart
        values.update(moe_intermediate_size=config["intermediate_size"],
                      intermediate_size=config["dense_intermediate_size"])
    return values



def _float32_states_note(arch: Any) -> str:
    return ("the four short convs of each layer keep their state in float32 whatever the model's dtype "
            "(InklingShortConvolution computes in float32; cache_utils.py stores what it is given): at a 16-bit dtype "
            "transformers holds twice the state bytes the cache figure prices")


TEXT = Family(
    model_type="inkling_text",
    causal_lm_class="InklingForCausalLM",
    source=TF,
    naming=NAMING,
    keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
              "head_dim", "d_rel", "rel_extent", "intermediate_size", "moe_intermediate_size",
              "num_experts_per_tok", "n_shared_experts", "max_position_embeddings", "hidden_act",
              swa_num_attention_heads="inkling_swa_num_attention_heads",
              swa_num_key_value_heads="inkling_swa_num_key_value_heads", swa_head_dim="inkling_swa_head_dim",
              sliding_window_size="sliding_window", sliding_window="sliding_window",
              conv_kernel_size="sconv_kernel_size", sconv_kernel_size="sconv_kernel_size",
              n_routed_experts="num_experts", num_local_experts="num_experts",
              model_max_length="max_position_embeddings"),
    defaults=DEFAULTS,
    # no rotary (the relative bias places tokens); the layers hold Inkling's FFNs; never tied
    switches={**LLAMA_SWITCHES, "position_embedding_type": "none", "global_scale_ffn": True,
              "tie_word_embeddings": False},
    # unpadded_vocab_size drops logits only; log scaling, route_scale, the sink, the muP multiplier, the router's
    # eps, its activation and normalisation (the release's gate_activation, norm_after_topk) are numerics;
    # local_layer_ids, mlp_layer_types, dense_mlp_idx and dense_intermediate_size are read by the rule; the MTP
    # keys describe layers the class does not build (model.mtp.* is ignored on load);
    # tie_word_embeddings: no InklingTextConfig field, and InklingForCausalLM ties nothing whatever it says
    count_neutral=frozenset({"unpadded_vocab_size", "log_scaling_n_floor", "log_scaling_alpha",
                             "local_layer_ids", "mlp_layer_types", "dense_mlp_idx", "dense_intermediate_size",
                             "shared_expert_sink", "route_scale", "logits_mup_width_multiplier",
                             "embedding_multiplier", "rms_norm_eps_moe_gate", "num_mtp_layers",
                             "chain_hidden_post_norm", "mtp_hidden_states_first", "mtp_local_layer_ids",
                             "tie_word_embeddings", "number_of_conv_states", "gate_activation",
                             "norm_after_topk"}),
    # the release's keys (thinkingmachines' config.json text_config, as its SGLang code reads it) that transformers
    # never reads, with the values that describe what InklingForCausalLM builds: the embedding norm, the short
    # convs, the global scales, the router's score correction (a buffer), no q or o bias
    expects={"use_embed_norm": True, "use_sconv": True, "use_global_scale": True, "use_gate_bias": True,
             "q_bias": False, "o_bias": False},
    derive=(inkling_layers,),
    explain=(_float32_states_note,),
)


def _towers_after_decoder(naming: Naming) -> Naming:
    """InklingModel registers language_model, audio_tower, vision_tower (then the head): the towers after the
    decoder's final norm."""
    decoder = (naming.embed, naming.layer.partition(".{i}")[0], naming.final_norm)
    return dataclasses.replace(naming, model_order=(*decoder, "model.audio_tower", "model.vision_tower",
                                                    naming.lm_head))


# InklingForConditionalGeneration (modeling_inkling.py lines 1203-1219): InklingModel (the decoder under
# language_model, then the audio and vision towers, towers/inkling.py, each whatever its sub-config's model_type says
# and given the decoder's width) and lm_head, never tied (_tied_weights_keys = {}); no projector (the towers project
# into the decoder's width themselves).  --text-only counts the decoder alone (InklingForCausalLM).
WHOLE = Whole({"model_type": "inkling_vision"}, no_projector, tie_word_embeddings=False, tie_keys=(),
              vision_kind="inkling_vision", audio_config={"model_type": "inkling_audio"}, audio_kind="inkling_audio",
              renamed=_towers_after_decoder, text_width_key="text_hidden_size")
CONDITIONAL = multimodal(TEXT, "inkling_mm_model", "transformers 5.24.0 models/inkling/configuration_inkling.py "
                         "(InklingConfig)", WHOLE, "InklingForConditionalGeneration")
# the whole config's own keys: token ids, and the MTP section InklingConfig folds into text_config (layers the class
# does not build)
CONDITIONAL = dataclasses.replace(CONDITIONAL, count_neutral=CONDITIONAL.count_neutral | {
    "image_token_id", "audio_token_id", "image_bos_token_id", "audio_bos_token_id", "mtp_config", "audio_config",
    "tie_word_embeddings"})

FAMILIES = [] if "inkling_attention" not in MIXER_MODULES else [TEXT, CONDITIONAL]
