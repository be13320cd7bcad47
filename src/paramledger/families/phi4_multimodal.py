"""Phi-4-multimodal (transformers 5.24.0 models/phi4_multimodal: Phi4MultimodalForCausalLM, the CausalLM mapping's),
counted whole: Phi-3's decoder under "model.", then, after its norm, model.embed_tokens_extend (the SigLIP image
embedder and the conformer audio embedder with their projections: towers/phi4_multimodal.py), then lm_head, tied by
tie_word_embeddings (Phi4MultimodalConfig: False).  The config is flat: the decoder's keys at its top, beside
vision_config and audio_config, each always its own class (Phi4MultimodalVisionConfig, Phi4MultimodalAudioConfig)
whatever model_type it names.  --text-only counts the decoder alone: Phi3ForCausalLM's tensors, the same names."""

from __future__ import annotations

import dataclasses

from ..naming import Naming
from ..towers import Whole
from ..towers.phi4_multimodal import projector
from ._family import derived_from, multimodal
from .phi import FAMILIES as PHI_FAMILIES

PHI3 = next(family for family in PHI_FAMILIES if family.model_type == "phi3")
EXTEND = "model.embed_tokens_extend."


def towers_after_norm(naming: Naming) -> Naming:
    """Phi4MultimodalModel registers embed_tokens, layers, norm, then embed_tokens_extend: the image embedding's own
    Parameters, its tower, its projections, then the audio tower and its projections; lm_head after the model."""
    image, sound = EXTEND + "image_embed.", EXTEND + "audio_embed."
    return dataclasses.replace(naming, model_order=(
        "model.embed_tokens", "model.layers", "model.norm", image + "global_img_feature_extensor",
        image + "sub_img_feature_extensor", image + "img_processor", image[:-1], sound + "encoder", sound[:-1],
        "lm_head"))


# identical to phi3 except: Phi4MultimodalConfig's defaults (a 200,064-token vocabulary, 8 KV heads, 131,072
# positions) and its sub-configs, read by the towers beside it (Phi4MultimodalAttention and Phi4MultimodalMLP are
# Phi3Attention and Phi3MLP: modular_phi4_multimodal.py)
TEXT = derived_from(
    PHI3, model_type="phi4_multimodal", causal_lm_class="Phi4MultimodalForCausalLM",
    defaults={**PHI3.defaults, "vocab_size": 200064, "num_key_value_heads": 8, "max_position_embeddings": 131072},
    count_neutral=PHI3.count_neutral | {"vision_config", "audio_config"})

FAMILIES = [multimodal(
    TEXT, "phi4_multimodal", "transformers 5.24.0 models/phi4_multimodal/configuration_phi4_multimodal.py "
    "(Phi4MultimodalConfig, vision_config Phi4MultimodalVisionConfig, audio_config Phi4MultimodalAudioConfig)",
    Whole({"model_type": "phi4_multimodal_vision"}, projector, vision_prefix=EXTEND + "image_embed.img_processor.",
          projector_prefix=EXTEND, decoder_prefix="model.", vision_kind="phi4_multimodal_vision",
          audio_config={"model_type": "phi4_multimodal_audio"}, audio_prefix=EXTEND + "audio_embed.encoder.",
          audio_kind="phi4_multimodal_audio", audio_first=False, tie_word_embeddings=False, text_at_top=True,
          renamed=towers_after_norm),
    "Phi4MultimodalForCausalLM")]
