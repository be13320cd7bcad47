"""DiffusionGemma (google/diffusiongemma-26B-A4B-it: DiffusionGemmaForBlockDiffusion, transformers 5.24.0
models/diffusion_gemma/modeling_diffusion_gemma.py), counted whole: an autoregressive encoder (a Gemma 4 text stack
under model.encoder.language_model., Gemma 4's vision tower and its embedder) and a diffusion decoder under
model.decoder. that is the encoder's stack again (tied) plus a self-conditioning block (towers/diffusion_gemma.py).

The text stack is gemma4_text's (families/gemma4.py) except (DiffusionGemmaTextConfig, DiffusionGemmaEncoderTextLayer):
- no per-layer inputs, no KV-sharing layers, no double-width FFN, no enable_moe_block: every layer holds the dense MLP
  and the routed experts beside it (router.scale, router.per_expert_scale, router.proj, experts.gate_up_proj and
  down_proj, the three extra norms), so num_experts, top_k_experts and moe_intermediate_size are required (the class
  leaves them None and cannot build: nn.Linear(hidden, None), modeling_diffusion_gemma.py:517);
- keys serve as values on every full-attention layer (no v_proj: ``if self.is_sliding``, lines 290-294), and
  num_global_key_value_heads applies there (attention_k_eq_v is no field: getattr's True fallback,
  configuration_diffusion_gemma.py:134);
- its attention registers q_norm and k_norm after o_proj (lines 286-302).
The head is tied by the whole config's tie_word_embeddings (text_config's is not read)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole, whole_naming
from ..towers.diffusion_gemma import decoder
from ..towers.gemma4 import VISION_DEFAULTS
from . import _rules as rules
from ._family import derived_from
from .gemma4 import BUFFERS, DEFAULTS, KEYS, NAMING, NEUTRAL, gemma4_layers
from .gemma4 import FAMILIES as GEMMA4

_GONE = ("vocab_size_per_layer_input", "hidden_size_per_layer_input", "num_kv_shared_layers", "attention_k_eq_v",
         "enable_moe_block", "use_double_wide_mlp")  # Gemma4TextConfig's fields DiffusionGemmaTextConfig lacks
MOE = ("num_experts", "top_k_experts", "moe_intermediate_size")


def diffusion_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """gemma4_layers with the experts always on, keys as values on the full layers, no per-layer inputs."""
    for key in MOE:
        if config.get(key) is None:
            raise ArchitectureError(key, "missing (required: transformers 5.24.0 cannot build this family without it)")
    out = gemma4_layers({**config, "enable_moe_block": True, "attention_k_eq_v": True, "num_kv_shared_layers": 0,
                         "hidden_size_per_layer_input": 0, "use_double_wide_mlp": False})
    return {**out, "attention_k_eq_v": True}


def embed_vision(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """DiffusionGemmaMultimodalEmbedder (lines 755-775): one unbiased Linear from the tower's output width
    (output_proj_dims where vision_config has it, else hidden_size) to the text width; its RMSNorm has no scale.
    Read from vision_config itself: the first part the whole model makes is the diffusion decoder, not the tower."""
    vision = {**VISION_DEFAULTS, **(config.get("vision_config") or {})}
    key = "output_proj_dims" if "output_proj_dims" in vision else "hidden_size"
    return [("embed_vision.embedding_projection.weight", (hidden, rules.positive(f"vision_config.{key}", vision[key])))]


def gemma4_vision_only(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """DiffusionGemmaConfig builds its vision_config by model_type (AutoConfig, gemma4_vision by default), and its
    embedder reads rms_norm_eps: only Gemma 4's tower is counted."""
    vision = config.get("vision_config")
    kind = vision.get("model_type", "gemma4_vision") if isinstance(vision, Mapping) else "gemma4_vision"
    if kind != "gemma4_vision":
        raise ArchitectureError("vision_config.model_type", f"{kind!r} is not a tower paramledger counts in "
                                "diffusion_gemma (it counts gemma4_vision, the class default)")
    return config


# DiffusionGemmaEncoderTextAttention: q, k, v, o, then q_norm, k_norm (v_norm holds nothing); the layer as Gemma 4's
TEXT_NAMING = dataclasses.replace(
    NAMING, model_buffers=BUFFERS[:2],
    layer_order=("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "self_attn.q_norm",
                 "self_attn.k_norm", *NAMING.layer_order[6:]),
    model_order=("model.embed_tokens", "model.layers", "model.norm"))
_MOVED = whole_naming(TEXT_NAMING, "model.encoder.language_model.")
# DiffusionGemmaForBlockDiffusion: model (encoder: language_model, vision_tower, embed_vision; decoder: embed_tokens,
# layers, norm, self_conditioning), then lm_head
WHOLE_NAMING = dataclasses.replace(_MOVED, model_order=(
    *_MOVED.model_order, "model.encoder.vision_tower", "model.encoder.embed_vision", "model.decoder.embed_tokens",
    "model.decoder.layers", "model.decoder.norm", "model.decoder.self_conditioning", "lm_head"))

WHOLE = Whole(
    {"model_type": "gemma4_vision"}, embed_vision, vision_prefix="model.encoder.vision_tower.",
    projector_prefix="model.encoder.", decoder_prefix="model.",  # (the family's names already sit in the encoder)
    text_model_type="diffusion_gemma", made=decoder, config_rewritten=gemma4_vision_only,
    decoder_alone_refused="its text stack alone is no class transformers builds (DiffusionGemmaTextConfig has no "
                          "CausalLM; the diffusion decoder reads the encoder's cache): count the whole model",
    described="diffusion_gemma is an encoder and a diffusion decoder: counting the whole model (the encoder's text "
              "stack, Gemma 4's vision tower and its embedder, the decoder: the encoder's stack again, tied unless "
              "tie_word_embeddings is false, and its self-conditioning block)")

_TEXT = GEMMA4[0]
FAMILIES = [derived_from(
    _TEXT, model_type="diffusion_gemma", causal_lm_class="DiffusionGemmaForBlockDiffusion",
    source="transformers 5.24.0 models/diffusion_gemma/configuration_diffusion_gemma.py (DiffusionGemmaConfig, "
           "DiffusionGemmaTextConfig)",
    naming=WHOLE_NAMING, keys={key: field for key, field in KEYS.items() if key not in _GONE},
    defaults={**{key: value for key, value in DEFAULTS.items() if key not in _GONE}, **dict.fromkeys(MOE)},
    # (Gemma 4's enable_moe_block, use_double_wide_mlp and attention_k_eq_v, given in a text_config, change nothing:
    # the class never reads them, measured; canvas_length sizes the canvas, no tensor)
    count_neutral=NEUTRAL | {"canvas_length", "attention_k_eq_v"},
    derive=(rules.output_bias_follows("attention_bias"), diffusion_layers), text_config=True, whole=WHOLE,
)]
