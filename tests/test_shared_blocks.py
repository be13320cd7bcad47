"""Zamba's and Zamba2's shared transformer block: the caches its uses hold against transformers' after a real
forward pass, and one-line refusals for the keys it brings (docs/notes/hybrids-b.md)."""

from __future__ import annotations

import pytest
from test_hybrids import _model
from test_kvcache import _cache_bytes, _run, _state_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache

HEADS = {"vocab_size": 64, "hidden_size": 16, "intermediate_size": 32, "num_attention_heads": 4}
SMALL = {
    "zamba": {**HEADS, "num_key_value_heads": 2, "num_hidden_layers": 4, "n_mamba_heads": 2, "mamba_d_state": 4,
              "layers_block_type": ["mamba", "hybrid", "mamba", "hybrid"]},
    # q, k and v adapters add 2 × hidden_size to k_proj's output: they run only with as many KV heads as heads
    "zamba2": {**HEADS, "num_key_value_heads": 4, "num_hidden_layers": 4, "n_mamba_heads": 4, "mamba_ngroups": 2,
               "mamba_d_state": 4, "layers_block_type": ["hybrid", "hybrid", "mamba", "hybrid"], "num_mem_blocks": 2,
               "use_shared_attention_adapter": True, "adapter_rank": 4},
}
DESIGN = {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 3, "num_attention_heads": 4}


@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("model_type", sorted(SMALL))
def test_every_use_of_a_shared_block_caches_its_own_keys_and_values(model_type, tied):
    """Each hybrid layer caches keys and values beside its Mamba's fixed state, byte for byte as
    transformers' DynamicCache holds them after a prefill of 5 tokens and 2 decoded, shared or not."""
    pytest.importorskip("transformers")
    config = {"model_type": model_type, "pad_token_id": 0, **SMALL[model_type], "tie_word_embeddings": tied}
    arch = paramledger.load(config)
    cache = _run(_model(config), batch=2, tokens=5, decode_steps=2)
    ours = kv_cache(arch, context=7, batch=2, dtype="fp32")
    assert ours.bytes == _cache_bytes(cache) > 0
    assert ours.state_bytes == _state_bytes(cache) > 0


def test_a_tied_later_use_names_the_first_uses_tensors():
    """Zamba2 with two blocks over three hybrids: the third runs block 0, so its shared_transformer names are
    aliases of the first hybrid's, its adapter slots included; its linear and Mamba layer are its own."""
    config = {"model_type": "zamba2", **SMALL["zamba2"]}
    inventory = paramledger.inventory(paramledger.load(config))
    later = {alias: target for alias, target in inventory.aliases.items() if alias.startswith("model.layers.3.")}
    assert later["model.layers.3.shared_transformer.self_attn.linear_q_adapter_list.2.0.weight"] == (
        "model.layers.0.shared_transformer.self_attn.linear_q_adapter_list.2.0.weight")
    assert all(target.startswith("model.layers.0.shared_transformer.") for target in later.values())
    assert "model.layers.3.linear.weight" in inventory.names()
    untied = paramledger.inventory(paramledger.load({**config, "tie_word_embeddings": False}))
    assert untied.aliases == {} and untied.total > inventory.total


@pytest.mark.parametrize("values, key, message", [
    ({"shared_block_layers": [1, 3]}, "shared_block_layers", "layer 3 is outside 0..2"),
    ({"shared_block_layers": [1, 1]}, "shared_block_layers", "lists a layer twice"),
    ({"adapter_rank": 4}, "adapter_rank", "set without shared_block_layers"),
    ({"shared_block_layers": [1], "use_shared_attention_adapter": True}, "use_shared_attention_adapter",
     "set without adapter_rank"),
    ({"mamba_layers": [0, 1, 2], "mamba_version": 1, "mamba_d_state": 4, "mamba_d_conv": 4, "mamba_n_heads": 3},
     "mamba_n_heads", "3 does not divide the Mamba width 32"),
])
def test_a_shared_block_design_that_cannot_be_built_is_one_line(values, key, message):
    with pytest.raises(ArchitectureError, match=f"{key}: .*{message}"):
        paramledger.load({**DESIGN, **values})


@pytest.mark.parametrize("config, key, message", [
    ({"model_type": "zamba", "num_hidden_layers": 3, "layers_block_type": ["mamba", "hybrid", "mamba"]},
     "tie_word_embeddings", "true with a single hybrid layer: transformers 5.24.0 cannot build it"),
    ({"model_type": "zamba", "num_hidden_layers": 4, "layers_block_type": ["mamba", "hybrid"]},
     "layers_block_type", "must list \"mamba\" or \"hybrid\" for each of the 4 layers"),
    ({"model_type": "zamba2", "num_hidden_layers": 2, "layer_types": ["hybrid", "hybrid"]},
     "layer_types", "names other hybrid layers than layers_block_type"),
    ({"model_type": "zamba2", "num_hidden_layers": 2, "layers_block_type": ["hybrid", "hybrid"],
      "hybrid_layer_ids": [1]}, "hybrid_layer_ids", "names other hybrid layers than layers_block_type"),
])
def test_a_zamba_config_transformers_would_not_build_as_read_is_one_line(config, key, message):
    with pytest.raises(ArchitectureError, match=f"config: {key}: {message}"):
        paramledger.load({**HEADS, "num_key_value_heads": 4, **config})
