"""Keys a config class computes as a read-only property (issue #15): given in a config, PreTrainedConfig.__post_init__
sets them like any keyword and Python refuses ("property 'head_dim' of 'FalconConfig' object has no setter"), so
transformers 5.24.0 loads no such config.  paramledger counted it, the key unread or read as the class derives it; it
is now refused in one line naming the key.  A class that takes the key before the keywords are set (NemotronHConfig's
hybrid_override_pattern, read in its __post_init__) is not here: it builds.

Found by giving each supported type's decoder section each of its class's setter-less properties
(tests/test_read_only.py holds the table against transformers' classes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

# PreTrainedConfig's own (configuration_utils.py), refused in every section
EVERY = frozenset({"use_return_dict", "is_heterogeneous", "per_layer_attributes"})
_LAYER_TYPES = frozenset({"layer_types"})
_KV_SHARING = frozenset({"kv_sharing_modes"})
_BLOCK_TYPE = frozenset({"layers_block_type"})
# the table reading a decoder section -> its class's other read-only properties
READ_ONLY: dict[str, frozenset[str]] = {
    "falcon": frozenset({"head_dim", "rotary"}),
    **dict.fromkeys(("bamba", "falcon_h1", "recurrent_gemma"), _BLOCK_TYPE),
    **dict.fromkeys(("falcon_mamba", "mamba", "mamba2"), _LAYER_TYPES),
    **dict.fromkeys(("gemma3n", "gemma3n_text", "gemma4_text", "gemma4_assistant", "gemma4_unified_text",
                     "gemma4_unified_assistant", "mistral_large4"), _KV_SHARING),
    "inkling2_loop_text": frozenset({"total_num_hidden_layers"}),
    "inkling_text": frozenset({"mtp_layer_types", "mtp_mlp_layer_types"}),
    "jamba": frozenset({"layer_types", "layers_block_type", "layers_num_experts"}),
    "minicpm3": frozenset({"logits_scaling"}),
    "moshi": frozenset({"sampling_rate"}),
    "neomme": frozenset({"patch_dim"}),
    "xlstm": frozenset({"qk_dim", "qk_head_dim", "v_dim", "v_head_dim"}),
}


def check(config: Mapping[str, Any], model_type: str, where: str | None) -> None:
    """Refuse a key of ``config`` (the section the table ``model_type`` reads) that its class cannot set."""
    for names in (EVERY, READ_ONLY.get(model_type, ())):
        for name in names:
            if name in config:
                raise ArchitectureError(name, "is a read-only property of its config class: transformers 5.24.0 "
                                              "cannot load a config that gives it", where)
