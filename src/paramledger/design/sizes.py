"""The sizes Architecture.validate checks, each a whole number in range: positive; positive or null; zero or more (or
null); the indexer's, positive or null and checked only with the indexer.  Every default is a valid size
(tests/test_engaged.py), so a design read from a mapping needs only the sizes it was given looked at."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..parts.sublayers import DECLARED
from .encoder_keys import EncoderKeys
from .values import positive

POSITIVE = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_multiple_of",
            "max_position_embeddings", "num_mem_blocks", *(key for kind in DECLARED for key in kind.positive))
POSITIVE_OR_NULL = ("num_key_value_heads", "sliding_num_key_value_heads", "head_dim", "intermediate_size",
                    "moe_intermediate_size", "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "v_head_dim",
                    "sliding_window", "index_n_heads", "output_vocab_size", "vocab_size_per_layer_input",
                    "moe_latent_size", "moe_hidden_size", "attention_hidden_size", "adapter_rank", "router_hidden_size",
                    "vision_moe_intermediate_size",
                    *(key for kind in DECLARED for key in kind.positive_or_null), *EncoderKeys.positive_or_null)
ZERO_OR_MORE = ("num_experts", "n_shared_experts", "shared_expert_intermediate_size", "qk_rope_head_dim",
                "num_kv_shared_layers", "hidden_size_per_layer_input", "altup_num_inputs", "laurel_rank",
                *EncoderKeys.zero_or_more)
INDEXER = ("index_head_dim", "index_topk", "index_kpool")  # positive or null, with index_n_heads
_ALL = frozenset({*POSITIVE, *POSITIVE_OR_NULL, *ZERO_OR_MORE, *INDEXER})
_NULL_ALLOWED = _ALL.difference(POSITIVE)


def check_sizes(fields: Mapping[str, Any], where: str | None, given: Mapping[str, Any] | None = None) -> None:
    """Every size of a design's ``fields`` in range, the first that is not named; ``given``: the keys set over the
    defaults, where each is a positive int or an allowed null (the common case, a set intersection and a short
    loop), and only then every size in order."""
    if given is not None and _fine(fields, given):
        return
    for key in POSITIVE:
        value = fields[key]
        if type(value) is not int or value <= 0:
            positive(value, key, where)
    for key in POSITIVE_OR_NULL:
        value = fields[key]
        if value is not None and (type(value) is not int or value <= 0):
            positive(value, key, where)
    for key in ZERO_OR_MORE:
        value = fields[key]
        if value is not None and (type(value) is not int or value < 0):
            positive(value, key, where, allow_zero=True)
    if fields["index_n_heads"] is not None:  # the indexer's sizes mean something only with the indexer
        for key in INDEXER:
            if fields[key] is not None:
                positive(fields[key], key, where)


def _fine(fields: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    for key in _ALL.intersection(given):
        value = fields[key]
        if not (type(value) is int and value > 0 or value is None and key in _NULL_ALLOWED):
            return False
    return True
