"""layer_types and mlp_layer_types held to the depth and to the kinds transformers knows (issue #15):
PreTrainedConfig.validate_layer_type (configuration_utils.py lines 703-718, @strict) refuses a config whose layer_types,
or mlp_layer_types where the class also has layer_types, does not list one known kind per layer.  paramledger read the
lists by index and counted such a config (a longer layer_types in 62 supported types: Gemma 2 and 3, Qwen2 and 3,
Llama 4, ...; a longer mlp_layer_types in Mistral Large 4, AXK2, Cohere2-MoE, DeepSeek-V3.2, EXAONE-MoE, GLM-MoE-DSA,
MiniMax-M3; an unknown kind in 70 types); it is now refused in one line.

For mlp_layer_types, the classes that do not hold it (AXK1: no layer_types, so the check returns first; DeepSeek-V4:
its own validate_layer_type; HY-V3, GLM-4 MoE Lite, DeepSeek-OCR 2, ERNIE 4.5 VL) index the list layer by layer: one
shorter than the depth is an IndexError there (refused), one longer builds (counted, or refused by the family's own
rule), and a kind other than "sparse" is built dense (refused as a misspelling).

Found by scripts/combo_parity.py; tests/test_layer_lists.py holds every supported type with a list against
transformers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

KEY, ATTENTION_KEY = "mlp_layer_types", "layer_types"
# configuration_utils.py lines 66-99: ALLOWED_ATTN_LAYER_TYPES, ALLOWED_MLP_LAYER_TYPES, and the legacy names
# remap_legacy_layer_types renames in layer_types before the check (tests/test_layer_lists.py holds them)
ALLOWED = {ATTENTION_KEY: ("full_attention", "sliding_attention", "chunked_attention", "window_attention",
                           "indexed_attention", "compressed_sparse_attention", "heavily_compressed_attention",
                           "minimax_m3_sparse", "conv", "moe", "hybrid", "hybrid_sliding",
                           "reference_sliding_attention", "linear_attention"),
           KEY: ("sparse", "dense")}
LEGACY = {ATTENTION_KEY: ("mamba", "attention", "deepseek_sparse_attention", "qwen_sparse_attention"), KEY: ()}
# the classes that do not hold layer_types to the depth and the known kinds as given: their own validate_layer_type
# (DeepSeek-V4's builds a longer one; NeoMME's and Nemotron-H's kinds are their own), a layout their __post_init__
# rewrites first (Dory's released one interleaves "mlp" entries it drops), any kind built (the Gemma 4 classes), or
# lists that also cover MTP layers (Step 3.7's): each family's own rules read them
ATTENTION_NOT_HELD = frozenset({"deepseek_v4", "neomme", "nemotron_h", "dory", "gemma4_text", "gemma4_assistant",
                                "gemma4_unified_text", "gemma4_unified_assistant", "diffusion_gemma", "step3p7"})
NOT_HELD = frozenset({"axk1", "deepseek_v4", "hy_v3", "glm4_moe_lite", "deepseek_ocr2_text", "deepseek_ocr2",
                      "ernie4_5_vl_moe", "ernie4_5_vl_moe_text",
                      "step3p7"})
OWN_KINDS = frozenset({"deepseek_v4"})  # (its mlp_layer_types names hash_moe layers: families/deepseek_v4.py)


def check(config: Mapping[str, Any], layers: Any, model_type: str, where: str | None) -> None:
    """Refuse a given layer_types or mlp_layer_types list that is not ``layers`` (the depth, a positive int) long, or
    that names a kind transformers does not know."""
    if type(layers) is not int:
        return
    for key, not_held in ((ATTENTION_KEY, ATTENTION_NOT_HELD), (KEY, NOT_HELD)):
        kinds = config.get(key)
        if not isinstance(kinds, list) or model_type in not_held and (key == ATTENTION_KEY or model_type in OWN_KINDS):
            continue
        unknown = next((kind for kind in kinds if kind not in ALLOWED[key] and kind not in LEGACY[key]), None)
        if unknown is not None:  # (where the class does not hold it, each layer not "sparse" is built dense)
            raise ArchitectureError(key, f"{unknown!r}"[:80] + f" is not one of {', '.join(ALLOWED[key])}: " + (
                "transformers 5.24.0 refuses it (PreTrainedConfig.validate_layer_type)" if model_type not in not_held
                else "transformers 5.24.0 builds a dense layer for it, refused here as a misspelt kind"), where)
        if len(kinds) == layers:
            continue
        if model_type not in not_held:
            raise off_the_depth(key, len(kinds), layers, VALIDATED, where=where)
        if len(kinds) < layers and key == KEY:
            raise off_the_depth(key, len(kinds), layers, "cannot build it (each layer indexes the list: IndexError)",
                                where=where)


VALIDATED = "refuses it (PreTrainedConfig.validate_layer_type)"


def off_the_depth(key: str, count: int, layers: int, why: str, said: str = "",
                  where: str | None = None) -> ArchitectureError:
    """The refusal of a per-layer list of ``count`` entries for ``layers`` layers (``said``: how they were counted),
    ``why`` transformers 5.24.0 builds nothing (its class's validation, VALIDATED, or the model's own failure)."""
    return ArchitectureError(key, f"lists {count} layers, not num_hidden_layers={layers}{said}: transformers 5.24.0 "
                                  f"{why}", where)
