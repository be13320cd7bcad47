"""MiniMax-M3 counted whole (MiniMaxM3SparseForConditionalGeneration): its own vision tower and two-stage projector
(towers/minimax_m3_vl.py) under "model.vision_tower" and "model.multi_modal_projector", then the MiniMax-M3 decoder
read from text_config by the minimax_m3_vl_text family's own table (families/minimax_m3.py), then the head.
MiniMaxM3VLConfig.__post_init__ ties the head where either its own tie_word_embeddings (False) or text_config's says
so.  An image's tokens follow its size and the processor's own bounds, which no config.json holds: not declared.
transformers 5.24.0 models/minimax_m3_vl/modeling_minimax_m3_vl.py (MiniMaxM3VLModel)."""

from ..towers import Whole
from ..towers.minimax_m3_vl import minimax_m3_vl
from ._family import multimodal
from .minimax_m3 import FAMILIES as MINIMAX_M3

TEXT = next(family for family in MINIMAX_M3 if family.model_type == "minimax_m3_vl_text")

FAMILIES = [
    multimodal(TEXT, "minimax_m3_vl", "transformers 5.24.0 models/minimax_m3_vl/configuration_minimax_m3_vl.py "
               "(MiniMaxM3VLConfig: text_config minimax_m3_vl_text, vision_config minimax_m3_vl_vision)",
               Whole({"model_type": "minimax_m3_vl_vision"}, minimax_m3_vl, tie_word_embeddings=False,
                     tie_from_text=True, vision_kind="minimax_m3_vl_vision"),
               "MiniMaxM3SparseForConditionalGeneration"),
]
