"""Several keys set at once, where paramledger and transformers disagreed (issue #15, scripts/combo_parity.py): each
case is one of a supported type's first three random configs (tests/_family_configs.py) with the keys set in the
section its decoder reads, built by transformers 5.24.0 on the meta device inside the test.  Each now agrees: the
same total, or both refuse (paramledger in one line)."""

from __future__ import annotations

import pytest

from _flag_parity import with_keys
from _rope_parity import agree, examples, paramledger_outcome, sections, transformers_outcome

CASES = [
    # a given target over an alias that is a dataclass field (attribute_maps.TARGET_WINS): 2,634 where 2,662 built
    ("kolibri1", 0, {"num_hidden_layers": 2, "moe_intermediate_size": 2, "num_local_experts": 2}),
    ("mellum", 1, {"attention_bias": True, "num_key_value_heads": 2, "num_local_experts": 2, "hidden_size": 3}),
    # RecurrentGemmaConfig's head_dim, derived before the keywords: a given one wins (5,736 where 6,152 built)
    ("recurrent_gemma", 1, {"num_key_value_heads": 2, "lru_width": 3, "head_dim": 3}),
    # BailingHybridConfig derives the KDA's sizes before the keywords: a given one wins (112 where 100 built)
    ("bailing_hybrid", 0, {"layer_group_size": 2, "linear_conv_kernel_dim": 1, "num_attention_heads": 2}),
    ("bailing_hybrid", 0, {"layer_group_size": 2, "linear_head_dim": 4, "linear_num_heads": 2}),
    # refused by transformers, counted before
    ("arcee", 1, {"head_dim": 1, "num_key_value_heads": 2, "hidden_size": 1}),  # head_multiple.py
    ("exaone_moe", 2, {"num_hidden_layers": 2, "num_shared_experts": 2}),  # mlp_layer_types off the depth
    ("hy_v3", 0, {"num_hidden_layers": 2, "output_router_logits": True}),  # a shorter list: IndexError
    ("glm4_moe_lite", 2, {"moe_intermediate_size": 2, "hidden_size": 3, "num_hidden_layers": 2}),
    ("minimax_m3_vl_text", 1, {"num_hidden_layers": 2}),  # its legacy freq lists make lists off the depth
    ("cosmos3_edge", 0, {"pretraining_tp": 2, "head_dim": 1}),  # mrope_section past half of head_dim
    ("gemma3n_text", 2, {"sliding_window": 2, "num_hidden_layers": 2}),  # activation_sparsity_pattern
    ("longformer", 2, {"onnx_export": True, "num_hidden_layers": 2}),  # attention_window longer than the depth
]


@pytest.mark.parametrize("model_type, draw, changes", CASES,
                         ids=[f"{t}#{d}-" + ",".join(c) for t, d, c in CASES])
def test_keys_set_together_count_as_transformers_builds_them(model_type, draw, changes):
    config = examples(model_type, 3)[draw]
    paths = sections(model_type, config)
    for key, value in changes.items():
        config = with_keys(config, paths, key, value)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)
