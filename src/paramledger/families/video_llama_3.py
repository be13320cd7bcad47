"""VideoLLaMA 3: the whole VideoLlama3ForConditionalGeneration, its SigLIP-style tower under "model.vision_model" and
its readout projector under "model.projector" (towers/video_llama_3.py), and a Qwen2 decoder read from text_config
by the qwen2 family's own table; tied by the whole config's tie_word_embeddings or, where that is false, by
text_config's (VideoLlama3Config.__post_init__)."""

from ..towers import Whole
from ..towers.video_llama_3 import video_llama_3
from ._family import multimodal
from .llama import FAMILIES as LLAMA

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")

FAMILIES = [
    multimodal(QWEN2, "video_llama_3",
               "transformers 5.24.0 models/video_llama_3/configuration_video_llama_3.py (VideoLlama3Config)",
               Whole({"model_type": "video_llama_3_vision"}, video_llama_3, vision_prefix="model.vision_model.",
                     projector_prefix="model.projector.", tie_word_embeddings=False, tie_from_text=True,
                     text_types=("qwen2",)),
               "VideoLlama3ForConditionalGeneration"),
]
