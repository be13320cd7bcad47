"""IDEFICS (1) counted whole, as AutoModelForImageTextToText builds IdeficsForVisionText2Text (transformers 5.24.0
models/idefics/modeling_idefics.py; docs/notes/multimodal-idefics.md).  families/idefics.py is Idefics2's and
Idefics3's, another lineage.

Identical to Llama (IdeficsDecoderLayer: unbiased MHA q/k/v/o, gated MLP, RMSNorm input_layernorm and
post_attention_layernorm; model.norm, an untied lm_head by IdeficsConfig's default) except: IdeficsConfig is flat (the
decoder's keys at its top, beside vision_config and perceiver_config); every head has its own keys and values
(no num_key_value_heads) and head_dim is hidden_size // num_attention_heads (no key); each attention holds its own
rotary_emb (no model.rotary_emb); and IdeficsModel registers the vision tower (model.vision_model) and the perceiver
resampler (model.perceiver_resampler, where use_resampler) after embed_tokens and before the layers, then its gated
cross-attention layers (model.gated_cross_attn_layers, num_hidden_layers // cross_layer_interval) after them, then
norm; additional_vocab_size decouples extra rows of the table and the head (towers/idefics1.py makes these).  The
freeze_* flags only set requires_grad: every tensor is counted.  The decoder alone is no class transformers builds:
--text-only is refused."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..naming import Naming
from ..towers import Whole
from ..towers.idefics1 import beside_decoder, perceiver
from ._family import derived_from, multimodal
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA = LLAMA_FAMILIES[0]
ORDER = ("model.embed_tokens.weight", "model.embed_tokens.additional_embedding", "model.vision_model",
         "model.perceiver_resampler", "model.layers", "model.gated_cross_attn_layers", "model.norm", "lm_head.weight",
         "lm_head.additional_fc")
"""IdeficsModel.__init__'s registration order (lines 843-880), then IdeficsForVisionText2Text's lm_head."""


def _rotary_width(arch: Any) -> int:
    """The width the gated cross-attention layers' rotaries were made at (towers/idefics1.py reads the config's
    head_dim attribute, which sizes these and nothing else), the decoder layers' alike."""
    return next(part.rotary_width for part in arch.towers.parts if getattr(part, "rotary_width", 0))


ROTARY = tuple((f"{{layer}}self_attn.rotary_emb.{which}", (_rotary_width,), "float32", False)
               for which in ("inv_freq", "original_inv_freq"))
"""IdeficsAttention.rotary_emb (IdeficsRotaryEmbedding: torch.arange(0, head_dim, 2), non-persistent)."""
READ_BY_THE_TOWERS = frozenset({
    "head_dim", "additional_vocab_size", "cross_layer_interval", "qk_layer_norms", "alpha_type", "alpha_initializer",
    "alphas_initializer_range", "use_resampler", "vision_config", "perceiver_config", "freeze_text_layers",
    "freeze_text_module_exceptions", "freeze_lm_head", "freeze_vision_layers", "freeze_vision_module_exceptions"})
"""IdeficsConfig's keys towers/idefics1.py reads (the freeze_* flags change no tensor)."""


def ordered(naming: Naming) -> Naming:
    """IdeficsMLP registers gate_proj, down_proj, up_proj; the rest as Llama's layer."""
    return dataclasses.replace(naming, model_order=ORDER, rotary=None, model_buffers=ROTARY, layer_order=(
        "self_attn", "mlp.gate_proj", "mlp.down_proj", "mlp.up_proj", "input_layernorm", "post_attention_layernorm"))


# identical to llama except: MHA with head_dim hidden_size // heads (IdeficsAttention reads neither key), no biases
# (no attention_bias or mlp_bias key), read under the whole model's model_type
TEXT = derived_from(
    LLAMA, model_type="idefics", causal_lm_class="IdeficsForVisionText2Text",
    keys={key: field for key, field in LLAMA.keys.items()
          if key not in ("head_dim", "num_key_value_heads", "attention_bias", "mlp_bias")},
    defaults={key: value for key, value in LLAMA.defaults.items()
              if key not in ("head_dim", "num_key_value_heads", "attention_bias", "mlp_bias")},
    count_neutral=LLAMA.count_neutral | READ_BY_THE_TOWERS)

FAMILIES = [multimodal(
    TEXT, "idefics", "transformers 5.24.0 models/idefics/configuration_idefics.py (IdeficsConfig, vision_config "
    "IdeficsVisionConfig, perceiver_config IdeficsPerceiverConfig)",
    Whole({"model_type": "idefics_vision"}, perceiver, vision_prefix="model.vision_model.",
          projector_prefix="model.perceiver_resampler.", decoder_prefix="model.", tie_word_embeddings=False,
          text_at_top=True, described="idefics is multimodal: counting the whole model (vision tower, perceiver "
          "resampler where use_resampler, gated cross-attention layers and text decoder)",
          vision_kind="idefics_vision", made=beside_decoder, renamed=ordered,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (IdeficsModel always "
                                "builds the vision tower and the gated cross-attention layers): count the whole "
                                "model"),
    "IdeficsForVisionText2Text")]
