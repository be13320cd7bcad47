"""PI0 counted whole (transformers 5.24.0 models/pi0: PI0ForConditionalGeneration, registered as image-text-to-text;
no CausalLM): PaliGemma's model (families/paligemma.py: a SigLIP tower, its one-Linear projector, a Gemma decoder)
under ``model.vlm``, beside an action expert, a second Gemma decoder under ``model.dit`` registered first, and the
action and state projections after them (towers/pi0.py).

PI0Config (configuration_pi0.py) nests the VLM in vlm_config (a PaliGemmaConfig: its text_config and vision_config;
PI0's own defaults where vlm_config is absent, a SigLIP of 4,304-wide MLPs, PaliGemmaConfig's where it is given)
and the expert in dit_config.  PaliGemmaModel and GemmaModel hold no head: nothing is tied and there is no lm_head
(the decoder's naming has none).  The VLM's decoder is read by Gemma's family from vlm_config.text_config."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole, images, projectors
from ..towers.pi0 import DIT, expert
from ._family import multimodal
from .paligemma import GEMMA_2B, SIGLIP_224, TEXT

SOURCE = "transformers 5.24.0 models/pi0/configuration_pi0.py (PI0Config)"
VLM = "model.vlm."
# PI0Config.sub_configs_defaults["vlm_config"]: PaliGemma's 224-pixel SigLIP with a 4,304-wide MLP, Gemma 2B
PI0_VISION = {**SIGLIP_224, "intermediate_size": 4304}
# PI0Config's own keys: the action sizes (read by towers/pi0.py), the sections, the sampling numerics
COUNT_NEUTRAL = frozenset({"vlm_config", "dit_config", "max_state_dim", "max_action_dim", "chunk_size",
                           "num_inference_steps", "time_sampling_beta_alpha", "time_sampling_beta_beta",
                           "time_sampling_scale", "time_sampling_offset", "min_period", "max_period",
                           "loss_reduction"})


def _vlm(config: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """vlm_config, a PaliGemma config (None: PI0's defaults)."""
    vlm = config.get("vlm_config")
    if vlm is None:
        return None
    if not isinstance(vlm, Mapping):
        raise ArchitectureError("vlm_config", "must be a JSON object")
    kind = vlm.get("model_type", "paligemma")
    if kind != "paligemma":
        raise ArchitectureError("vlm_config.model_type", f"{kind!r} is not counted in pi0 (it builds paligemma, "
                                "the VLM of PI0Config and its releases)")
    return vlm


def _text(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """The VLM's text_config (Whole.text_rewritten): PaliGemma's Gemma 2B where vlm_config gives none."""
    vlm = _vlm(config)
    text = None if vlm is None else vlm.get("text_config")
    if text is None:
        return GEMMA_2B
    if not isinstance(text, Mapping):
        raise ArchitectureError("vlm_config.text_config", "must be a JSON object")
    if text.get("model_type", "gemma") != "gemma":
        raise ArchitectureError("vlm_config.text_config.model_type", f"{text.get('model_type')!r} is not counted "
                                "in pi0 (it builds gemma, the decoder of PI0Config and its releases)")
    return text


def _lifted(config: Mapping[str, Any]) -> dict[str, Any]:
    """The whole config with the VLM's vision_config and projection_dim at its top (Whole.config_rewritten)."""
    vlm = _vlm(config)
    if vlm is None:
        return {**config, "vision_config": PI0_VISION, "projection_dim": 2048}
    vision = vlm.get("vision_config")
    return {**config, "vision_config": SIGLIP_224 if vision is None else vision,
            "projection_dim": vlm.get("projection_dim", 2048)}


WHOLE = multimodal(
    TEXT["gemma"], "pi0", SOURCE,
    Whole(PI0_VISION, projectors.paligemma, vision_prefix=f"{VLM}vision_tower.",
          projector_prefix=f"{VLM}multi_modal_projector.", decoder_prefix=f"{VLM}language_model.",
          tie_word_embeddings=False, tie_keys=(), image_tokens=images.patches, text_config=GEMMA_2B, made=expert,
          config_rewritten=_lifted, text_rewritten=_text, text_section="vlm_config",
          described="pi0: counting the whole model (PaliGemma's vision tower, projector and Gemma decoder, the Gemma "
                    "action expert and the action and state projections)",
          decoder_alone_refused="its decoder is two GemmaModels without a head (the VLM's and the action expert, "
                                "attending together), no class transformers 5.24.0 builds alone: count the whole "
                                "model"),
    "PI0ForConditionalGeneration")
_NAMING = WHOLE.naming
# the expert, the VLM's tower, projector and decoder, then the action projections; no head
FAMILIES = [dataclasses.replace(
    WHOLE, count_neutral=WHOLE.count_neutral | COUNT_NEUTRAL,
    naming=dataclasses.replace(_NAMING, lm_head="", model_order=(
        DIT.rstrip("."), f"{VLM}vision_tower", f"{VLM}multi_modal_projector", _NAMING.embed,
        _NAMING.layer.partition(".{i}")[0], _NAMING.final_norm, "embed_action_time", "action_out_proj")))]
