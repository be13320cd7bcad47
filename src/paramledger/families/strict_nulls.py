"""Null where a config class takes none (issue #15): huggingface_hub's @strict refuses None for a field whose
annotation admits none (Gemma2Config's ``intermediate_size: int``), so transformers 5.24.0 loads no config giving one.
paramledger read such a null as the class default and counted the config (1,729 type-key pairs of the supported types'
smallest configs); it is now refused in one line naming the key.  A field whose annotation admits None keeps its
reading (the class derives it, or the family's rule says what null means there).

strict_nulls.json (package data) lists, for each table that reads a decoder section (a whole model's text table), the
fields its config class declares without None, PreTrainedConfig's own under "*": written by scripts/strict_nulls.py
from transformers' classes and held against them by tests/test_strict_nulls.py.  It is read only when a config gives
a null, checked on the section as given (before an alias is set over a field, as @strict checks the fields first) and
after the decoder's own refusals, which say what a null there breaks.
"""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from .._exceptions import ArchitectureError


_KV = frozenset({"num_key_value_heads"})
_DENSE = frozenset({"first_k_dense_replace"})
# Nulls the class takes (its annotation admits None) but its model cannot be built with: the modeling code does
# arithmetic on the value (TypeError, ZeroDivisionError).  Found by setting each key of every supported type's smallest
# config to null (docs/notes/flag-parity.md); tests/test_strict_nulls.py builds each with transformers.
BUILD_FAILS: dict[str, frozenset[str]] = {
    "afmoe": frozenset({"global_attn_every_n_layers", "head_dim", "num_dense_layers"}),
    "bart": frozenset({"decoder_ffn_dim"}),
    **dict.fromkeys(("chameleon", "emu3_text_model", "ernie4_5_moe", "ernie4_5_vl_moe", "evolla", "qwen2_moe"), _KV),
    **dict.fromkeys(("deepseek_v3", "dots1", "sarvam_mla"), _DENSE),
    "mistral4": _DENSE | {"head_dim"},
    "diffllama": frozenset({"lambda_std_dev"}),
    "exaone4": frozenset({"sliding_window", "sliding_window_pattern"}),
    **dict.fromkeys(("exaone_moe", "gemma3_text"), frozenset({"sliding_window_pattern"})),
    **dict.fromkeys(("falcon_mamba", "mamba"), frozenset({"intermediate_size"})),
    "glm": _KV | {"head_dim"}, "olmoe": frozenset({"head_dim"}),
    "granitemoehybrid": frozenset({"num_local_experts"}),
    **dict.fromkeys(("step3p7", "bailing_hybrid"), frozenset({"num_nextn_predict_layers"})),
    "gpt_neo": frozenset({"attention_layers"}),  # (GPTNeoConfig.validate_architecture takes its len())
}


@cache
def _table() -> dict[str, frozenset[str]]:
    text = importlib.resources.files(__package__).joinpath("strict_nulls.json").read_text(encoding="utf-8")
    return {table: frozenset(fields) for table, fields in json.loads(text).items()}


def check(config: Mapping[str, Any], model_type: str, where: str | None) -> None:
    """Refuse a null ``config`` (the section the table ``model_type`` reads) gives a field its class takes no null in."""
    if None not in config.values():  # (most configs: one scan, the table never read)
        return
    table, fails = _table(), BUILD_FAILS.get(model_type, frozenset())
    fields = table["*"] | table.get(model_type, frozenset())
    for key, value in config.items():
        if value is None and key in fields:
            raise ArchitectureError(key, "null, where its config class takes none: transformers 5.24.0 refuses it "
                                         "(the field's type admits no None)", where)
        if value is None and key in fails:
            raise ArchitectureError(key, "null: its config class takes it, but transformers 5.24.0 cannot build the "
                                         "model (its code reckons with the value)", where)
