"""DeBERTa v1 (transformers 5.24.0 models/deberta, DebertaForMaskedLM; only in the masked-LM mapping): BERT's
post-LN encoder (families/bert.py) with disentangled attention (parts/disentangled_extras.py) and DeBERTa-v2's
tables (families/deberta_v2.py).

Identical to deberta-v2 except (configuration_deberta.py, modeling_deberta.py lines 138-184, 336-366, 513-524): q,
k and v fused in attention.self.in_proj without a bias, beside q_bias and v_bias parameters; talking_head's two
heads × heads projections; with relative attention, pos_proj (c2p) and pos_q_proj (p2c) in every attention (no
share_att_key: v1 always holds its own) and rel_embeddings of 2 × max_relative_positions rows (max_position_embeddings
below 1; no position_buckets); no LayerNorm after the encoder (no norm_rel_ebd); DebertaConfig's defaults (RoBERTa's
vocabulary, BERT-base's sizes, relative attention off)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import derived_from
from .bert_variants import renamed
from .deberta_v2 import DEBERTA_V2


def disentangled(config: Mapping[str, Any]) -> dict[str, Any]:
    """DebertaEmbeddings' tables (a position table only with position_biased_input, token types only for
    type_vocab_size > 0, embed_proj without a bias when embedding_size differs: refused), DebertaEncoder's
    rel_embeddings and DisentangledSelfAttention's position projections by pos_att_type, with relative_attention."""
    width = config.get("embedding_size")
    if width is not None and width != config["hidden_size"]:
        raise ArchitectureError("embedding_size", f"{width} apart from hidden_size is not supported for deberta "
                                "(its embed_proj carries no bias; paramledger counts only equal widths)")
    relative = bool(config.get("relative_attention"))
    kinds = config.get("pos_att_type") or []
    kinds = [kind.strip() for kind in kinds.lower().split("|")] if isinstance(kinds, str) else list(kinds)
    positions = config.get("max_relative_positions")
    positions = config["max_position_embeddings"] if positions is None or positions < 1 else positions
    return {"position_embedding_type": "learned" if config.get("position_biased_input", True) else "none",
            "type_vocab_size": config.get("type_vocab_size") or None, "final_norm": False,
            "relative_embeddings_size": 2 * positions if relative else None, "disentangled_attention": True,
            "talking_head": bool(config.get("talking_head")),
            "position_key_proj": relative and "c2p" in kinds, "position_query_proj": relative and "p2c" in kinds}


DEBERTA = derived_from(
    DEBERTA_V2, model_type="deberta", causal_lm_class="DebertaForMaskedLM",
    source="transformers 5.24.0 models/deberta/configuration_deberta.py",
    naming=renamed(DEBERTA_V2.naming, "deberta", qkv="attention.self.in_proj",
                   layer_order=("attention.self.q_bias", "attention.self.v_bias", "attention.self.in_proj",
                                "attention.self.head_logits_proj", "attention.self.head_weights_proj",
                                "attention.self.pos_proj", "attention.self.pos_q_proj", "attention.output",
                                "intermediate", "output")),
    keys={key: field for key, field in DEBERTA_V2.keys.items() if key != "attention_head_size"},
    defaults={"vocab_size": 50265, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
              "intermediate_size": 3072, "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 0,
              "tie_word_embeddings": True, "position_biased_input": True, "relative_attention": False},
    switches={**DEBERTA_V2.switches, "attention_bias": False},
    count_neutral=(DEBERTA_V2.count_neutral - {"norm_rel_ebd", "position_buckets", "share_att_key", "conv_groups",
                                               "conv_act"}) | {"talking_head"},
    requires={},  # (legacy read as deberta-v2 reads it: the same head under the same names, modeling_deberta.py
    # lines 806-816)
    derive=(disentangled, rules.heads_fill_hidden("DisentangledSelfAttention refuses heads that do not divide "
                                                  "hidden_size")))

FAMILIES = [DEBERTA]
