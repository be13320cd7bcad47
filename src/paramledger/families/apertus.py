"""Apertus: Llama's attention with per-head-dim q/k RMSNorms and biases on q, k, v and o by
attention_bias, an ungated up/down FFN whose xIELU activation holds two learned scalars (alpha_p,
alpha_n) in every layer, and its own norm names.  Apertus 1.5's text decoder is the same block over
a wider vocabulary, whose output head may be pruned to output_vocab_size rows.

Apertus 1.5 whole (Apertus1p5ForConditionalGeneration, transformers 5.24.0 models/apertus1p5/modeling_apertus1p5.py):
that decoder under model.language_model, then the EMU3.5 vision tokenizer under model.vision_tokenizer
(towers/apertus1p5_vq.py) and WavTokenizer's encoder under model.audio_tokenizer (towers/wavtokenizer.py), both in
float32; no projector (image and audio codes are looked up in the token table); lm_head last, output_vocab_size rows
when untied.  docs/notes/multimodal-trio.md."""

import dataclasses

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole, no_projector
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
APERTUS_NAMING = Naming(attn_pre_norm="attention_layernorm", ffn_pre_norm="feedforward_layernorm")
APERTUS_DEFAULTS = {"vocab_size": 131072, "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
                    "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "xielu",
                    "max_position_embeddings": 65536, "tie_word_embeddings": False, "attention_bias": False}
# ApertusAttention reads head_dim when the config carries one (getattr), else hidden_size // heads.
APERTUS_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias")}
APERTUS_SWITCHES = {"mlp_gated": False, "norm_type": "rmsnorm", "norm_placement": "pre", "qk_norm": "head",
                    "position_embedding_type": "rope"}


def tied_head_is_the_table(config):
    """A tied head is the token table whatever output_vocab_size says (transformers ties lm_head to
    embed_tokens, a pruned head only when untied); output_vocab_size == vocab_size is no pruning."""
    rows = config.get("output_vocab_size")
    if config.get("tie_word_embeddings") or rows == config["vocab_size"]:
        rows = None
    return {"output_vocab_size": rows}


APERTUS1P5_TEXT = Family(
    model_type="apertus1p5_text",  # Apertus' block; a vocabulary extended with image and audio codes
    causal_lm_class="Apertus1p5TextForCausalLM",
    source="transformers 5.24.0 models/apertus1p5/configuration_apertus1p5.py",
    naming=APERTUS_NAMING,
    keys={**APERTUS_KEYS, "output_vocab_size": "output_vocab_size"},
    defaults={**APERTUS_DEFAULTS, "vocab_size": 266752, "output_vocab_size": None},
    switches=APERTUS_SWITCHES,
    derive=(rules.output_bias_follows("attention_bias"), tied_head_is_the_table, rules.no_sliding),
)
def whole_ties_the_head(config, text):
    """The whole class ties (and so keeps lm_head at vocab_size rows) by the whole config's tie_word_embeddings
    (Apertus1p5Config: False), not text_config's: text_config is read with the whole's."""
    tie = config.get("tie_word_embeddings")
    return {**text, "tie_word_embeddings": False if tie is None else tie}


def code_ranges_fit(config):
    """Refused in one line as Apertus1p5Config.validate_architecture refuses it: the visual codes must end where the
    audio codes begin (image_token_offset + vision codebook_size == audio_token_offset) and the audio codes end
    within text_config's vocabulary.  Sizes that are no whole numbers are left to the towers' and decoder's checks."""
    def sub(key, name, default):
        section = config.get(key) if isinstance(config.get(key), dict) else {}
        return section.get(name, default)

    image, audio = config.get("image_token_offset", 131272), config.get("audio_token_offset", 262344)
    for key, value in (("image_token_offset", image), ("audio_token_offset", audio)):
        if type(value) is not int:
            raise ArchitectureError(key, f"must be a whole number, got {value!r}"[:200])
    visual, heard = sub("vision_config", "codebook_size", 131072), sub("audio_config", "codebook_size", 4096)
    vocab = sub("text_config", "vocab_size", 266752)
    if all(type(v) is int for v in (visual, heard, vocab)):
        if image + visual != audio:
            raise ArchitectureError("audio_token_offset", f"must be image_token_offset + vision_config.codebook_size "
                                    f"({image:,} + {visual:,}), got {audio:,}")
        if audio + heard > vocab:
            raise ArchitectureError("text_config.vocab_size", f"must hold the audio codes (audio_token_offset + "
                                    f"audio_config.codebook_size = {audio + heard:,}), got {vocab:,}")
    return config


# Apertus1p5Model registers language_model, vision_tokenizer, audio_tokenizer; the class then lm_head
APERTUS1P5 = multimodal(
    APERTUS1P5_TEXT, "apertus1p5",
    "transformers 5.24.0 models/apertus1p5/configuration_apertus1p5.py (Apertus1p5Config)",
    Whole({"model_type": "apertus1p5_vision_tokenizer"}, no_projector, vision_prefix="model.vision_tokenizer.",
          projector_prefix="", tie_word_embeddings=False, vision_kind="apertus1p5_vision_tokenizer",
          audio_config={"model_type": "wavtokenizer_encoder"}, audio_prefix="model.audio_tokenizer.",
          audio_first=False, text_rewritten=whole_ties_the_head,
          config_rewritten=code_ranges_fit),
    "Apertus1p5ForConditionalGeneration")

FAMILIES = [
    Family(
        model_type="apertus",
        causal_lm_class="ApertusForCausalLM",
        source=TF.format("apertus"),
        naming=APERTUS_NAMING,
        keys=APERTUS_KEYS,
        defaults=APERTUS_DEFAULTS,
        switches=APERTUS_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    APERTUS1P5_TEXT,
    dataclasses.replace(APERTUS1P5, naming=dataclasses.replace(APERTUS1P5.naming, model_order=(
        APERTUS1P5.naming.embed, APERTUS1P5.naming.layer.partition(".{i}")[0], APERTUS1P5.naming.final_norm,
        "model.vision_tokenizer", "model.audio_tokenizer", APERTUS1P5.naming.lm_head))),
]
