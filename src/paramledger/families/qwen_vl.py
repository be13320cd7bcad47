"""Qwen2-VL, Qwen2.5-VL, Qwen3-VL (dense and MoE) and GLM-4.1V, counted whole: the vision tower with its patch
merger under "model.visual" (towers/qwen_vl.py), the decoder under "model.language_model", the head.

Each decoder is its lineage's (Qwen2's, Qwen3's, Qwen3-MoE's, GLM-4's tensors) but its text config class has
defaults of its own (Qwen2VLTextConfig is 72B-sized) and transformers 5.24.0 registers no CausalLM for it
(qwen2_vl_text is in no CausalLM mapping), so no registered family can read it: the whole family's own table
reads text_config (the text family is written here under the whole model's model_type), and --text-only counts
that decoder under the whole model's names.  docs/notes/multimodal-g.md has the shared change that would register
the text decoders by their own types instead."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..towers import Whole
from ..towers.images import qwen2_vl as qwen2_vl_images
from ..towers.qwen_vl import none
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES, ROUTING_KEYS
from .glm import FAMILIES as GLM
from .llama import FAMILIES as LLAMA_LINE
from .moe import FAMILIES as MOE

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py ({1})"
QWEN2, QWEN3 = (next(f for f in LLAMA_LINE if f.model_type == name) for name in ("qwen2", "qwen3"))
QWEN3_MOE = next(f for f in MOE if f.model_type == "qwen3_moe")
GLM4 = next(f for f in GLM if f.model_type == "glm4")
# Qwen2VLTextConfig and Qwen2_5_VLTextConfig (the same defaults): Qwen2's decoder, q/k/v biased, o never
QWEN2_VL_TEXT = {"vocab_size": 152064, "hidden_size": 8192, "intermediate_size": 29568, "num_hidden_layers": 80,
                 "num_attention_heads": 64, "num_key_value_heads": 8, "hidden_act": "silu",
                 "max_position_embeddings": 32768, "use_sliding_window": False, "sliding_window": 4096,
                 "max_window_layers": 80, "tie_word_embeddings": False}


# A flat config's image and video token ids, read beside the decoder's keys at its top level (text_at_top)
FLAT_TOKEN_IDS = frozenset({"image_token_id", "video_token_id", "vision_start_token_id", "vision_end_token_id",
                            "vision_token_id"})


def _text(parent: Family, model_type: str, cls: str, **changes) -> Family:
    """``parent``'s decoder read under the whole model's model_type (see the module's docstring)."""
    return Family(**{**{f: getattr(parent, f) for f in ("naming", "keys", "switches", "count_neutral", "derive")},
                     "model_type": model_type, "causal_lm_class": cls, "source": parent.source, **changes})


def _flat_text(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """Qwen2VLConfig.__post_init__ (configuration_qwen2_vl.py lines 169-177; Qwen2_5_VLConfig's, lines 192-199): a flat
    config's text keys are those Qwen2VLTextConfig.__init__ takes (and rope_parameters, rope_scaling, rope_theta).
    head_dim is no field of it: it stays on the whole config, and validate_rope never reads it with the text's RoPE."""
    if config.get("text_config") is None and "head_dim" in text:
        return {key: value for key, value in text.items() if key != "head_dim"}
    return text


def _qwen2_vl(model_type: str, cls: str, configs: str) -> Family:
    """Qwen2-VL and Qwen2.5-VL (identical but for their names and towers): Qwen2's decoder, read from the top level
    of a flat release config; a pre-v5 config's text_config.tie_word_embeddings ties the whole model
    (Qwen2VLConfig.__post_init__)."""
    # (not Qwen2's head_dim: Qwen2VLAttention is hidden_size // num_heads wide, only its rotary reads a given one)
    return multimodal(_text(QWEN2, model_type, cls, defaults=QWEN2_VL_TEXT,
                            keys={key: name for key, name in QWEN2.keys.items() if key != "head_dim"},
                            count_neutral=QWEN2.count_neutral | FLAT_TOKEN_IDS),
                      model_type, TF.format(model_type, configs),
                      Whole({"model_type": f"{model_type}_vision"}, none, vision_prefix="model.visual.",
                            tie_word_embeddings=False, tie_from_text=True, text_at_top=True,
                            image_tokens=qwen2_vl_images, text_rewritten=_flat_text), cls)


FAMILIES = [
    _qwen2_vl("qwen2_vl", "Qwen2VLForConditionalGeneration", "Qwen2VLConfig, Qwen2VLTextConfig"),
    _qwen2_vl("qwen2_5_vl", "Qwen2_5_VLForConditionalGeneration", "Qwen2_5_VLConfig, Qwen2_5_VLTextConfig"),
    # Qwen3VLTextConfig: Qwen3's decoder (q/k norms per head), attention_bias on q, k, v and o, never sliding
    multimodal(_text(QWEN3, "qwen3_vl", "Qwen3VLForConditionalGeneration",
                     defaults={"vocab_size": 151936, "hidden_size": 4096, "intermediate_size": 22016,
                               "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
                               "head_dim": 128, "hidden_act": "silu", "max_position_embeddings": 128000,
                               "attention_bias": False, "tie_word_embeddings": False},
                     derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding)),
               "qwen3_vl", TF.format("qwen3_vl", "Qwen3VLConfig, Qwen3VLTextConfig"),
               Whole({"model_type": "qwen3_vl_vision"}, none, vision_prefix="model.visual.",
                     tie_word_embeddings=False),
               "Qwen3VLForConditionalGeneration"),
    # Qwen3VLMoeTextConfig: Qwen3-MoE's decoder; its tie_word_embeddings (True) ties nothing: the whole model
    # ties by Qwen3VLMoeConfig's own (False), which forwards no text_config value
    multimodal(_text(QWEN3_MOE, "qwen3_vl_moe", "Qwen3VLMoeForConditionalGeneration",
                     defaults={"vocab_size": 151936, "hidden_size": 2048, "intermediate_size": 5632,
                               "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16,
                               "head_dim": None, "hidden_act": "silu", "max_position_embeddings": 128000,
                               "tie_word_embeddings": True, "attention_bias": False, "decoder_sparse_step": 1,
                               "moe_intermediate_size": 1408, "num_experts_per_tok": 4, "num_experts": 60,
                               "mlp_only_layers": None},
                     keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size",
                                                  "num_experts", "num_experts_per_tok"),
                           "num_local_experts": "num_experts"},
                     count_neutral=ROUTING_KEYS | {"decoder_sparse_step"},
                     derive=(rules.output_bias_follows("attention_bias"), rules.sparse_step, rules.no_sliding)),
               "qwen3_vl_moe", TF.format("qwen3_vl_moe", "Qwen3VLMoeConfig, Qwen3VLMoeTextConfig"),
               Whole({"model_type": "qwen3_vl_moe_vision"}, none, vision_prefix="model.visual.",
                     tie_word_embeddings=False),
               "Qwen3VLMoeForConditionalGeneration"),
    # Glm4vTextConfig: GLM-4's decoder (sandwich norms, fused gate_up, q/k/v biased, o never), rotating the whole
    # head (no partial_rotary_factor default), no head_dim key
    multimodal(_text(GLM4, "glm4v", "Glm4vForConditionalGeneration",
                     keys=DECODER_KEYS,
                     defaults={"vocab_size": 151552, "hidden_size": 4096, "intermediate_size": 13696,
                               "num_hidden_layers": 40, "num_attention_heads": 32, "num_key_value_heads": 2,
                               "hidden_act": "silu", "max_position_embeddings": 32768, "tie_word_embeddings": False},
                     switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "attention_bias": True,
                               "attention_output_bias": False}),
               "glm4v", TF.format("glm4v", "Glm4vConfig, Glm4vTextConfig"),
               Whole({"model_type": "glm4v_vision"}, none, vision_prefix="model.visual.",
                     tie_word_embeddings=False, tie_from_text=True),
               "Glm4vForConditionalGeneration"),
]
