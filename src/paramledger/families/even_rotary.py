"""The families whose config class refuses an odd head_dim that RoPE rotates whole, and the refusal.

transformers 5.24.0's RotaryEmbeddingConfigMixin.validate_rope (modeling_rope_utils.py), run when a config is made,
raises "RoPE requires an even rotary dimension" where the config's head_dim attribute is > 4 and odd and
int(head_dim * partial_rotary_factor) == head_dim for one of its rope_parameters' layer types (a heterogeneous
config skips it; head_dim <= 4 is let through for test checkpoints).  paramledger counted such configs (Llama with
head_dim 5): they are refused in one line naming head_dim (issue #15).

EVEN_ROTARY lists the families (by the family whose table reads the config: a whole model's text family) whose
config, given head_dim 5, transformers refuses so: measured by making each supported type's smallest random config
(tests/_family_configs.py) with head_dim 5.  The others have no rope_parameters (GPT-2), keep head_dim for another
size (DeepSeek-V2's attribute is qk_rope_head_dim), rotate a part (GLM's 0.5) or are heterogeneous (Gemma 4).
tests/test_even_rotary.py checks every supported type against transformers.
"""

from __future__ import annotations

from typing import Any, Mapping

from .._exceptions import ArchitectureError

EVEN_ROTARY = frozenset({
    "afmoe", "apertus", "apertus1p5_text", "arcee", "aria_text", "axk1", "bitnet", "blt", "chameleon", "cohere",
    "cohere2", "cohere2_moe", "cohere_compass_text", "cwm", "dbrx", "deepseek_v3", "diffllama", "doge", "dory",
    "dots1", "emu3_text_model", "ernie4_5", "ernie4_5_moe", "esmc", "eurobert", "exaone", "exaone4", "exaone_moe",
    "falcon_h1",
    "flex_olmo", "flint", "gemma", "gemma2", "gemma3_text", "gemma3n", "gemma3n_text", "glm46v", "glm4_moe_lite",
    "glm4v", "glm_ocr", "glmasr", "glmga", "gpt_neox_japanese", "gpt_oss", "granite", "granite_docling",
    "granite_swa", "granitemoe", "granitemoe_swa", "granitemoehybrid", "granitemoeshared", "gte", "helium",
    "hrm_text", "hunyuan_v1_dense", "hunyuan_v1_moe", "hunyuan_vl", "hy_v3", "hyperclovax", "idefics",
    "internlm3",
    "iquestcoder", "jais2", "jetmoe", "jina_embeddings_v3", "kolibri1", "kyutai_speech_to_text", "lara_mini", "lfm2",
    "lfm2_moe", "lfm3", "llama", "llama4_text", "longcat_flash", "mellum", "minimax", "minimax_m2",
    "minimax_m3_vl_text", "ministral", "ministral3", "mistral", "mixtral", "mllama", "modernbert",
    "modernbert-decoder", "molmo2", "moshi", "muse_glimmer", "muse_spark",
    "nanochat", "nomic_bert", "olmo", "olmo2", "olmo3",
    "olmo_hybrid", "olmoe",
    "paddleocr_vl", "phi3", "phi4_multimodal", "phimoe", "qwen2", "qwen2_5_omni_thinker", "qwen2_5_vl", "qwen2_moe",
    "qwen2_vl", "qwen3", "qwen3_moe", "qwen3_omni_moe_thinker", "qwen3_vl", "qwen3_vl_moe", "qwen4_exp_text",
    "sarvam_moe", "seed_oss", "smollm3", "solar_open", "starcoder2", "ultrabert", "vaultgemma", "voxtral",
    "voxtral_realtime", "youtu", "zamba2",
    "ernie4_5_vl_moe", "evolla", "granite4_vision",  # (measured by scripts/even_rotary_types.py)
})

# Those whose config, given no head_dim, sets the attribute to hidden_size // num_attention_heads before validate_rope
# reads it (LlamaConfig.__post_init__): measured so with hidden_size = 5 × num_attention_heads.  Other classes give
# head_dim a default of their own (Qwen3's 128) or set it after the check.
DERIVED = frozenset({
    "arcee", "aria_text", "cohere2", "cohere_compass_text", "diffllama", "esmc", "eurobert", "exaone", "falcon",
    "glmasr", "hyperclovax", "jais2", "kyutai_speech_to_text", "llama", "mistral", "moshi", "nomic_bert",
    "qwen3_vl_moe", "ultrabert", "unlimited_ocr",
    "deepseek_ocr2",
})


def odd_rotary_problem(model_type: str, merged: Mapping[str, Any], arch: Any, spelt: str = "head_dim") -> str | None:
    """Why transformers refuses the config's head_dim, ``spelt`` in the config (None: it makes the config)."""
    head_dim, said = merged.get(spelt), ""  # the config's attribute: given, else hidden_size // heads
    if head_dim is not None:
        if type(head_dim) is not int or head_dim <= 4 or head_dim % 2 == 0 or model_type not in EVEN_ROTARY:
            return None  # (most configs: an even head_dim, one look)
    elif model_type not in DERIVED:
        return None
    if head_dim is None:
        head_dim = arch.head_dim or arch.hidden_size // arch.num_attention_heads
        said = f" (hidden_size {arch.hidden_size:,} // num_attention_heads {arch.num_attention_heads:,})"
    if type(head_dim) is not int or head_dim <= 4 or head_dim % 2 == 0:
        return None
    factors = [arch.partial_rotary_factor]
    if arch.sliding_partial_rotary_factor is not None:
        factors.append(arch.sliding_partial_rotary_factor)
    factor = next((factor for factor in factors if int(head_dim * factor) == head_dim), None)
    if factor is None:
        return None
    return (f"{head_dim}{said} is odd and rotated whole (partial_rotary_factor {factor}): RoPE rotates pairs "
            "(transformers' validate_rope refuses it)")


def check_odd_rotary(model_type: str, merged: Mapping[str, Any], arch: Any, key: str, where: str,
                     spelt: str = "head_dim") -> None:
    if (problem := odd_rotary_problem(model_type, merged, arch, spelt)) is not None:
        raise ArchitectureError(key, problem, where)
