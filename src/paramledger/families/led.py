"""LED counted whole (transformers 5.24.0 models/led, LEDForConditionalGeneration; no CausalLM is registered): BART's
decoder and an encoder of Longformer's attention, under "led." (LEDForConditionalGeneration.led).

Identical to bart's whole model except: the modules under "led." not "model."; learned positions with no offset,
max_decoder_position_embeddings rows in the decoder and max_encoder_position_embeddings in the encoder
(LEDLearnedPositionalEmbedding); the encoder's self-attention Longformer's (LEDEncoderSelfAttention:
longformer_self_attn.query, key, value and their _global twins, each biased, then self_attn.output; the global
projections are parts/global_attention.py's)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..towers import whole_naming
from .bart import BART, BART_NAMING, DECODER_KEYS, ENCODER_SIDE, TF, _defaults, _seq2seq
from ._family import derived_from
from .longformer import attention_windows

ATTENTION = "self_attn.longformer_self_attn"
ENCODER_NAMES = (
    ("q", f"{ATTENTION}.query"), ("k", f"{ATTENTION}.key"), ("v", f"{ATTENTION}.value"), ("o", "self_attn.output"),
    ("global_q", f"{ATTENTION}.query_global"), ("global_k", f"{ATTENTION}.key_global"),
    ("global_v", f"{ATTENTION}.value_global"),
    ("layer_order", (f"{ATTENTION}.query", f"{ATTENTION}.key", f"{ATTENTION}.value", f"{ATTENTION}.query_global",
                     f"{ATTENTION}.key_global", f"{ATTENTION}.value_global", "self_attn.output",
                     "self_attn_layer_norm", "fc1", "fc2", "final_layer_norm")))

WHOLE_LED = _seq2seq("LEDForConditionalGeneration", 12, 4096, 16, shared="led.shared", decoder="led.decoder",
                     encoder="led.encoder", encoder_fields={"global_attention_projections": True},
                     encoder_naming=ENCODER_NAMES)
# the encoder's own position table: max_encoder_position_embeddings rows
WHOLE_LED = WHOLE_LED._replace(keys={**WHOLE_LED.keys, "max_encoder_position_embeddings": "max_position_embeddings"},
                               defaults={**WHOLE_LED.defaults, "max_encoder_position_embeddings": 16384})



def encoder_windows(config: Mapping[str, Any]) -> dict[str, Any]:
    """attention_window: one even positive window for each of the encoder's layers (LEDEncoderSelfAttention)."""
    return attention_windows({**WHOLE_LED.defaults, **config}, "encoder_layers")


LED = derived_from(
    BART, model_type="led", causal_lm_class="LEDForConditionalGeneration", source=TF.format("led"),
    naming=whole_naming(dataclasses.replace(BART_NAMING, position_offset=0), "led."),
    keys={**{key: field for key, field in DECODER_KEYS.items() if key != "max_position_embeddings"},
          "max_decoder_position_embeddings": "max_position_embeddings"},
    defaults={**{key: value for key, value in _defaults(50265, 1024, 12, 4096, 16, 1024).items()
                 if key != "max_position_embeddings"}, "max_decoder_position_embeddings": 1024},
    count_neutral=ENCODER_SIDE | {"max_encoder_position_embeddings", "attention_window"},
    seq2seq=WHOLE_LED, expects={},
    derive=(*BART.derive, encoder_windows))

FAMILIES = [LED]
