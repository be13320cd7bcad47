"""InstructBLIP and InstructBLIP-Video: identical to BLIP-2 (families/blip2.py) except that the Q-Former also reads
the instruction: it embeds its tokens (InstructBlipQFormerEmbeddings: word and position nn.Embeddings, a LayerNorm,
a position_ids buffer, in place of BLIP-2's bare LayerNorm) and every layer holds the text path's intermediate and
output (towers/qformer.py's ``instructblip``).  The decoder is any CausalLM under language_model: OPT (the class
default) or Llama (the Vicuna releases), each read by its own table; a T5 text_config (the Flan-T5 releases) is
refused in one line, as BLIP-2's is.  transformers 5.24.0 models/instructblip/modeling_instructblip.py
(InstructBlipForConditionalGeneration), models/instructblipvideo/modular_instructblipvideo.py (the video model's
modules are the image model's; only its inputs differ: a clip's frames, each through the same tower)."""

from ..towers import Whole
from ..towers.qformer import instructblip, query_positions
from .blip2 import OPT, PLACES, whole_of

TF = ("transformers 5.24.0 models/{0}/configuration_{0}.py ({1}Config: text_config opt, vision_config "
      "{1}VisionConfig, qformer_config {1}QFormerConfig)")
INSTRUCT = {**PLACES, "vision_kind": "instructblip_vision_model", "text_types": ("opt", "llama"),
            "projector_buffers": query_positions}

FAMILIES = [
    whole_of(OPT, "instructblip", TF.format("instructblip", "InstructBlip"),
             Whole({"model_type": "instructblip_vision_model"}, instructblip, **INSTRUCT),
             "InstructBlipForConditionalGeneration"),
    # a clip's 4 frames cost num_query_tokens each (InstructBlipVideoProcessor), a video not an image: not said here
    whole_of(OPT, "instructblipvideo", TF.format("instructblipvideo", "InstructBlipVideo"),
             Whole({"model_type": "instructblip_vision_model"}, instructblip, **{**INSTRUCT, "image_tokens": None}),
             "InstructBlipVideoForConditionalGeneration"),
]
