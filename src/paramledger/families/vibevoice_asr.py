"""VibeVoice-ASR (VibeVoiceAsrForConditionalGeneration) counted whole: two audio towers, the acoustic tokenizer's
encoder under "model.acoustic_tokenizer_encoder" and the semantic one under "model.semantic_tokenizer_encoder" (one
class, towers/vibevoice.py), then the projector (both paths), the Qwen2 decoder under "model.language_model" and the
head, never tied (the class declares no tied weights: the whole config's and text_config's tie_word_embeddings,
each unset, false and true, change nothing).

transformers 5.24.0 models/vibevoice_asr/modeling_vibevoice_asr.py (VibeVoiceAsrModel,
VibeVoiceAsrMultiModalProjector) and configuration_vibevoice_asr.py (VibeVoiceAsrConfig: text_config qwen2 at
Qwen2Config's defaults; the semantic config hidden_size 128 only when the config gives none, its init_kwargs; the
acoustic one at its class's defaults)."""

from ..towers import Whole
from ..towers.vibevoice import ACOUSTIC_KEY, SEMANTIC_KEY, vibevoice_asr
from ._family import multimodal
from .llama import FAMILIES as LLAMA

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")
KIND = "vibevoice_acoustic_tokenizer_encoder"

FAMILIES = [
    # The acoustic encoder is a sub-tower (registered first), the semantic one the audio tower the projector reads.
    multimodal(QWEN2, "vibevoice_asr", "transformers 5.24.0 models/vibevoice_asr/configuration_vibevoice_asr.py "
               "(VibeVoiceAsrConfig)",
               Whole({}, vibevoice_asr, audio_config={"model_type": KIND, "hidden_size": 128}, audio_key=SEMANTIC_KEY,
                     audio_prefix="model.semantic_tokenizer_encoder.",
                     sub_towers=((ACOUSTIC_KEY, {"model_type": KIND}, "", "model.acoustic_tokenizer_encoder."),),
                     text_types=("qwen2",), tie_word_embeddings=False, tie_keys=()),
               "VibeVoiceAsrForConditionalGeneration"),
]
