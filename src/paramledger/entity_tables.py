"""LUKE's entity tables and entity head (transformers 5.24.0 models/luke, modeling_luke.py lines 361-402, 730-760,
1018-1030), built where a design has an entity vocabulary (entity_vocab_size): the second input beside the tokens
and the second output beside the LM head.

- Before the layers, LukeEntityEmbeddings under Naming.entity_embeddings: entity_embeddings (entity_vocab_size ×
  entity_emb_size, an nn.Embedding: out of Hugging Face's non-embedding count as the token table is), then
  entity_embedding_dense (an unbiased Linear entity_emb_size -> hidden_size, only where the two differ), its own
  position table (max_position_embeddings × hidden_size) and token-type table (type_vocab_size × hidden_size), and a
  LayerNorm.
- After the LM head, EntityPredictionHead under Naming.entity_predictions: its bias (entity_vocab_size, registered
  first: a module's own parameters come before its children's), transform.dense (hidden_size -> entity_emb_size,
  biased) and transform.LayerNorm, and decoder (entity_vocab_size × entity_emb_size, unbiased), tied to the entity
  table with tie_word_embeddings (LukeForMaskedLM._tied_weights_keys), its own else."""

from __future__ import annotations

from typing import Any

from .parts._collector import Collector


def entity_embeddings(c: Collector, arch: Any) -> None:
    path, d, width = c.naming.entity_embeddings, arch.hidden_size, arch.entity_emb_size
    c.add(f"{path}.entity_embeddings.weight", (arch.entity_vocab_size, width), "embedding")
    if width != d:
        c.linear(f"{path}.entity_embedding_dense", d, width, "ffn")
    c.add(f"{path}.position_embeddings.weight", (arch.max_position_embeddings, d), "positions")
    c.add(f"{path}.token_type_embeddings.weight", (arch.type_vocab_size or 0, d), "token_types")
    c.norm(f"{path}.LayerNorm", d)


def entity_head(c: Collector, arch: Any, aliases: dict[str, str]) -> None:
    n, rows, width = c.naming, arch.entity_vocab_size, arch.entity_emb_size
    path = n.entity_predictions
    c.add(f"{path}.bias", (rows,), "lm_head")
    c.linear(f"{path}.transform.dense", width, arch.hidden_size, "lm_head", None, True)
    c.norm(f"{path}.transform.LayerNorm", width)
    if arch.tie_word_embeddings:
        aliases[f"{path}.decoder.weight"] = f"{n.entity_embeddings}.entity_embeddings.weight"
    else:
        c.add(f"{path}.decoder.weight", (rows, width), "lm_head")
