"""Qwen2.5-Omni's thinker (Qwen2_5OmniThinkerForConditionalGeneration), counted whole: its audio encoder under
"model.audio_tower", its vision encoder under "model.visual" (towers/qwen2_5_omni.py; the audio proj and the vision
merger inside them are the projector), then the decoder under "model.language_model" and the head, tied by the whole
config's tie_word_embeddings alone (False; checked for it and text_config's, each unset, false and true).

The decoder is Qwen2's (q, k and v biased, o not) with Qwen2_5OmniTextConfig's defaults; transformers 5.24.0 registers
no CausalLM for qwen2_5_omni_text, so it is read by Qwen2's table under the thinker's own type, as families/qwen_vl.py
reads Qwen2-VL's (--text-only counts it under the whole model's names)."""

from ..towers import Whole
from ..towers.qwen_vl import none
from . import _rules as rules
from ._family import derived_from, multimodal
from .llama import FAMILIES as LLAMA
from .moe import FAMILIES as MOE

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")
# transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniTextConfig)
THINKER_TEXT = derived_from(QWEN2, model_type="qwen2_5_omni_thinker", defaults={
    "vocab_size": 152064, "hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
    "num_attention_heads": 28, "num_key_value_heads": 4, "hidden_act": "silu", "max_position_embeddings": 32768,
    "tie_word_embeddings": True, "use_sliding_window": False, "sliding_window": None, "max_window_layers": 28})

FAMILIES = [
    multimodal(THINKER_TEXT, "qwen2_5_omni_thinker",
               "transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniThinkerConfig, "
               "Qwen2_5OmniTextConfig)",
               Whole({"model_type": "qwen2_5_omni_vision_encoder"}, none, vision_prefix="model.visual.",
                     audio_config={"model_type": "qwen2_5_omni_audio_encoder"}, tie_word_embeddings=False),
               "Qwen2_5OmniThinkerForConditionalGeneration"),
]

QWEN3_MOE = next(family for family in MOE if family.model_type == "qwen3_moe")


def floored_head_dim(config) -> dict:
    """head_dim, when the config gives none, is hidden_size // num_attention_heads, floored
    (Qwen3OmniMoeThinkerTextAttention reads it by getattr: 2048 // 28 = 73 at the defaults)."""
    if config.get("head_dim") is not None:
        return {}
    return {"head_dim": config["hidden_size"] // config["num_attention_heads"]}


# transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeTextConfig): Qwen3-MoE's
# decoder (q/k norms per head, packed experts), read under the thinker's own type for the same reason.
OMNI_MOE_TEXT = derived_from(QWEN3_MOE, model_type="qwen3_omni_moe_thinker", defaults={
    "vocab_size": 3584, "hidden_size": 2048, "intermediate_size": 18944, "num_hidden_layers": 28,
    "num_attention_heads": 28, "num_key_value_heads": 4, "hidden_act": "silu", "max_position_embeddings": 32768,
    "tie_word_embeddings": False, "attention_bias": False, "sliding_window": None, "decoder_sparse_step": 1,
    "moe_intermediate_size": 768, "num_experts_per_tok": 8, "num_experts": 128, "mlp_only_layers": None},
    derive=(*QWEN3_MOE.derive[:2], rules.no_sliding, floored_head_dim))  # its attention sets sliding_window None

# Qwen3OmniMoeThinkerForConditionalGeneration: audio_tower, visual, language_model, lm_head; tied by the whole
# config's key alone (False; checked as the Qwen2.5-Omni thinker's).
FAMILIES.append(multimodal(
    OMNI_MOE_TEXT, "qwen3_omni_moe_thinker",
    "transformers 5.24.0 models/qwen3_omni_moe/configuration_qwen3_omni_moe.py (Qwen3OmniMoeThinkerConfig, "
    "Qwen3OmniMoeTextConfig)",
    Whole({"model_type": "qwen3_omni_moe_vision_encoder"}, none, vision_prefix="model.visual.",
          audio_config={"model_type": "qwen3_omni_moe_audio_encoder"}, tie_word_embeddings=False),
    "Qwen3OmniMoeThinkerForConditionalGeneration"))
