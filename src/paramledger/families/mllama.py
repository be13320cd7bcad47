"""Llama 3.2 Vision's text decoder as MllamaForCausalLM builds (transformers 5.24.0 models/mllama/modeling_mllama.py):
Llama's layers, with gated cross-attention layers in place of self-attention at cross_attention_layers.

Identical to Llama (MllamaTextConfig, MllamaTextModel, MllamaForCausalLM) except: the layers cross_attention_layers
lists are MllamaCrossAttentionDecoderLayer (parts/gated_cross_attention.py: two gates, cross_attn, then its
input_layernorm; the FFN and post_attention_layernorm as Llama's); the token table holds vocab_size + 8 rows, the
head vocab_size (nn.Embedding(config.vocab_size + 8, ...)), and nothing is ever tied (MllamaForCausalLM declares no
tied weights: tie_word_embeddings changes nothing); head_dim is hidden_size // num_attention_heads (not a key).
MllamaForCausalLM builds only the text decoder, from text_config (MllamaConfig.get_text_config()): that is what
--text-only counts.  The mllama type is counted whole, as MllamaForConditionalGeneration builds it (AutoModelForImage-
TextToText): model.vision_model (towers/mllama.py), model.language_model (this decoder), model.multi_modal_projector
(registered after the decoder), lm_head (never tied: its _tied_weights_keys is commented out).
docs/notes/multimodal-mllama.md."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.mllama import image_tokens, mllama
from ._family import Family, multimodal
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

EXTRA_ROWS = 8  # MllamaTextModel.embed_tokens: vocab_size + 8 rows (the image and special tokens)


def mllama_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """MllamaTextConfig.__post_init__ (None: every fifth layer from 3) and MllamaTextModel, which makes layer i a
    cross-attention layer when i is in the list (an index outside the layers matches none); the table's rows."""
    given = config.get("cross_attention_layers")
    given = [3, 8, 13, 18, 23, 28, 33, 38] if given is None else given
    if not isinstance(given, (list, tuple)) or not all(type(i) is int for i in given):
        raise ArchitectureError("cross_attention_layers", f"must be a list of layer indices, got {given!r}")
    layers = tuple(sorted({i for i in given if 0 <= i < config["num_hidden_layers"]}))
    return {"cross_attention_layers": layers, "layers_without_attn_pre_norm": layers,
            "vocab_size": config["vocab_size"] + EXTRA_ROWS, "output_vocab_size": config["vocab_size"]}


TEXT = Family(
        model_type="mllama",
        causal_lm_class="MllamaForCausalLM",
        source="transformers 5.24.0 models/mllama/configuration_mllama.py (MllamaTextConfig)",
        keys={key: field for key, field in DECODER_KEYS.items() if key != "tie_word_embeddings"},
        defaults={"vocab_size": 128256, "hidden_size": 4096, "hidden_act": "silu", "num_hidden_layers": 40,
                  "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14_336,
                  "max_position_embeddings": 131_072, "tie_word_embeddings": False, "cross_attention_layers": None},
        switches={**LLAMA_SWITCHES, "tie_word_embeddings": False},
        count_neutral=frozenset({"tie_word_embeddings", "cross_attention_layers"}),
        derive=(mllama_layers,),
        text_config=True,
)


def _projector_last(naming: Any) -> Any:
    """MllamaModel registers vision_model, language_model, then multi_modal_projector; lm_head after the model."""
    return dataclasses.replace(naming, model_order=(
        "model.vision_model", "model.language_model.embed_tokens", "model.language_model.layers",
        "model.language_model.norm", "model.multi_modal_projector", "lm_head"))


# The whole model: the tower, the decoder under model.language_model, the projector, an untied head.  The family's own
# naming stays MllamaForCausalLM's (what --text-only names); the whole model's is the towers' (Towers.naming).
FAMILIES = [dataclasses.replace(multimodal(
    TEXT, "mllama", "transformers 5.24.0 models/mllama/configuration_mllama.py (MllamaConfig, MllamaTextConfig, "
    "MllamaVisionConfig)",
    Whole({"model_type": "mllama_vision_model"}, mllama, vision_prefix="model.vision_model.",
          projector_prefix="model.multi_modal_projector.", decoder_prefix="model.language_model.",
          tie_word_embeddings=False, tie_keys=(), vision_kind="mllama_vision_model", image_tokens=image_tokens,
          renamed=_projector_last),
    "MllamaForConditionalGeneration"), naming=TEXT.naming)]
