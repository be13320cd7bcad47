"""Config classes that refuse a hidden_size that is no multiple of num_attention_heads even where head_dim is given
(issue #15): their ``validate_architecture`` (@strict) raises "The hidden size (5) is not a multiple of the number of
attention heads (2)" whatever head_dim says, so transformers 5.24.0 builds no model from such a config.  paramledger
counted it (a given head_dim sizes the heads alone); it is now refused in one line, as the class refuses it.

Found by giving every supported type two heads of a given width and a hidden_size one wider than both
(tests/test_head_multiple.py holds the table against transformers' classes, type by type).  The classes that derive
head_dim from hidden_size refuse the same config for the reason every design does (design/checks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._exceptions import ArchitectureError

_CLASS = "its config class's validate_architecture"
_MOSHI = "MoshiAttention refuses it while it builds (modeling_moshi.py)"
# the table that reads the decoder (a whole model's text table) -> where transformers refuses
HIDDEN_IN_HEADS: dict[str, str] = {
    **dict.fromkeys((
        "arcee", "aria_text", "cosmos3_edge", "cwm", "deepseek_v2", "eurobert", "exaone", "gemma2", "gemma3_text",
        "gemma3n", "gemma3n_text", "glmasr", "hrm_text", "hyperclovax", "internlm3", "iquestcoder", "jais2",
        "llama", "minicpm3", "ultrabert", "vaultgemma", "voxtral"), _CLASS),
    "moshi": _MOSHI, "kyutai_speech_to_text": _MOSHI,
}


def check(model_type: str, values: Mapping[str, Any], key_of: Callable[[str], str], where: str | None) -> None:
    """Refuse, for a table whose class refuses it, a hidden_size that num_attention_heads does not divide (sizes
    checked before: both positive ints), named under the config's own key."""
    why = HIDDEN_IN_HEADS.get(model_type)
    if why is None:
        return
    hidden, heads = values.get("hidden_size"), values.get("num_attention_heads")
    if type(hidden) is int and type(heads) is int and heads > 0 and hidden % heads:
        raise ArchitectureError(key_of("hidden_size"), f"{hidden} is not a multiple of num_attention_heads={heads}: "
                                f"transformers 5.24.0 refuses it whatever head_dim is ({why})", where)
