"""GIT (microsoft/git-*): the whole GitForCausalLM, a CLIP vision tower and a BERT-style decoder that reads the
projected image tokens before the text (transformers 5.24.0 models/git/modeling_git.py).

Identical to bert-generation (families/bert_generation.py) except (GitModel, GitForCausalLM, GitConfig):
- the decoder's modules sit under git. (git.embeddings: word and position tables and a LayerNorm, no token types;
  git.encoder.layer.{i}: GitLayer, BertLayer's names and post-norms, no cross-attention);
- GitModel registers its vision tower (git.image_encoder, towers/git.py) between the embeddings and the layers, and
  its projector (git.visual_projection, git.img_temporal_embedding) after them;
- the head is ``output``, one biased Linear registered after git, tied to the word table by GitConfig's own
  tie_word_embeddings (default False) while its bias stays (_tied_weights_keys names output.weight alone);
- GitConfig's defaults: the decoder's keys at the config's top level, beside vision_config (Whole.text_at_top).

The decoder alone is no class transformers builds (GitModel always builds its image encoder; there is no GIT text
config nor CausalLM without it): --text-only is refused in one line."""

from __future__ import annotations

import dataclasses

from ..towers import Whole
from ..towers.git import IMAGE_TOKENS, git
from ._family import derived_from
from .bert_generation import FAMILIES as GENERATION

BERT_GENERATION = GENERATION[0]

WHOLE = Whole(
    {"model_type": "git_vision_model"}, git, vision_prefix="git.image_encoder.vision_model.", projector_prefix="git.",
    decoder_prefix="git.", tie_word_embeddings=False, vision_kind="git_vision_model", text_at_top=True,
    image_tokens=IMAGE_TOKENS, text_model_type="git",  # the decoder is read by this table itself
    decoder_alone_refused="the decoder alone is no class transformers builds (GitModel always builds its image "
                          "encoder, and GIT has no text-only config or CausalLM): count the whole model")

FAMILIES = [derived_from(
    BERT_GENERATION, model_type="git", causal_lm_class="GitForCausalLM",
    source="transformers 5.24.0 models/git/configuration_git.py (GitConfig, GitVisionConfig)",
    naming=dataclasses.replace(
        BERT_GENERATION.naming, embed="git.embeddings.word_embeddings",
        positions="git.embeddings.position_embeddings", embed_norm="git.embeddings.LayerNorm",
        layer="git.encoder.layer.{i}", lm_head="output", lm_head_bias=None,
        model_buffers=(("git.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),),
        # GitModel.__init__: embeddings, image_encoder, encoder, visual_projection, img_temporal_embedding; then output
        model_order=("git.embeddings", "git.image_encoder", "git.encoder.layer", "git.visual_projection",
                     "git.img_temporal_embedding", "output")),
    keys={key: field for key, field in BERT_GENERATION.keys.items() if key != "add_cross_attention"},
    defaults={"vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 6, "num_attention_heads": 12,
              "intermediate_size": 3072, "hidden_act": "gelu", "max_position_embeddings": 1024,
              "tie_word_embeddings": False},
    # (num_image_with_embedding: read by the projector; vision_config: by the tower, beside the decoder's keys)
    count_neutral=BERT_GENERATION.count_neutral | {"num_image_with_embedding", "vision_config"},
    derive=(), text_config=True, whole=WHOLE,
)]
