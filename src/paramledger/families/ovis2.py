"""Ovis2 (Ovis2ForConditionalGeneration) counted whole: its vision tower under "model.vision_tower" (a ViT and the
visual head, towers/ovis2.py), the Qwen2 decoder read by the qwen2 family's table from text_config (Ovis2Config:
AutoConfig, qwen2 by default, no init_kwargs), then the visual embedding table, registered after the decoder, and
the head.  transformers 5.24.0 models/ovis2/modeling_ovis2.py (Ovis2Model, Ovis2ForConditionalGeneration).

The head is nn.Linear(config.hidden_size, config.vocab_size): the *whole* config's sizes (Ovis2Config: 1536,
151643), tied to the decoder's embed_tokens by the whole config's tie_word_embeddings alone (True; text_config's
changes nothing: checked over all nine combinations).  Tied, the head is the decoder's table whatever those say;
untied, paramledger counts it only where they are the decoder's (every release's), and refuses the rest in one line.
"""

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.ovis2 import VISUAL_TABLE, Ovis2Tower, visual_table
from ._family import multimodal
from ._projector_last import projector_last
from .llama import FAMILIES as LLAMA

QWEN2 = next(family for family in LLAMA if family.model_type == "qwen2")


def ovis2(config: Mapping[str, Any], vision: Ovis2Tower, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """The visual embedding table; an untied head as wide and as tall as the decoder's, or a refusal."""
    table = visual_table(config, vision, hidden)
    if config.get("tie_word_embeddings", True) is False:
        text = config.get("text_config") or {}
        text_vocab = text.get("vocab_size", QWEN2.defaults["vocab_size"])
        for key, whole, decoder in (("hidden_size", table[0][1][1], hidden),
                                    ("vocab_size", config.get("vocab_size", 151643), text_vocab)):
            if whole != decoder:
                raise ArchitectureError(key, f"{whole!r} differs from text_config's {decoder!r}: untied, "
                                        "Ovis2ForConditionalGeneration sizes its lm_head by the whole config's "
                                        "hidden_size and vocab_size, which paramledger counts only as the decoder's")
    return table


FAMILIES = [projector_last(
    multimodal(QWEN2, "ovis2", "transformers 5.24.0 models/ovis2/configuration_ovis2.py (Ovis2Config)",
               Whole({"model_type": "ovis2_vision"}, ovis2, vision_prefix="model.vision_tower.",
                     projector_prefix=VISUAL_TABLE, tie_word_embeddings=True, vision_kind="ovis2_vision",
                     text_types=("qwen2",)),
               "Ovis2ForConditionalGeneration"),
    "model.vision_tower", VISUAL_TABLE.removesuffix("."))]
