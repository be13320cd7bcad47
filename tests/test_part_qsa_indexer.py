"""Qwen4-Exp's QSA indexer part against transformers 5.24.0's Qwen4ExpTextQSAIndexer built alone: its tensors (names,
shapes, order; no buffers) and the indexer keys a DynamicCache holds after a prompt.  Not placed in designs yet
(docs/notes/coverage-set-c.md), so the module is built by itself."""

from __future__ import annotations

import pytest
from _part_reference import built, module_tensors, part_tensors
from hypothesis import given, settings
from hypothesis import strategies as st

from paramledger.parts.qsa_indexer import QsaIndexer

pytest.importorskip("transformers")

sizes = st.fixed_dictionaries({
    "hidden_size": st.sampled_from([4, 8, 16]),
    "indexer_n_heads": st.integers(1, 4),
    "indexer_head_dim": st.sampled_from([4, 8]),  # at least the attention's rotary width (head_dim 4)
    "compress_ratio": st.integers(1, 3),
    "blocks": st.integers(1, 3),  # indexer_budget = blocks × compress_ratio
})


def _module(drawn: dict):
    from transformers.models.qwen4_exp.configuration_qwen4_exp import Qwen4ExpTextConfig
    from transformers.models.qwen4_exp.modeling_qwen4_exp import Qwen4ExpTextQSAIndexer

    config = Qwen4ExpTextConfig(
        vocab_size=32, hidden_size=drawn["hidden_size"], num_hidden_layers=2, num_attention_heads=2,
        num_key_value_heads=1, head_dim=4, linear_num_key_heads=1, linear_num_value_heads=1, linear_key_head_dim=2,
        linear_value_head_dim=2, moe_intermediate_size=2, shared_expert_intermediate_size=2, num_experts=2,
        num_experts_per_tok=1, hc_count=2, hc_lowrank=2, layer_types=["linear_attention", "indexed_attention"],
        indexer_n_heads=drawn["indexer_n_heads"], indexer_kv_heads=1, indexer_head_dim=drawn["indexer_head_dim"],
        indexer_budget=drawn["blocks"] * drawn["compress_ratio"], indexer_compress_ratio=drawn["compress_ratio"],
        eos_token_id=1, pad_token_id=0)
    return config, built(lambda: Qwen4ExpTextQSAIndexer(config, layer_idx=1))


def _part(config) -> QsaIndexer:
    return QsaIndexer(config.hidden_size, config.indexer_n_heads, config.indexer_head_dim, config.indexer_kv_heads)


@given(drawn=sizes)
def test_tensors_are_the_modules_in_its_order(drawn):
    config, module = _module(drawn)
    assert part_tensors(_part(config)) == module_tensors("self_attn.indexer.", module)
    assert not list(module.named_buffers())  # and the part registers none


@settings(max_examples=25, deadline=None)
@given(drawn=sizes, prompt=st.integers(1, 6))
def test_the_cached_indexer_keys_are_one_per_token(drawn, prompt):
    import torch
    from transformers import DynamicCache

    config, module = _module(drawn)
    cache = DynamicCache(config=config)
    hidden = torch.randn(1, prompt, config.hidden_size)
    mask = torch.tril(torch.ones(prompt, prompt, dtype=torch.bool))[None, None]
    rotary = config.indexer_head_dim  # cos and sin as wide as the index heads: the rotation is not what is checked
    positions = (torch.ones(1, prompt, rotary), torch.zeros(1, prompt, rotary))
    with torch.no_grad():
        module(hidden, positions, mask, cache)
    keys = cache.layers[1].indexer_keys
    assert type(cache.layers[1]).__name__ == "DynamicIndexedLayer"
    assert keys.numel() == prompt * _part(config).kv_values_per_token()  # batch 1
