"""Llama 4: MoE layers every interleave_moe_layer_step (or the listed moe_layers) with one
shared expert, experts stored (experts, in, out), dense layers intermediate_size_mlp wide;
the q/k norm is a parameter-free L2 norm.  Chunked-attention layers (RoPE layers) hold at
most attention_chunk_size keys, so they are recorded as sliding with that window."""

import dataclasses

from ..naming import Naming
from ..towers import Whole
from ..towers.llama4 import llama4 as llama4_projector
from . import _rules as rules
from ._family import Family, multimodal, same
from ._rules import layer_pattern, positive
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/llama4/configuration_llama4.py (Llama4TextConfig)"
# Llama4TextMoe: experts, router, shared_expert.
LLAMA4 = Naming(layer_order=("self_attn", "feed_forward.experts"),
                gate="feed_forward.gate_proj", up="feed_forward.up_proj", down="feed_forward.down_proj",
                router="feed_forward.router", experts_gate_up="feed_forward.experts.gate_up_proj",
                experts_down="feed_forward.experts.down_proj", experts_in_out=True,
                shared_expert="feed_forward.shared_expert")


def _llama4_layers(config):
    layers = config["num_hidden_layers"]
    moe = config.get("moe_layers")
    if moe is None:
        # (Llama4TextConfig.__post_init__: range(step - 1, layers, step), a ValueError at 0)
        step = positive("interleave_moe_layer_step", config.get("interleave_moe_layer_step"))
        moe = range(step - 1, layers, step)
    moe = set(moe)
    # Llama4TextConfig: layer i has RoPE (and chunked attention) unless no_rope_layers[i] == 0;
    # by default every no_rope_layer_interval-th layer is a global NoPE layer.
    rope = config.get("no_rope_layers") or [
        int((i + 1) % positive("no_rope_layer_interval", config.get("no_rope_layer_interval")) != 0)
        for i in range(layers)]
    chunk = config.get("attention_chunk_size")
    return {"mlp_only_layers": tuple(i for i in range(layers) if i not in moe),
            # one shared expert as wide as each routed one
            "shared_expert_intermediate_size": config["moe_intermediate_size"],
            **layer_pattern(chunk, [bool(rope[i]) for i in range(layers)])}


LLAMA4_TEXT_DEFAULTS = {
    "vocab_size": 202048, "hidden_size": 5120, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
    "num_hidden_layers": 48, "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
    "hidden_act": "silu", "max_position_embeddings": 131072, "tie_word_embeddings": False,
    "num_experts_per_tok": 1, "num_local_experts": 16, "moe_layers": None, "interleave_moe_layer_step": 1,
    "no_rope_layers": None, "no_rope_layer_interval": 4, "attention_chunk_size": 8192, "attention_bias": False,
}
LLAMA4_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias", "num_experts_per_tok"),
               "intermediate_size_mlp": "intermediate_size", "intermediate_size": "moe_intermediate_size",
               "num_local_experts": "num_experts"}
LLAMA4_NEUTRAL = ROUTING_KEYS | {"moe_layers", "interleave_moe_layer_step", "no_rope_layers",
                                 "no_rope_layer_interval", "attention_chunk_size", "use_qk_norm",
                                 "attn_temperature_tuning", "floor_scale", "attn_scale"}


FAMILIES = [
    Family(
        model_type="llama4_text",
        causal_lm_class="Llama4ForCausalLM",
        source=TF,
        naming=LLAMA4,
        keys=LLAMA4_KEYS,
        defaults=LLAMA4_TEXT_DEFAULTS,
        switches=LLAMA_SWITCHES,
        count_neutral=LLAMA4_NEUTRAL,
        derive=(rules.output_bias_follows("attention_bias"), _llama4_layers),
    ),
]
# Llama4ForConditionalGeneration: the tower (vision_model), the projector, then a whole Llama4ForCausalLM
# (language_model: its model and its head under it), which ties its head by text_config's tie_word_embeddings
# alone (Llama4Config's own ties nothing).
FAMILIES.append(multimodal(
    dataclasses.replace(FAMILIES[0], naming=dataclasses.replace(LLAMA4, lm_head="language_model.lm_head")), "llama4",
    "transformers 5.24.0 models/llama4/configuration_llama4.py (Llama4Config, Llama4VisionConfig)",
    Whole({"model_type": "llama4_vision_model"}, llama4_projector, vision_prefix="vision_model.",
          projector_prefix="multi_modal_projector.", decoder_prefix="language_model.model.", tie_word_embeddings=False,
          tie_from_text=True, tie_keys=()),
    "Llama4ForConditionalGeneration"))
