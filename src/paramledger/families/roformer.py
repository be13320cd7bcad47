"""RoFormer (transformers 5.24.0 models/roformer; RoFormerForCausalLM, the class the mapping registers, holds
RoFormerForMaskedLM's tensors): BERT's encoder (families/bert.py) whose attention rotates queries and keys by a
sinusoidal table the encoder holds as a parameter.

Identical to bert except (configuration_roformer.py, modeling_roformer.py lines 50-660): RoFormerModel under
"roformer"; no learned position table in the embeddings, but RoFormerEncoder.embed_positions
(RoFormerSinusoidalPositionalEmbedding, an nn.Embedding of max_position_embeddings × hidden / heads, filled with
sines and cosines and frozen: _freeze=True), registered after the embeddings and before the layers; ELECTRA's
factorized tables (embedding_size, roformer.embeddings_project when it differs from hidden_size, the head's dense
and LayerNorm at that width); no buffers; RoFormerConfig's defaults (50,000 rows, 1,536 positions)."""

from __future__ import annotations

from ._family import derived_from
from .bert import BERT, reading_cross_attention
from .bert_variants import renamed

TABLE = "roformer.encoder.embed_positions"

ROFORMER = derived_from(
    BERT, model_type="roformer", causal_lm_class="RoFormerForCausalLM",
    source="transformers 5.24.0 models/roformer/configuration_roformer.py",
    naming=renamed(BERT.naming, "roformer", positions=TABLE, positions_head_wide=True,
                   embed_project="roformer.embeddings_project", model_buffers=(),
                   model_order=("roformer.embeddings", "roformer.embeddings_project", TABLE, "roformer.encoder.layer",
                                "cls.predictions.bias", "cls.predictions.transform")),
    keys={**BERT.keys, "embedding_size": "embedding_size"},
    defaults={**BERT.defaults, "vocab_size": 50000, "max_position_embeddings": 1536, "embedding_size": None},
    # the sinusoidal table is a parameter no optimizer steps (requires_grad False)
    switches={**BERT.switches, "frozen": (TABLE + ".weight",)},
    count_neutral=BERT.count_neutral | {"rotary_value"}, explain=())

FAMILIES = [reading_cross_attention(ROFORMER)]  # RoFormerLayer's crossattention is BERT's, under BERT's names
