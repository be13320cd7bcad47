"""Kyutai speech-to-text (KyutaiSpeechToTextForConditionalGeneration) counted whole: Moshi's decoder (families/moshi.py)
at the config's top level, its head, then the Mimi codec under "codec_model." (towers/mimi.py), registered after the
head.

transformers 5.24.0 models/kyutai_speech_to_text/modeling_kyutai_speech_to_text.py (KyutaiSpeechToTextEmbeddings,
KyutaiSpeechToTextModel, KyutaiSpeechToTextForConditionalGeneration) and configuration_kyutai_speech_to_text.py
(KyutaiSpeechToTextConfig; codec_config a MimiConfig at its defaults when the config gives none)."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER
from ..towers import Whole, no_projector
from ._family import derived_from, multimodal
from .moshi import FAMILIES as MOSHI_FAMILIES
from .moshi import moshi_layers

MOSHI = next(iter(MOSHI_FAMILIES), None)
TF = ("transformers 5.24.0 models/kyutai_speech_to_text/configuration_kyutai_speech_to_text.py "
      "(KyutaiSpeechToTextConfig)")


def _count(config: Mapping[str, Any], key: str) -> int:
    value = config[key]
    if type(value) is not int or not 0 <= value <= MAX_INTEGER:
        raise ArchitectureError(key, f"must be a whole number from 0, got {value!r}"[:200])
    return value


def kyutai_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Moshi's layers, but the token table holds every codebook's tokens too: vocab_size + num_codebooks ×
    codebook_vocab_size + 1 rows (KyutaiSpeechToTextEmbeddings), audio_pad_token_id its padding row (nn.Embedding
    refuses one outside the table); the head keeps vocab_size rows."""
    rows = config["vocab_size"] + _count(config, "num_codebooks") * _count(config, "codebook_vocab_size") + 1
    pad = config.get("audio_pad_token_id")
    if pad is not None and (type(pad) is not int or not -rows <= pad < rows):
        raise ArchitectureError("audio_pad_token_id", f"must be null or a row of the token table (fewer than {rows:,}"
                                f" = vocab_size + num_codebooks × codebook_vocab_size + 1), got {pad!r}"[:200])
    layers = {**moshi_layers(config), "vocab_size": rows}
    if config.get("tie_word_embeddings"):  # tied, lm_head.weight is that table itself, rows × hidden_size (the tie
        layers["output_vocab_size"] = None  # replaces the head's Parameter whatever its shape: PreTrainedModel)
    return layers


def _offsets(config: Mapping[str, Any], tower: Any) -> list[tuple[str, tuple[int, ...], str, bool]]:
    """KyutaiSpeechToTextEmbeddings.audio_tokens_offsets: one int64 per codebook and the text's, non-persistent."""
    return [("model.embed_tokens.audio_tokens_offsets", (config.get("num_codebooks", 32) + 1,), "int64", False)]


def _codec_last(naming: Any) -> Any:
    """KyutaiSpeechToTextForConditionalGeneration registers model, lm_head, then codec_model."""
    return dataclasses.replace(naming, model_order=(naming.embed, naming.layer.partition(".{i}")[0],
                                                    naming.final_norm, naming.lm_head, "codec_model"))


WHOLE = Whole({}, no_projector, audio_config={"model_type": "mimi"}, audio_key="codec_config",
              audio_prefix="codec_model.", decoder_prefix="model.", tie_word_embeddings=False,
              text_at_top=True, model_buffers=_offsets, renamed=_codec_last,
              decoder_alone_refused="KyutaiSpeechToTextForConditionalGeneration always holds its Mimi codec; its "
                                    "decoder alone is no class transformers builds")

FAMILIES = [] if MOSHI is None else [
    # identical to moshi except: the token table under embed_tokens.embed_tokens with the codebooks' rows, its
    # offsets buffer, the codec beside it, and tie_word_embeddings read: true ties the vocab_size-row head to that
    # larger table, lm_head.weight becoming it (an alias, checked against transformers: docs/notes/requires-req1.md)
    multimodal(derived_from(
        MOSHI, model_type="kyutai_speech_to_text", causal_lm_class="KyutaiSpeechToTextForConditionalGeneration",
        source=TF, naming=dataclasses.replace(MOSHI.naming, embed="model.embed_tokens.embed_tokens"),
        defaults={**MOSHI.defaults, "vocab_size": 4001, "hidden_size": 2048, "num_hidden_layers": 48,
                  "num_attention_heads": 32, "max_position_embeddings": 750, "sliding_window": 375, "ffn_dim": 11264,
                  "num_codebooks": 32, "codebook_vocab_size": 2049, "audio_pad_token_id": 69569},
        # (tie_word_embeddings: read by WHOLE's tie_keys and kyutai_layers, moshi's own count-neutral entry kept)
        count_neutral=MOSHI.count_neutral | {"codebook_vocab_size", "audio_bos_token_id", "audio_pad_token_id",
                                             "codec_config", "frame_size"},
        derive=(kyutai_layers,)), "kyutai_speech_to_text", TF, WHOLE, "KyutaiSpeechToTextForConditionalGeneration"),
]
