"""BLIP-2: the whole Blip2ForConditionalGeneration, BLIP's vision tower under vision_model, the query tokens, the
Q-Former and the language projection (towers/qformer.py), then a whole OPTForCausalLM under language_model (its
model and its head under it), read from text_config by OPT's table.  Blip2Config has no tie_word_embeddings of its
own: the head ties by text_config's alone (the language model's _tied_weights_keys), as Llama 4's does.

A text_config of T5 (Salesforce/blip2-flan-t5-*) is an AutoModelForSeq2SeqLM under language_model: its encoder and
decoder would have to sit under the whole model's prefix beside the towers, which the seq2seq encoder
(towers/encoder.py) does not do; refused in one line (hf_config: text_config.model_type)."""

import dataclasses
from functools import lru_cache

from ..naming import Naming
from ..towers import Whole, whole_naming
from ..towers.images import fixed
from ..towers.qformer import qformer
from ._family import Family, multimodal
from .bloom_opt import FAMILIES as BLOOM_OPT

OPT = next(f for f in BLOOM_OPT if f.model_type == "opt")
DECODER = "language_model.model."
HEAD = "language_model.lm_head"
# named_parameters(): the model's own query_tokens first, then the children as __init__ registers them
TOWERS_FIRST = ("query_tokens", "vision_model", "qformer", "language_projection")


@lru_cache(maxsize=16)
def renamed(naming: Naming) -> Naming:
    """A decoder's naming (its "model." moved under language_model) with its head there too, and the towers before
    it in model_order (a decoder without one: its table, its layers, its final norm)."""
    decoder = naming.model_order or (naming.embed, naming.layer.partition(".{i}")[0], naming.final_norm)
    return dataclasses.replace(naming, lm_head=HEAD, model_order=(*TOWERS_FIRST, *decoder, HEAD))


# Blip2Processor expands the image token num_query_tokens times: the Q-Former's outputs take their places
QUERY_TOKENS = fixed(lambda config, tower: config.get("num_query_tokens", 32))
PLACES = {"vision_prefix": "vision_model.", "projector_prefix": "", "decoder_prefix": DECODER,
          "tie_word_embeddings": False, "tie_from_text": True, "tie_keys": (), "image_tokens": QUERY_TOKENS,
          "renamed": renamed}


def whole_of(text: Family, model_type: str, source: str, whole: Whole, causal_lm_class: str) -> Family:
    """The whole family around ``text`` (its default decoder), named as the whole model names it."""
    family = multimodal(text, model_type, source, whole, causal_lm_class)
    return dataclasses.replace(family, naming=renamed(whole_naming(text.naming, DECODER)))


FAMILIES = [
    whole_of(OPT, "blip-2", "transformers 5.24.0 models/blip_2/configuration_blip_2.py (Blip2Config: text_config opt, "
             "vision_config Blip2VisionConfig, qformer_config Blip2QFormerConfig)",
             Whole({"model_type": "blip_2_vision_model"}, qformer, vision_kind="blip_2_vision_model",
                   text_types=("opt",), **PLACES),
             "Blip2ForConditionalGeneration"),
]
