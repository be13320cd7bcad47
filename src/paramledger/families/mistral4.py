"""Mistral 4 (Mistral4ForCausalLM, which transformers 5.24.0 also maps for image-text-to-text): DeepSeek-V3's
decoder.  transformers 5.24.0 models/mistral4/modular_mistral4.py: Mistral4Attention is DeepseekV3Attention (MLA,
q_lora_rank null for a plain q_proj), Mistral4MoE DeepseekV3MoE (fused experts, shared experts) and the dense MLP
Qwen2MoeMLP at intermediate_size, Mistral4Model DeepseekV3Model; first_k_dense_replace places the dense layers."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .deepseek import FAMILIES as DEEPSEEK
from .even_rotary import rope_width_problem

DEEPSEEK_V3 = next(family for family in DEEPSEEK if family.model_type == "deepseek_v3")


def mistral4_rope(config: Mapping[str, Any]) -> dict[str, Any]:
    """A rotary transformers cannot make refused (Mistral4Config.__post_init__, configuration_mistral4.py lines 110-134:
    YaRN by default, head_dim qk_nope_head_dim + qk_rope_head_dim rotated by qk_rope_head_dim / head_dim unless the
    dict gives its own factor; families/even_rotary.py rope_width_problem)."""
    rope, given = config.get("rope_parameters"), config.get("rope_scaling")
    head = config["qk_nope_head_dim"] + config["qk_rope_head_dim"]
    if rope is None:
        rope = {"type": "yarn", "factor": 128.0}
    if not isinstance(rope, Mapping) or type(head) is not int or head <= 0:
        return {}
    factor = rope.get("partial_rotary_factor", config["qk_rope_head_dim"] / head)
    if given:  # (convert_rope_params_to_dict puts rope_scaling in its place, unfilled)
        rope, factor = given, given.get("partial_rotary_factor", config.get("partial_rotary_factor", 1.0))
    if not isinstance(rope, Mapping) or any(isinstance(value, Mapping) for value in rope.values()) or type(
            factor) not in (int, float):
        return {}
    if head > 4 and head % 2 and int(head * factor) == head:  # (validate_rope, modeling_rope_utils.py 897-911)
        raise ArchitectureError("qk_rope_head_dim", f"{config['qk_rope_head_dim']} with qk_nope_head_dim "
                                f"{config['qk_nope_head_dim']} makes an odd head_dim ({head}) rotated whole: RoPE "
                                "rotates pairs (transformers' validate_rope refuses it)")
    if (problem := rope_width_problem(rope, head, factor)) is not None:
        raise ArchitectureError("rope_parameters", problem)
    return {}


# identical to DeepSeek-V3 except: its router (DeepseekV2TopkRouter's softmax over groups) holds no
# e_score_correction_bias, and Mistral4Config's defaults; rope_interleave, n_group and topk_group change no tensor
FAMILIES = [derived_from(
    DEEPSEEK_V3, model_type="mistral4", causal_lm_class="Mistral4ForCausalLM",
    naming=dataclasses.replace(DEEPSEEK_V3.naming, router_score_bias=None),
    source="transformers 5.24.0 models/mistral4/configuration_mistral4.py (Mistral4Config)",
    defaults={"vocab_size": 131072, "hidden_size": 4096, "intermediate_size": 12288, "moe_intermediate_size": 2048,
              "num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 32, "n_shared_experts": 1,
              "n_routed_experts": 128, "kv_lora_rank": 256, "q_lora_rank": 1024, "qk_rope_head_dim": 64,
              "v_head_dim": 128, "qk_nope_head_dim": 64, "num_experts_per_tok": 4, "first_k_dense_replace": 0,
              "hidden_act": "silu", "max_position_embeddings": 1048576, "tie_word_embeddings": False,
              "attention_bias": False},
    count_neutral=DEEPSEEK_V3.count_neutral | {"rope_interleave", "n_group", "topk_group", "routed_scaling_factor",
                                               "pretraining_tp"},
    derive=(*DEEPSEEK_V3.derive, mistral4_rope))]
