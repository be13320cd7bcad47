"""HyperCLOVA X Vision V2 (HyperCLOVAXVisionV2ForConditionalGeneration) counted whole: Qwen2.5-VL's vision tower with
its merger under "model.vision_model" (towers/qwen_vl.py; HyperCLOVAXVisionV2Config.__post_init__ reads the Hub's
"qwen2_5_vl" vision type as qwen2_5_vl_vision, which that module's TOWERS already takes), one biased Linear from the
merger's out_hidden_size into the decoder's width ("model.projector"), and a HyperCLOVA X decoder read from
text_config by the hyperclovax family's own table; tied by the whole config's tie_word_embeddings alone (True)."""

from collections.abc import Mapping
from typing import Any

from ..towers import Whole
from ._family import multimodal
from .llama import FAMILIES as LLAMA

HYPERCLOVAX = next(family for family in LLAMA if family.model_type == "hyperclovax")


def projector(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """HyperCLOVAXVisionV2Model.projector: nn.Linear(vision_config.out_hidden_size, text_config.hidden_size)."""
    return [("weight", (hidden, vision.hidden_size)), ("bias", (hidden,))]


FAMILIES = [
    multimodal(HYPERCLOVAX, "hyperclovax_vision_v2", "transformers 5.24.0 models/hyperclovax_vision_v2/"
               "configuration_hyperclovax_vision_v2.py (HyperCLOVAXVisionV2Config)",
               Whole({"model_type": "qwen2_5_vl_vision"}, projector, vision_prefix="model.vision_model.",
                     projector_prefix="model.projector.", tie_word_embeddings=True, text_types=("hyperclovax",)),
               "HyperCLOVAXVisionV2ForConditionalGeneration"),
]
