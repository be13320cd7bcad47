"""TAPAS (transformers 5.24.0 models/tapas, TapasForMaskedLM; only in the masked-LM mapping): BERT
(families/bert.py) with one token-type table per column of its token_type_ids (segment, column, row, previous
label, column rank, inverse column rank, numeric relations: TapasEmbeddings' token_type_embeddings_{t}).

Identical to bert except (configuration_tapas.py, modeling_tapas.py lines 68-140, 664-680): TapasModel under
"tapas" without its pooler; type_vocab_sizes' tables (any number, each hidden wide) registered after the position
table and before the LayerNorm, no single token-type table and no buffers; TapasConfig's defaults (1,024 positions,
seven tables of 3, 256, 256, 2, 256, 256 and 10 rows); the table-QA keys (aggregation, cell selection, losses) change
no tensor of the masked-LM class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .bert import BERT, reading_cross_attention
from .bert_variants import renamed


def token_type_tables(config: Mapping[str, Any]) -> dict[str, Any]:
    """TapasEmbeddings: nn.Embedding(rows, hidden_size) for each entry of type_vocab_sizes, in order."""
    sizes = config.get("type_vocab_sizes")
    if not isinstance(sizes, (list, tuple)) or not all(type(rows) is int and rows >= 0 for rows in sizes):
        raise ArchitectureError("type_vocab_sizes", f"{sizes!r} is not a list of table sizes (whole numbers, 0 or "
                                "more)")
    return {"type_vocab_sizes": tuple(sizes), "type_vocab_size": None}


QA_KEYS = frozenset({
    "positive_label_weight", "num_aggregation_labels", "aggregation_loss_weight", "use_answer_as_supervision",
    "answer_loss_importance", "use_normalized_answer_loss", "huber_loss_delta", "aggregation_temperature",
    "use_gumbel_for_cells", "use_gumbel_for_aggregation", "average_approximation_function",
    "cell_selection_preference", "answer_loss_cutoff", "max_num_rows", "max_num_columns", "average_logits_per_cell",
    "select_one_column", "allow_empty_column_selection", "init_cell_selection_weights_to_zero",
    "reset_position_index_per_cell", "disable_per_token_loss", "aggregation_labels", "no_aggregation_label_index"})

TAPAS = derived_from(
    BERT, model_type="tapas", causal_lm_class="TapasForMaskedLM",
    source="transformers 5.24.0 models/tapas/configuration_tapas.py",
    naming=renamed(BERT.naming, "tapas", token_types="tapas.embeddings.token_type_embeddings_{t}", model_buffers=()),
    keys={key: field for key, field in BERT.keys.items() if key != "type_vocab_size"},
    defaults={**{key: value for key, value in BERT.defaults.items() if key != "type_vocab_size"},
              "max_position_embeddings": 1024, "type_vocab_sizes": [3, 256, 256, 2, 256, 256, 10]},
    count_neutral=BERT.count_neutral | QA_KEYS | {"type_vocab_sizes"},  # read by token_type_tables
    derive=(*BERT.derive, token_type_tables), explain=())

FAMILIES = [reading_cross_attention(TAPAS)]  # TapasLayer's crossattention is BERT's, under BERT's names
