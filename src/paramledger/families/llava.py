"""LLaVA and its descendants as whole models: a CLIP or SigLIP tower (towers/vision.py), a projector
(towers/projectors.py's llava, towers/llava.py's others) and a text decoder of any of several families, each
read by its own table (Whole.text_types).  Every class ties its head by the whole config's tie_word_embeddings;
LLaVA, LLaVA-NeXT-Video and LLaVA-OneVision also by text_config's (their configs' __post_init__; LlavaNextConfig
and VipLlavaConfig have none)."""

import dataclasses

from ..towers import Whole, images, projectors
from ..towers import llava as projectors_llava
from ._family import Family, multimodal
from .cohere import FAMILIES as COHERE
from .granite import FAMILIES as GRANITE
from .llama import FAMILIES as LLAMA

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
TEXT = {family.model_type: family for family in (*LLAMA, *COHERE, *GRANITE)}
# Their decoders in released configs: Vicuna and Llama (llama), Mistral and BakLLaVA (mistral), Qwen (qwen2).
LLAMA_TYPES = ("llama", "mistral", "qwen2")
# The vision_config a config without one builds: CLIPVisionConfig with the classes' init_kwargs (336 px, 14 px
# patches: ViT-L/14-336, the tower of LLaVA-1.5 and LLaVA-NeXT).
CLIP_L_336 = {"model_type": "clip_vision_model", "intermediate_size": 4096, "hidden_size": 1024, "patch_size": 14,
              "image_size": 336, "num_hidden_layers": 24, "num_attention_heads": 16}
# SigLIP so400m at 384 px (LlavaOnevisionConfig's, AyaVisionConfig's with 14 heads), without the pooling head.
SIGLIP_384 = {"model_type": "siglip_vision_model", "hidden_size": 1152, "intermediate_size": 4304, "patch_size": 14,
              "image_size": 384, "num_hidden_layers": 26, "num_attention_heads": 16, "vision_use_head": False}

# named_parameters() lists a module's own parameters before its children's: image_newline comes first.
# LLaVA-NeXT-Video's pooler is registered after the decoder, before the head.
NEWLINE_FIRST = ("model.image_newline", "model.vision_tower", "model.multi_modal_projector",
                 "model.language_model.embed_tokens", "model.language_model.layers", "model.language_model.norm",
                 "model.vision_resampler")


def newline_first(family: Family) -> Family:
    """``family`` listing its image_newline where transformers registers it, before the vision tower."""
    return dataclasses.replace(family, naming=dataclasses.replace(family.naming, model_order=NEWLINE_FIRST))


FAMILIES = [
    multimodal(TEXT["llama"], "llava", TF.format("llava") + " (LlavaConfig)",
               Whole(CLIP_L_336, projectors.llava, tie_word_embeddings=False, tie_from_text=True, image_tokens=images.llava,
                     text_types=LLAMA_TYPES), "LlavaForConditionalGeneration"),
    # LLaVA-NeXT: LLaVA's projector, and image_newline at the model's own level; tied by its own key only.
    # Granite Vision is a LLaVA-NeXT with a SigLIP tower, several feature layers and a Granite decoder.
    newline_first(multimodal(TEXT["llama"], "llava_next", TF.format("llava_next") + " (LlavaNextConfig)",
                             Whole(CLIP_L_336, projectors_llava.llava_next, projector_prefix="model.",
                                   tie_word_embeddings=False, text_types=(*LLAMA_TYPES, "granite")),
                             "LlavaNextForConditionalGeneration")),
    # LLaVA-NeXT-Video: LLaVA-NeXT's parts and a video pooler (a conv when spatial_pool_mode is "conv"); ties by
    # text_config's key too (LlavaNextVideoConfig.__post_init__).
    newline_first(multimodal(TEXT["llama"], "llava_next_video", TF.format("llava_next_video")
                             + " (LlavaNextVideoConfig)",
                             Whole(CLIP_L_336, projectors_llava.llava_next_video, projector_prefix="model.",
                                   tie_word_embeddings=False, tie_from_text=True, text_types=LLAMA_TYPES),
                             "LlavaNextVideoForConditionalGeneration")),
    # LLaVA-OneVision: LLaVA-NeXT's parts, a SigLIP tower and a Qwen2 decoder by default.
    newline_first(multimodal(TEXT["qwen2"], "llava_onevision", TF.format("llava_onevision")
                             + " (LlavaOnevisionConfig)",
                             Whole(SIGLIP_384, projectors_llava.llava_next, projector_prefix="model.",
                                   tie_word_embeddings=False, tie_from_text=True,
                                   text_types=("qwen2", "llama", "mistral")),
                             "LlavaOnevisionForConditionalGeneration")),
    # Command A Vision: Aya Vision's successor, its projector without the norm; its SigLIP keeps the pooling head
    # (the class's init_kwargs leave vision_use_head to SiglipVisionConfig's True).
    multimodal(TEXT["cohere2"], "cohere2_vision", TF.format("cohere2_vision") + " (Cohere2VisionConfig)",
               Whole({"model_type": "siglip_vision_model", "hidden_size": 1152, "intermediate_size": 3072,
                      "image_size": 512, "num_hidden_layers": 27, "num_attention_heads": 12},
                     projectors_llava.cohere2_vision, projector_prefix="model.", tie_word_embeddings=True,
                     text_types=("cohere2", "cohere")), "Cohere2VisionForConditionalGeneration"),
    # ViP-LLaVA: a normed projector over five of the tower's layers; ties by its own key only.
    multimodal(TEXT["llama"], "vipllava", TF.format("vipllava") + " (VipLlavaConfig)",
               Whole(CLIP_L_336, projectors_llava.vipllava, projector_prefix="model.", tie_word_embeddings=False,
                     text_types=LLAMA_TYPES), "VipLlavaForConditionalGeneration"),
]

# Aya Vision: SigLIP, a pixel-shuffle SwiGLU projector and a Cohere 2 decoder; tied by default.  Its class
# defaults' vision_config (14 heads on 1152) transformers cannot build: reference.DEFAULTS_NEED gives 16.
AYA_VISION = multimodal(TEXT["cohere2"], "aya_vision", TF.format("aya_vision") + " (AyaVisionConfig)",
                        Whole({**SIGLIP_384, "num_attention_heads": 14}, projectors_llava.aya_vision,
                              projector_prefix="model.", tie_word_embeddings=True, text_types=("cohere2", "cohere")),
                        "AyaVisionForConditionalGeneration")
FAMILIES.append(AYA_VISION)

# Video-LLaVA: two CLIP towers from the one vision_config (video_tower, then image_tower), LLaVA's projector.
FAMILIES.append(multimodal(TEXT["llama"], "video_llava", TF.format("video_llava") + " (VideoLlavaConfig)",
                           Whole({**CLIP_L_336, "image_size": 224}, projectors.llava,
                                 vision_prefix="model.video_tower.", twin_prefixes=("model.image_tower.",),
                                 tie_word_embeddings=False, text_types=LLAMA_TYPES),
                           "VideoLlavaForConditionalGeneration"))
