"""Qwen4-Exp's gated hyper-connections and n-gram per-layer embeddings (parts/hyper_connection.py) against
transformers 5.24.0's Qwen4ExpTextGatedResidual and Qwen4ExpTextPLELayer built alone: tensors (names, shapes,
order), buffers, and the states a DynamicCache keeps for a PLE layer, each module built by itself (the placed model:
tests/test_decoders_qx.py, test_decoders_hr_qwen4.py)."""

from __future__ import annotations

import pytest
from _part_reference import built, module_buffers, module_tensors, part_buffers, part_tensors
from hypothesis import given, settings
from hypothesis import strategies as st

from paramledger.parts.hyper_connection import GatedResidual, NGramEmbedding, is_prime, primes_after

pytest.importorskip("transformers")

sizes = st.fixed_dictionaries({
    "hidden_size": st.sampled_from([4, 8, 16]),
    "hc_count": st.integers(2, 4),  # Qwen4ExpTextConfig requires hc_count > 1
    "hc_lowrank": st.integers(1, 8),
    "ngram_size": st.integers(2, 4),
    "heads_per_ngram": st.integers(1, 3),
    "ngram_vocab_size_base": st.integers(2, 400),
    "make_ngram_vocab_size_divisible_by": st.sampled_from([1, 8, 128]),
    "ple_conv_kernel_size": st.integers(2, 4),
    "ple_count": st.integers(1, 3),  # PLE layers: the last one's index picks the latest primes
})


def _config(drawn: dict):
    from transformers.models.qwen4_exp.configuration_qwen4_exp import Qwen4ExpTextConfig

    layers = drawn["ple_count"] + 1
    heads = (drawn["ngram_size"] - 1) * drawn["heads_per_ngram"]
    return Qwen4ExpTextConfig(
        vocab_size=32, hidden_size=drawn["hidden_size"], num_hidden_layers=layers, num_attention_heads=2,
        num_key_value_heads=1, head_dim=4, linear_num_key_heads=1, linear_num_value_heads=1, linear_key_head_dim=2,
        linear_value_head_dim=2, moe_intermediate_size=2, shared_expert_intermediate_size=2, num_experts=2,
        num_experts_per_tok=1, hc_count=drawn["hc_count"], hc_lowrank=drawn["hc_lowrank"],
        layer_types=["linear_attention"] * (layers - 1) + ["indexed_attention"],
        ple_layer_ids=list(range(1, layers)), ple_embed_dim=heads * 2, ngram_size=drawn["ngram_size"],
        heads_per_ngram=drawn["heads_per_ngram"], ngram_vocab_size_base=drawn["ngram_vocab_size_base"],
        make_ngram_vocab_size_divisible_by=drawn["make_ngram_vocab_size_divisible_by"],
        ple_conv_kernel_size=drawn["ple_conv_kernel_size"], indexer_n_heads=1, indexer_kv_heads=1,
        indexer_head_dim=4, indexer_budget=4, indexer_compress_ratio=2, eos_token_id=1, pad_token_id=0)


def _ple(config, index: int) -> NGramEmbedding:
    return NGramEmbedding(config.hidden_size, config.hc_count, config.ple_embed_dim, config.ngram_size,
                          config.heads_per_ngram, config.ngram_vocab_size_base,
                          config.make_ngram_vocab_size_divisible_by, config.ple_conv_kernel_size, index)


@given(drawn=sizes, inject=st.booleans())
def test_gated_residual_is_the_modules_in_its_order(drawn, inject):
    from transformers.models.qwen4_exp.modeling_qwen4_exp import Qwen4ExpTextGatedResidual

    config = _config(drawn)
    module = built(lambda: Qwen4ExpTextGatedResidual(config, use_combine=inject))
    part = GatedResidual(config.hidden_size, config.hc_count, config.hc_lowrank, inject, "mlp_hyper_connection")
    assert part_tensors(part) == module_tensors("mlp_hyper_connection.", module)


@settings(max_examples=25, deadline=None)
@given(drawn=sizes)
def test_ngram_embedding_is_the_modules_tensors_and_buffers(drawn):
    import torch
    from transformers.models.qwen4_exp.modeling_qwen4_exp import Qwen4ExpTextPLELayer

    config = _config(drawn)
    index = drawn["ple_count"] - 1  # the last PLE layer: its heads take the primes after every earlier layer's
    module = built(lambda: Qwen4ExpTextPLELayer(config, layer_idx=index, ple_layer_index=index), torch.bfloat16)
    part = _ple(config, index)
    assert part_tensors(part) == module_tensors("ple.", module)
    assert part_buffers(part) == module_buffers("ple.", module, torch.bfloat16)


def test_the_default_tables_rows_are_the_primes_transformers_finds():
    """Qwen4ExpTextConfig's own n-gram sizes (a base of 20,000,000, 16 heads, 128-row padding), for the first and
    the third PLE layer, on the meta device: the row counts come from the primes alone."""
    from transformers.models.qwen4_exp.configuration_qwen4_exp import Qwen4ExpTextConfig
    from transformers.models.qwen4_exp.modeling_qwen4_exp import Qwen4ExpTextNGramEmbedding

    config = Qwen4ExpTextConfig(indexer_n_heads=1, indexer_kv_heads=1, indexer_head_dim=256, indexer_budget=4,
                                indexer_compress_ratio=2)
    for index in (0, 2):
        module = built(lambda index=index: Qwen4ExpTextNGramEmbedding(config, config.hidden_size, 0, index),
                       device="meta")
        part = NGramEmbedding(config.hidden_size, config.hc_count, config.hidden_size, config.ngram_size,
                              config.heads_per_ngram, config.ngram_vocab_size_base,
                              config.make_ngram_vocab_size_divisible_by, config.ple_conv_kernel_size, index)
        assert part.rows == module.ngram_embedding.weight.shape[0]
        assert part_tensors(part)[0][1] == tuple(module.ngram_embedding.weight.shape)


@settings(max_examples=25, deadline=None)
@given(drawn=sizes, prompt=st.integers(1, 5))
def test_a_ple_layers_cached_states_are_what_transformers_holds(drawn, prompt):
    import torch
    from transformers import DynamicCache
    from transformers.models.qwen4_exp.modeling_qwen4_exp import Qwen4ExpTextPLELayer

    config = _config(drawn)
    module = built(lambda: Qwen4ExpTextPLELayer(config, layer_idx=0, ple_layer_index=0))
    cache = DynamicCache(config=config)
    hidden = torch.randn(1, prompt, config.hc_count * config.hidden_size)
    with torch.no_grad():
        module(hidden, torch.randint(2, config.vocab_size, (1, prompt)), cache)
    layer = cache.layers[0]
    held = sum(layer.conv_states[i].numel() for i in (1, 2))  # state 0 is the layer's Gated DeltaNet's
    assert held == _ple(config, 0).state_values()


def test_primes_are_found_as_transformers_finds_them():
    from transformers.models.qwen4_exp.modeling_qwen4_exp import _find_nth_prime_after

    assert [p for p in range(60) if is_prime(p)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
    assert primes_after(999, 12) == tuple(_find_nth_prime_after(999, n) for n in range(1, 13))
