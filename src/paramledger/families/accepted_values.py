"""String keys that take only a few values, where transformers 5.24.0 cannot build a config with another (issue
#15: found by scripts/flag_parity.py --strings, each counted before).  Refused in one line naming the key, the values
the class takes and where transformers refuses the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

_POOLING = {"classifier_pooling": (("cls", "mean"), "its config class's Literal field (@strict)")}
_BIG_BIRD = {"attention_type": (("original_full", "block_sparse"), "BigBirdAttention raises ValueError for another")}
# model_type (the whole model's, or the table's that reads its decoder) -> key -> (values, why the others fail)
ACCEPTED: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {
    # configuration_modernbert.py line 103, ultrabert line 77 (their vision wholes read text_config through them)
    "modernbert": _POOLING, "ultrabert": _POOLING, "modernvbert": _POOLING, "ultravbert": _POOLING,
    "modernbert-decoder": _POOLING,
    # modeling_big_bird.py lines 1070-1077, modeling_bigbird_pegasus.py lines 1040-1044
    "big_bird": _BIG_BIRD, "bigbird_pegasus": _BIG_BIRD,
    # configuration_neomme.py line 81: hidden_act: Literal["relu2"]
    "neomme": {"hidden_act": (("relu2",), "NeoMMEConfig's Literal field (@strict)")},
    # modeling_openai.py lines 43, 122: ACT_FNS[config.afn], a KeyError for another
    "openai-gpt": {"afn": (("relu", "silu", "gelu", "swish"), "OpenAIGPTModel reads its own ACT_FNS")},
}


def check(config: Mapping[str, Any], model_type: str, text_type: str, where: str | None) -> None:
    """Refuse a value outside the few ``model_type`` (or the table ``text_type``) takes, naming its key."""
    for accepted in (ACCEPTED.get(model_type), ACCEPTED.get(text_type)):
        for key, (values, why) in (accepted or {}).items():
            if key in config and config[key] not in values:
                raise ArchitectureError(key, f"{config[key]!r} is not one of {', '.join(map(repr, values))}: "
                                             f"transformers 5.24.0 cannot build it ({why})", where)
