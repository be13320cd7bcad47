"""Unlimited-OCR (transformers 5.24.0 models/unlimited_ocr, baidu/Unlimited-OCR; issue #16): the whole
UnlimitedOcrForConditionalGeneration, DeepSeek-OCR 2's model (modular_unlimited_ocr.py derives it from deepseek_ocr2
and got_ocr2): a SAM encoder and a CLIP encoder in one tower (towers/unlimited_ocr.py), one Linear projector, two
learned separators, the decoder under model.language_model and lm_head, tied by the whole config's
tie_word_embeddings (False).

Its decoder (UnlimitedOcrTextModel, modeling_unlimited_ocr.py lines 998-1245, 1713-1730) is DeepSeek-V3's without
latent attention: Llama's q, k, v and o, all biased by attention_bias, head_dim hidden_size // heads; fused experts, a
float32 router weight without score correction, n_shared_experts × moe_intermediate_size shared experts (biased by
mlp_bias, as the dense MLPs), the dense layers by mlp_layer_types (else the first first_k_dense_replace, 1).  Every
layer attends within a "reference" sliding window (the last sliding_window tokens and the image and prompt
tokens): no tensor of its own.

transformers registers no CausalLM for unlimited_ocr_text: the decoder is counted inside the whole model, and
--text-only is refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.unlimited_ocr import unlimited_ocr
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/unlimited_ocr/configuration_unlimited_ocr.py"

# the whole model's own vectors (named_parameters() lists a module's own parameters before its children's), then its
# towers, the projector, the decoder
ORDER = ("model.view_separator", "model.image_newline", "model.vision_tower", "model.multi_modal_projector",
         "model.language_model.embed_tokens", "model.language_model.layers", "model.language_model.norm")

def _mlp_types(config: Mapping[str, Any]) -> dict[str, Any]:
    """mlp_layer_types as UnlimitedOcrTextDecoderLayer reads it (entry i "sparse": the MoE block, else a dense MLP):
    one "dense" or "sparse" per layer, refused in one line otherwise; absent, the first first_k_dense_replace dense."""
    kinds, layers = config.get("mlp_layer_types"), config["num_hidden_layers"]
    if kinds is not None and (not isinstance(kinds, (list, tuple)) or len(kinds) != layers
                              or any(kind not in ("dense", "sparse") for kind in kinds)):
        raise ArchitectureError("mlp_layer_types", f"must list \"dense\" or \"sparse\" for each of the {layers} "
                                f"layers, got {kinds!r}"[:300])
    return _DENSE(config)


_DENSE = rules.mlp_layer_types(lambda i, config: i < config.get("first_k_dense_replace", 1))

TEXT = Family(
    model_type="unlimited_ocr",
    causal_lm_class="UnlimitedOcrForConditionalGeneration",
    naming=Naming(layer_order=EXPERTS_FIRST),
    source=TF,
    keys={**DECODER_KEYS, **same("moe_intermediate_size", "n_shared_experts", "num_experts_per_tok", "attention_bias",
                                 "mlp_bias"),
          "n_routed_experts": "num_experts", "num_experts": "num_experts"},  # attribute_map
    # UnlimitedOcrTextConfig's defaults
    defaults={"vocab_size": 129280, "hidden_size": 1280, "intermediate_size": 6848, "num_hidden_layers": 12,
              "num_attention_heads": 10, "num_key_value_heads": 10, "hidden_act": "silu",
              "max_position_embeddings": 32768, "tie_word_embeddings": False, "attention_bias": False,
              "mlp_bias": False, "n_routed_experts": 64, "n_shared_experts": 2, "num_experts_per_tok": 6,
              "moe_intermediate_size": 896, "mlp_layer_types": None, "first_k_dense_replace": 1},
    switches=LLAMA_SWITCHES,
    # head_dim is set to hidden_size // heads (UnlimitedOcrTextConfig.__post_init__); the window keeps the image and
    # prompt tokens beside the last sliding_window: the KV cache is not modelled, no tensor changes
    count_neutral=ROUTING_KEYS | {"mlp_layer_types", "first_k_dense_replace", "head_dim", "topk_method"},
    derive=(rules.output_bias_follows("attention_bias"), _mlp_types, rules.no_sliding),
)

def _language_config(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """UnlimitedOcrConfig.__post_init__: without text_config, the remote code's language_config is the decoder's,
    with the config's top-level sliding_window moved into it."""
    if config.get("text_config") is not None or config.get("language_config") is None:
        return text
    language = config["language_config"]
    if not isinstance(language, Mapping):
        raise ArchitectureError("language_config", "must be a JSON object")
    return {**language, **({"sliding_window": config["sliding_window"]} if "sliding_window" in config else {})}


CONDITIONAL = multimodal(
    TEXT, "unlimited_ocr", TF + " (UnlimitedOcrConfig, vision_config UnlimitedOcrVisionConfig: sam_config, "
    "encoder_config)",
    Whole({"model_type": "unlimited_ocr_vision"}, unlimited_ocr, projector_prefix="model.", tie_word_embeddings=False,
          text_rewritten=_language_config,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (no CausalLM is registered "
                                "for unlimited_ocr_text): count the whole model"),
    "UnlimitedOcrForConditionalGeneration")
CONDITIONAL = dataclasses.replace(CONDITIONAL, count_neutral=CONDITIONAL.count_neutral | {"image_token_id",
                                                                                          "language_config"},
                                  naming=dataclasses.replace(CONDITIONAL.naming, model_order=ORDER))

FAMILIES = [CONDITIONAL]
