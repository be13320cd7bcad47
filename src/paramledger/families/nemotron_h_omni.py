"""Nemotron-H Omni (NemotronH_Omni_Reasoning_V3) counted whole: BLIP-2's layout (families/blip2.py: a whole
NemotronHForCausalLM under language_model, its head at language_model.lm_head) except that the language model is
registered first, then the RADIO tower under vision_model (towers/radio.py), vision_final_layernorm where the decoder
has MTP layers, multi_modal_projector (an RMSNorm and two bias-free Linears over the pixel-shuffled features) and, where
audio_config is given (null by default: none), Parakeet's encoder as audio_tower and its embed_audio projector
(towers/parakeet.py; read as a sub-tower whose default is the sentinel "no tower"). The decoder is Nemotron-H's
(families/hybrids.py), read from text_config by its own table. The head is never tied: the whole model has no tying of
its own and NemotronHForCausalLM's _tied_weights_keys are empty, whatever either config's tie_word_embeddings says.
transformers 5.24.0 models/nemotron_h_omni/modeling_nemotron_h_omni.py (NemotronH_Omni_Reasoning_V3.__init__).

Refused in one line: the legacy names llm_config and sound_config where the current key is absent (transformers reads
them; paramledger reads text_config and audio_config). An image's tokens follow the processor's patch budget (its own
min/max patches), which no config.json fixes: not declared."""

import dataclasses
from functools import lru_cache

from ..naming import Naming
from ..towers import Whole, whole_naming
from ..towers.parakeet import ABSENT
from ..towers.radio import nemotron_h_omni
from ._family import multimodal
from .hybrids import FAMILIES as HYBRIDS

NEMOTRON_H = next(family for family in HYBRIDS if family.model_type == "nemotron_h")
DECODER = "language_model.model."
HEAD = "language_model.lm_head"
PARAKEET = "nemotron_h_omni_parakeet"  # towers/parakeet.py: ParakeetEncoderConfig under this model's own defaults
# named_parameters(): the language model as __init__ registers it first, then the tower and the projector's modules
TOWERS_AFTER = ("vision_model", "vision_final_layernorm", "multi_modal_projector", "audio_tower", "embed_audio")
AUDIO = ("audio_config", {"model_type": PARAKEET, ABSENT: True}, PARAKEET, "audio_tower.")


@lru_cache(maxsize=16)
def renamed(naming: Naming) -> Naming:
    """The decoder's naming (its "model." moved under language_model) with its head there too, and the towers
    after it in model_order."""
    decoder = naming.model_order or (naming.embed, naming.layer.partition(".{i}")[0], naming.final_norm)
    return dataclasses.replace(naming, lm_head=HEAD, model_order=(*decoder, HEAD, *TOWERS_AFTER))


WHOLE = multimodal(NEMOTRON_H, "nemotron_h_omni", "transformers 5.24.0 models/nemotron_h_omni/"
                   "configuration_nemotron_h_omni.py (NemotronH_Omni_Reasoning_V3_Config: text_config nemotron_h, "
                   "vision_config radio with video_temporal_patch_size 2, audio_config none)",
                   Whole({"model_type": "radio", "video_temporal_patch_size": 2}, nemotron_h_omni,
                         vision_prefix="vision_model.", projector_prefix="", decoder_prefix=DECODER,
                         tie_word_embeddings=False, tie_keys=(), vision_kind="radio", text_types=("nemotron_h",),
                         renamed=renamed, sub_towers=(AUDIO,)),
                   "NemotronH_Omni_Reasoning_V3")

FAMILIES = [dataclasses.replace(WHOLE, naming=renamed(whole_naming(NEMOTRON_H.naming, DECODER)))]
