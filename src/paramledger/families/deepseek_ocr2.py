"""DeepSeek-OCR 2 (transformers 5.24.0 models/deepseek_ocr2; issue #16): the whole
DeepseekOcr2ForConditionalGeneration: view_separator, the vision tower (a SAM encoder, a Qwen2-style encoder and two
query tables: towers/deepseek_ocr2.py), one biased Linear projector, the decoder under model.language_model and
lm_head, tied by the whole config's tie_word_embeddings (False).

Its decoder (DeepseekOcr2TextModel, modeling_deepseek_ocr2.py lines 1015-1300) is Unlimited-OCR's
(families/unlimited_ocr.py, which modular_unlimited_ocr.py derives from it) except DeepseekOcr2TextConfig's defaults
and mlp_layer_types, which the class leaves None and DeepseekOcr2TextDecoderLayer indexes (line 1221): required, as
transformers cannot build the decoder without it (reference.DEFAULTS_NEED gives the release's: the first layer
dense, the rest sparse).  No sliding window.

transformers registers no CausalLM for deepseek_ocr2_text: --text-only is refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.deepseek_ocr2 import deepseek_ocr2
from . import _rules as rules
from ._family import derived_from, multimodal
from .unlimited_ocr import TEXT as UNLIMITED_TEXT
from .unlimited_ocr import _mlp_types

TF = "transformers 5.24.0 models/deepseek_ocr2/configuration_deepseek_ocr2.py"
ORDER = ("model.view_separator", "model.vision_tower", "model.multi_modal_projector",
         "model.language_model.embed_tokens", "model.language_model.layers", "model.language_model.norm")


def _required_mlp_types(config: Mapping[str, Any]) -> dict[str, Any]:
    """mlp_layer_types, one "dense" or "sparse" per layer: DeepseekOcr2TextConfig leaves it None and the layer
    indexes it, so a config without it is refused as transformers fails on it."""
    if config.get("mlp_layer_types") is None:
        raise ArchitectureError("text_config.mlp_layer_types", "missing (required: transformers 5.24.0 cannot build this family "
                                "without it)")
    try:
        return _mlp_types(config)
    except ArchitectureError as error:  # read from text_config: said so
        raise ArchitectureError(f"text_config.{error.key}", error.message) from None


def _top_k_or_all(config: Mapping[str, Any]) -> dict[str, Any]:
    """num_experts_per_tok, or every routed expert when the config leaves it null (rules.top_k_or_all), the experts
    read through the attribute_map's num_experts where given."""
    top_k = config.get("num_experts_per_tok")
    return {"num_experts_per_tok": top_k if top_k is not None else config.get("num_experts",
                                                                              config.get("n_routed_experts"))}


# identical to Unlimited-OCR's decoder except DeepseekOcr2TextConfig's defaults (lines 203-240) and the required
# mlp_layer_types
TEXT = derived_from(
    UNLIMITED_TEXT, model_type="deepseek_ocr2", causal_lm_class="DeepseekOcr2ForConditionalGeneration", source=TF,
    defaults={"vocab_size": 102400, "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
              "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
              "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
              "mlp_bias": False, "n_routed_experts": 64, "n_shared_experts": 2, "num_experts_per_tok": None,
              "moe_intermediate_size": 1407, "mlp_layer_types": None},
    count_neutral=UNLIMITED_TEXT.count_neutral | {"pretraining_tp", "n_group", "topk_group"},
    derive=(rules.output_bias_follows("attention_bias"), _required_mlp_types, _top_k_or_all, rules.no_sliding))

WHOLE = multimodal(
    TEXT, "deepseek_ocr2", TF + " (DeepseekOcr2Config, vision_config DeepseekOcr2VisionConfig: sam_config, "
    "encoder_config)",
    Whole({"model_type": "deepseek_ocr2_vision"}, deepseek_ocr2, projector_prefix="model.", tie_word_embeddings=False,
          vision_kind="deepseek_ocr2_vision",
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (no CausalLM is registered "
                                "for deepseek_ocr2_text): count the whole model"),
    "DeepseekOcr2ForConditionalGeneration")
FAMILIES = [dataclasses.replace(WHOLE, count_neutral=WHOLE.count_neutral | {"image_token_id"},
                                naming=dataclasses.replace(WHOLE.naming, model_order=ORDER))]
