"""BLIP (transformers 5.24.0 models/blip: BlipForConditionalGeneration, the image-captioning model the
image-text-to-text mapping builds), counted whole: BLIP's vision model under vision_model (BLIP-2's tower, its
layout the same: towers/qformer.py's, blip_vision_model's defaults: 384-pixel images of 16-pixel patches) and the
text decoder under text_decoder, BlipTextLMHeadModel: BERT's names (bert.embeddings without a token-type table,
bert.encoder.layer.{i} with a crossattention block in every layer where is_decoder, its key and value reading
encoder_hidden_size, which BlipConfig.__post_init__ sets to the vision tower's width; no pooler) and BERT's MLM head
(cls.predictions, its decoder tied to the word table and its bias to cls.predictions.bias where either the whole
config's tie_word_embeddings or text_config's says so, both True by default; checked for each unset, false and true).
No projector: the decoder's cross-attention reads the tower's features.  The text decoder alone
(BlipTextLMHeadModel) is in no Auto mapping: --text-only is refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole, no_projector
from ._family import derived_from, multimodal
from .bert import FAMILIES as BERT_FAMILIES

BERT = BERT_FAMILIES[0]  # BERT's table reading add_cross_attention


def decoder_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """BlipTextLayer: a crossattention block in every layer where is_decoder (BlipTextConfig: True), its key and value
    encoder_hidden_size wide (BlipTextSelfAttention, modeling_blip_text.py)."""
    decoder = config.get("is_decoder", True)
    if not isinstance(decoder, bool):
        raise ArchitectureError("is_decoder", f"must be true or false, got {decoder!r}"[:200])
    return {"add_cross_attention": decoder, "type_vocab_size": None,
            "cross_attention_hidden_size": config["encoder_hidden_size"] if decoder else None}


def tower_width(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """BlipConfig.__post_init__: the text's encoder_hidden_size is the vision tower's hidden_size, whatever
    text_config says (a vision_config that is no object is refused when the tower is read)."""
    vision = config.get("vision_config")
    vision = vision if isinstance(vision, Mapping) else {}
    return {**text, "encoder_hidden_size": vision.get("hidden_size", 768)}


def tower_first(naming: Naming) -> Naming:
    """BlipForConditionalGeneration registers vision_model before text_decoder."""
    return dataclasses.replace(naming, model_order=("vision_model", *naming.model_order))


# BlipTextConfig: identical to BERT's table (read under the whole model's model_type: no Auto class builds the text
# decoder alone) except its defaults, no token-type table and the cross-attention of decoder_layers
TEXT = derived_from(
    BERT, model_type="blip", causal_lm_class="BlipForConditionalGeneration",
    naming=dataclasses.replace(BERT.naming, model_buffers=BERT.naming.model_buffers[:1]),  # (no token_type_ids)
    keys={key: field for key, field in BERT.keys.items() if key not in ("type_vocab_size", "add_cross_attention")},
    defaults={"vocab_size": 30524, "hidden_size": 768, "encoder_hidden_size": 768, "intermediate_size": 3072,
              "num_hidden_layers": 12, "num_attention_heads": 8, "max_position_embeddings": 512, "hidden_act": "gelu",
              "is_decoder": True, "tie_word_embeddings": True},
    count_neutral=BERT.count_neutral | {"encoder_hidden_size", "projection_dim", "label_smoothing", "sep_token_id"},
    requires={}, expects={}, explain=(), derive=(decoder_layers,))

FAMILIES = [multimodal(
    TEXT, "blip", "transformers 5.24.0 models/blip/configuration_blip.py (BlipConfig: text_config BlipTextConfig, "
    "vision_config BlipVisionConfig)",
    Whole({"model_type": "blip_vision_model"}, no_projector, vision_prefix="vision_model.",
          projector_prefix="", decoder_prefix="text_decoder.", decoder_roots=("bert.", "cls."), tie_from_text=True,
          vision_kind="blip_vision_model", renamed=tower_first, text_rewritten=tower_width,
          decoder_alone_refused="the text decoder alone (BlipTextLMHeadModel) is in no Auto mapping transformers "
                                "builds: count the whole model"),
    "BlipForConditionalGeneration")]
