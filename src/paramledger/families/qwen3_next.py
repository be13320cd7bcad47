"""Qwen3-Next and Qwen3.5: Gated DeltaNet (linear attention) layers beside full-attention layers, by
layer_types (by default three linear layers, then a full one).  The full-attention layers carry Qwen3's
q/k norms and an output gate whose rows q_proj holds after the queries' (2 × heads × head_dim); the
FFN is routed experts with a gated shared expert (Qwen3-Next, Qwen3.5-MoE) or dense (Qwen3.5)
(modeling_qwen3_next.py, modeling_qwen3_5.py, modeling_qwen3_5_moe.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.qwen_vl import none
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
LINEAR, FULL = "linear_attention", "full_attention"
LINEAR_KEYS = ("linear_num_value_heads", "linear_num_key_heads", "linear_key_head_dim", "linear_value_head_dim",
               "linear_conv_kernel_dim")
KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias", *LINEAR_KEYS)}
MOE_KEYS = {**{k: v for k, v in KEYS.items() if k != "intermediate_size"},
            **same("num_experts", "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size")}
LINEAR_DEFAULTS = {"linear_conv_kernel_dim": 4, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
                   "linear_num_key_heads": 16, "linear_num_value_heads": 32}
# full_attention_interval: read by gated_deltanet_layers when the config gives no layer_types
# (the config classes' __post_init__ pops it). mtp_*: the checkpoints' multi-token-prediction block
# (mtp.*), which the ForCausalLM classes do not build, as DeepSeek's num_nextn_predict_layers.
NEUTRAL = frozenset({"full_attention_interval", "mtp_num_hidden_layers", "mtp_use_dedicated_embeddings",
                     "mamba_ssm_dtype"})  # the Gated DeltaNet state's dtype
# Qwen3.5's configs say attn_output_gate true: the gate every one of these classes builds into q_proj
# (none reads the key).
EXPECTS = {"attn_output_gate": True}


def gated_deltanet_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen3NextConfig.__post_init__ (and Qwen3.5's): layer_types as given, else layer i is full attention
    when (i + 1) is a multiple of full_attention_interval (4) and linear attention otherwise; the Gated
    DeltaNet's sizes mean something only when some layer is linear.  No layer slides."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if types is None:
        interval = config.get("full_attention_interval", 4)
        if not interval:  # transformers divides by it
            raise ArchitectureError("full_attention_interval", f"must be positive, got {interval!r}")
        types = [LINEAR if (i + 1) % interval else FULL for i in range(layers)]
    if not isinstance(types, (list, tuple)):
        raise ArchitectureError("layer_types", f"must be a list, got {types!r}")
    if len(types) != layers:
        raise ArchitectureError("layer_types", f"has {len(types)} entries for num_hidden_layers={layers}")
    wrong = next((kind for kind in types if kind not in (LINEAR, FULL)), None)
    if wrong is not None:
        raise ArchitectureError("layer_types", f"{wrong!r} is not {LINEAR} or {FULL} (transformers 5.24.0 builds "
                                "no token mixer for it)")
    linear = tuple(i for i, kind in enumerate(types) if kind == LINEAR)
    out: dict[str, Any] = {"linear_attention_layers": linear, "sliding_window": None, "layer_types": ()}
    if not linear:
        out.update(dict.fromkeys(LINEAR_KEYS))
    return out


SWITCHES = {**LLAMA_SWITCHES, "qk_norm": "head", "attention_output_gate": "per_channel"}
# Qwen3_5GatedDeltaNet registers dt_bias, A_log, conv1d, norm and out_proj before its input projections.
QWEN3_5_LINEAR = ("linear_attn.dt_bias", "linear_attn.A_log", "linear_attn.conv1d", "linear_attn.norm",
                  "linear_attn.out_proj")
NAMING = Naming(attn_gate_in_q=True, layer_order=QWEN3_5_LINEAR)
MOE_SWITCHES = {**SWITCHES, "shared_expert_gate": True}
# Qwen3NextGatedDeltaNet: dt_bias, A_log, conv1d, then in_proj_qkvz, in_proj_ba, norm, out_proj.
QWEN3_NEXT_NAMING = Naming(layer_order=("linear_attn.dt_bias", "linear_attn.A_log", "linear_attn.conv1d"),
                           attn_gate_in_q=True, shared_expert="mlp.shared_expert",
                           linear_qkvz="linear_attn.in_proj_qkvz", linear_ba="linear_attn.in_proj_ba")
MOE_NAMING = Naming(attn_gate_in_q=True, shared_expert="mlp.shared_expert", layer_order=QWEN3_5_LINEAR)
DERIVE = (rules.output_bias_follows("attention_bias"), gated_deltanet_layers)

FAMILIES = [
    Family(
        model_type="qwen3_next",
        causal_lm_class="Qwen3NextForCausalLM",
        source=TF.format("qwen3_next"),
        # Layers in mlp_only_layers or off the decoder_sparse_step grid are dense (intermediate_size).
        naming=QWEN3_NEXT_NAMING,
        keys={**KEYS, **same("num_experts", "num_experts_per_tok", "moe_intermediate_size",
                             "shared_expert_intermediate_size")},
        defaults={"partial_rotary_factor": 0.25,
                  "vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 48,
                  "num_attention_heads": 16, "num_key_value_heads": 2, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "attention_bias": False,
                  "head_dim": 256, **LINEAR_DEFAULTS, "decoder_sparse_step": 1, "moe_intermediate_size": 512,
                  "shared_expert_intermediate_size": 512, "num_experts_per_tok": 10, "num_experts": 512,
                  "mlp_only_layers": None, "layer_types": None},
        switches=MOE_SWITCHES,
        count_neutral=ROUTING_KEYS | NEUTRAL | {"decoder_sparse_step"},
        expects=EXPECTS,
        derive=(*DERIVE, rules.sparse_step),
    ),
    Family(
        model_type="qwen3_5_text",
        causal_lm_class="Qwen3_5ForCausalLM",
        source=TF.format("qwen3_5") + " (Qwen3_5TextConfig)",
        naming=NAMING,
        keys=KEYS,
        defaults={"partial_rotary_factor": 0.25,
                  "vocab_size": 248320, "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 32,
                  "num_attention_heads": 16, "num_key_value_heads": 4, "hidden_act": "silu",
                  "max_position_embeddings": 32768, "tie_word_embeddings": False, "attention_bias": False,
                  "head_dim": 256, **LINEAR_DEFAULTS, "layer_types": None},
        switches=SWITCHES,
        count_neutral=NEUTRAL,
        expects=EXPECTS,
        derive=DERIVE,
    ),
    Family(
        model_type="qwen3_5_moe_text",
        causal_lm_class="Qwen3_5MoeForCausalLM",
        source=TF.format("qwen3_5_moe") + " (Qwen3_5MoeTextConfig)",
        # Every layer routed (Qwen3_5MoeDecoderLayer): the class has no intermediate_size.
        naming=MOE_NAMING,
        keys=MOE_KEYS,
        defaults={"partial_rotary_factor": 0.25,
                  "vocab_size": 248320, "hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 16,
                  "num_key_value_heads": 2, "hidden_act": "silu", "max_position_embeddings": 32768,
                  "tie_word_embeddings": False, "attention_bias": False, "head_dim": 256, **LINEAR_DEFAULTS,
                  "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512, "num_experts_per_tok": 8,
                  "num_experts": 256, "layer_types": None},
        switches=MOE_SWITCHES,
        count_neutral=ROUTING_KEYS | NEUTRAL,
        expects=EXPECTS,
        derive=DERIVE,
    ),
]
# Qwen3.5 and Qwen3.5-MoE counted whole (Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration):
# Qwen3-VL's vision tower without its deepstack mergers under "model.visual" (towers/qwen3_5.py), the decoder under
# "model.language_model", the head tied by the whole config's tie_word_embeddings alone (False).
FAMILIES += [
    multimodal(FAMILIES[1], "qwen3_5", TF.format("qwen3_5") + " (Qwen3_5Config, Qwen3_5VisionConfig)",
               Whole({"model_type": "qwen3_5_vision"}, none, vision_prefix="model.visual.", tie_word_embeddings=False),
               "Qwen3_5ForConditionalGeneration"),
    multimodal(FAMILIES[2], "qwen3_5_moe", TF.format("qwen3_5_moe") + " (Qwen3_5MoeConfig, Qwen3_5MoeVisionConfig)",
               Whole({"model_type": "qwen3_5_moe_vision"}, none, vision_prefix="model.visual.",
                     tie_word_embeddings=False),
               "Qwen3_5MoeForConditionalGeneration"),
]
