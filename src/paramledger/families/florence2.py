"""Florence-2 (Florence2ForConditionalGeneration, transformers 5.24.0 models/florence2), counted whole: a whole
multimodal model (towers.Whole: the DaViT tower under model.vision_tower., its projector under
model.multi_modal_projector., towers/davit.py) whose language model is a whole BartModel under model.language_model.
(Florence2Model: AutoModel.from_config(text_config), modeling_florence2.py lines 665-671) and whose head is lm_head,
tied to model.language_model.shared by the whole config's tie_word_embeddings (lines 808-816; Florence2Config's
default true).  Written as a difference from encoder-decoder (families/encoder_decoder.py): the text decoder is
BART's (BartForCausalLM's table, read from text_config) under model.language_model., and BartModel's encoder is made
beside it by Whole.made, as bart's own seq2seq count makes it (towers/encoder.py), its token table the shared one;
the whole model's order (tower, projector, shared, encoder, decoder, lm_head) is the naming's model_order.
BartModel ties its stacks' embed_tokens to shared by text_config's tie_word_embeddings (default true); an untied
text_config holds three tables (shared, the encoder's, the decoder's), the head still tied to shared."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Tensor
from ..naming import Naming
from ..towers import Whole, whole_naming
from ..towers.davit import FLORENCE_VISION_DEFAULTS, projector, projector_buffers
from ..towers.encoder import _encoder_design, _stack
from ._family import multimodal
from .attribute_maps import resolved
from .bart import BART

LM = "model.language_model"
TOWER, PROJECTOR = "model.vision_tower", "model.multi_modal_projector"
# BartModel inside the whole model: its shared table, encoder and decoder under language_model (no final_logits_bias:
# the head is Florence2ForConditionalGeneration's own lm_head)
SPEC = BART.seq2seq._replace(whole_class="Florence2ForConditionalGeneration", shared=f"{LM}.shared",
                             decoder=f"{LM}.decoder", encoder=f"{LM}.encoder", head_buffers=())
DECODER_NAMING = whole_naming(BART.naming, f"{LM}.")
DECODER_TABLE = f"{LM}.decoder.embed_tokens.weight"  # (untied from shared: DecoderTable)
TABLES = (f"{PROJECTOR}.image_position_embed.row_embeddings.weight",
          f"{PROJECTOR}.image_position_embed.column_embeddings.weight")


class ProjectorTables(NamedTuple):
    """The projector's nn.Embedding tables (its row and column positions), for the views that drop them (Hugging
    Face's non-embedding count); its tensors are the projector's own."""
    def tensors(self) -> list[Any]:
        return []

    def buffers(self) -> list[Any]:
        return []

    def embedding_tables(self) -> list[str]:
        return list(TABLES)


class DecoderTable(NamedTuple):
    """BartDecoder's own embed_tokens where text_config unties it from shared (BartModel ties both stacks' tables to
    shared only by text_config's tie_word_embeddings, modeling_bart.py BartModel._tied_weights_keys): vocab_size ×
    d_model, registered first in the decoder (after the encoder), an nn.Embedding."""
    rows: int
    width: int

    def tensors(self) -> list[Any]:
        return [Tensor(DECODER_TABLE, (self.rows, self.width), "embedding")]

    def buffers(self) -> list[Any]:
        return []

    def embedding_tables(self) -> list[str]:
        return [DECODER_TABLE]


def language_encoder(config: Mapping[str, Any], where: str | None, decoder: Any) -> list[Any]:
    """BartModel's encoder (the decoder's design at text_config's encoder sizes), its embed_tokens the shared table;
    with text_config's tie_word_embeddings false, the encoder's and the decoder's embed_tokens are tables of their own
    beside shared, which lm_head still ties to (by the whole config's key)."""
    text = config.get("text_config") or {}
    if isinstance(text, Mapping):  # (BartConfig's aliases, num_hidden_layers for encoder_layers, win as for the decoder)
        text = resolved("bart", text, BART.defaults)
    tied = text.get("tie_word_embeddings", True)
    tied = True if tied is None else tied  # (null: BartConfig's default)
    if not isinstance(tied, bool):
        raise ArchitectureError("text_config.tie_word_embeddings", f"must be true or false, got {quoted(tied)}", where)
    stack = _stack(_encoder_design(decoder, SPEC, {**SPEC.defaults, **text}, where), DECODER_NAMING, SPEC, tied,
                   tied)
    note = "florence2 is multimodal: counting its text decoder (text_config) only, as BartForCausalLM builds it"
    own = [] if tied else [DecoderTable(decoder.vocab_size, decoder.hidden_size)]
    return [stack._replace(text_only_note=note), ProjectorTables(), *own]


@lru_cache(maxsize=4)
def renamed(naming: Naming) -> Naming:
    """The decoder's table is the shared one; named_parameters(): the tower, the projector, shared, the encoder,
    the decoder's own, lm_head."""
    return dataclasses.replace(naming, embed=SPEC.shared, model_order=(
        TOWER, PROJECTOR, SPEC.shared, SPEC.encoder, DECODER_TABLE, *naming.model_order[1:], naming.lm_head))


FAMILIES = [dataclasses.replace(multimodal(
    BART, "florence2", "transformers 5.24.0 models/florence2/configuration_florence2.py (Florence2Config: "
    "Florence2VisionConfig and a BartConfig text_config by default)",
    Whole(FLORENCE_VISION_DEFAULTS, projector, vision_prefix=f"{TOWER}.", projector_prefix=f"{PROJECTOR}.",
          decoder_prefix=f"{LM}.", vision_kind="florence_vision", text_types=("bart",),
          text_config={"model_type": "bart"}, made=language_encoder, renamed=renamed,
          projector_buffers=projector_buffers,
          described="florence2 is multimodal: counting the whole model (its DaViT vision tower, projector and "
                    "BART encoder-decoder); --text-only counts the BART decoder alone (BartForCausalLM)"),
    "Florence2ForConditionalGeneration"), seq2seq=None)]  # (its encoder is made by Whole.made, not by with_encoder)
