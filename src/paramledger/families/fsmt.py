"""FSMT counted whole (transformers 5.24.0 models/fsmt, FSMTForConditionalGeneration; no CausalLM is registered).

Identical to bart's whole model except: each stack its own vocabulary (src_vocab_size rows in the encoder's table,
tgt_vocab_size in the decoder's and its head), no shared module: tied (tie_word_embeddings, FSMTConfig's default
false), the one table is the encoder's embed_tokens, of tgt_vocab_size rows, with the decoder's table and the head
its aliases; the head inside the decoder (model.decoder.output_projection); position tables of
max_position_embeddings + padding_idx + 1 rows (SinusoidalPositionalEmbedding, an nn.Embedding whose weight is a
parameter: counted), padding_idx the config's pad_token_id (FSMTConfig's 1: BART's offset 2); no embedding
LayerNorm, no final norm, no final_logits_bias."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError, quoted
from .bart import BART, BIASED_POST, DECODER_KEYS, ENCODER_SIDE, TF, _defaults, _naming, _seq2seq
from ._family import derived_from


def _position_offset(config: Mapping[str, Any]) -> int | None:
    """The rows FSMT's position tables hold past max_position_embeddings: padding_idx + 1, padding_idx the config's
    pad_token_id (FSMTEncoder and FSMTDecoder, modeling_fsmt.py lines 332-337 and 528-533; FSMTConfig's 1 when the
    config gives none): null fails to build (None + 1, TypeError), and so does a negative one beyond the table's
    own rows (nn.Embedding asserts -num_embeddings <= padding_idx); None where a bad max_position_embeddings is
    refused under its own key."""
    pad = config.get("pad_token_id", 1)
    if pad is None:
        raise ArchitectureError("pad_token_id", "null: transformers cannot build FSMT without one (its position "
                                "tables hold max_position_embeddings + pad_token_id + 1 rows: TypeError on None)")
    if type(pad) is not int:
        raise ArchitectureError("pad_token_id", f"must be a whole number, got {quoted(pad)}")
    positions = config.get("max_position_embeddings", 1024)
    if type(positions) is not int:
        return None
    rows = positions + pad + 1
    if pad < -rows:  # (pad < rows always: max_position_embeddings is positive)
        raise ArchitectureError("pad_token_id", f"{pad:,} is outside the {rows:,} rows of FSMT's position tables "
                                "(max_position_embeddings + pad_token_id + 1, built with padding_idx = pad_token_id; "
                                "nn.Embedding refuses it)")
    return pad + 1


def _padding_rows(config: Mapping[str, Any]) -> dict[str, Any]:
    """Both stacks' position tables at the config's pad_token_id: max_position_embeddings + pad_token_id + 1 rows
    (the design's position_offset, which the encoder's design keeps; the family's naming holds BART's 2, right at
    FSMTConfig's pad_token_id 1), refused where transformers cannot build them (_position_offset)."""
    offset = _position_offset(config)
    return {} if offset is None or offset == 2 else {"position_offset": offset}


WHOLE_FSMT = _seq2seq("FSMTForConditionalGeneration", 12, 4096, 16, shared="model.encoder.embed_tokens",
                      shared_if_tied=True, head_buffers=())
WHOLE_FSMT = WHOLE_FSMT._replace(keys={**WHOLE_FSMT.keys, "src_vocab_size": "vocab_size"},  # the encoder's table
                                 defaults={**WHOLE_FSMT.defaults, "src_vocab_size": 42024, "tie_word_embeddings": False})


FSMT = derived_from(
    BART, model_type="fsmt", causal_lm_class="FSMTForConditionalGeneration", source=TF.format("fsmt"),
    # FSMTForConditionalGeneration.get_output_embeddings returns model.decoder.embed_tokens, not the head
    naming=_naming(embed_norm=None, lm_head="model.decoder.output_projection",
                   output_embeddings="model.decoder.embed_tokens"),
    keys={**{key: field for key, field in DECODER_KEYS.items() if key != "vocab_size"},
          "tgt_vocab_size": "vocab_size"},
    defaults={**{key: value for key, value in _defaults(42024, 1024, 12, 4096, 16, 1024, "relu").items()
                 if key != "vocab_size"}, "tgt_vocab_size": 42024, "tie_word_embeddings": False},
    switches=BIASED_POST, count_neutral=ENCODER_SIDE | {"langs", "src_vocab_size"},
    seq2seq=WHOLE_FSMT, expects={}, derive=(*BART.derive, _padding_rows))

FAMILIES = [FSMT]
