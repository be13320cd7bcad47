"""The whole models of set VL (issue #16: Mistral Large 4, ...): one-line refusals for a config they cannot count,
the components, Hugging Face's non-embedding count, the KV cache of layers that read an earlier layer's latent, and
--text-only where the decoder alone is no class.  Each whole model is checked tensor by tensor in
tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from test_kvcache import _cache_bytes, _run
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.kvcache import kv_cache
from paramledger.towers import text_only


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


# ----------------------------------------------------------------- Mistral Large 4
LARGE4_TEXT = {"model_type": "mistral_large4_text", "num_hidden_layers": 4, "hidden_size": 32, "intermediate_size": 16,
               "moe_intermediate_size": 8, "n_routed_experts": 2, "num_experts_per_tok": 2, "num_attention_heads": 2,
               "num_key_value_heads": 2, "kv_lora_rank": 8, "qk_rope_head_dim": 4, "qk_nope_head_dim": 4,
               "v_head_dim": 4, "index_head_dim": 6, "index_n_heads": 1, "vocab_size": 50}
SMALL_LARGE4 = {"model_type": "mistral_large4", "text_config": LARGE4_TEXT,
                "vision_config": {"model_type": "pixtral", "hidden_size": 16, "intermediate_size": 8,
                                  "num_hidden_layers": 1, "num_attention_heads": 2}}


def _large4(**text: object) -> dict:
    return {**SMALL_LARGE4, "text_config": {**LARGE4_TEXT, **text}}


@pytest.mark.parametrize(("text", "message"), [
    ({"no_rope_layers": [1, 1]}, r"no_rope_layers: must list 1 \(RoPE\) or 0 \(NoPE\) for each of the 4 layers"),
    ({"no_rope_layers": [1, 2, 1, 1]}, r"no_rope_layers: must list 1 \(RoPE\) or 0 \(NoPE\)"),
    ({"no_rope_layer_interval": 0}, "no_rope_layer_interval: must be a positive integer, got 0"),
    ({"kv_source_layers": [0, 0]}, "kv_source_layers: must list one layer index for each of the 4 layers"),
    ({"kv_source_layers": [0, 2, 2, 3]}, "kv_source_layers: layer 1 must share KV with an earlier layer that owns"),
    ({"kv_source_layers": [0, 0, 1, 3]}, "kv_source_layers: layer 2 must share KV with an earlier layer that owns"),
    ({"indexer_types": ["full", "sometimes", "full", "full"]},
     "indexer_types: must list \"full\" or \"shared\" for each of the 4 layers"),
    ({"index_n_heads": 0}, "index_n_heads: must be positive, got 0"),
    ({"kv_lora_rank": None}, "kv_lora_rank: required with scaled_mla_layers"),
])
def test_a_mistral_large4_config_it_cannot_count_is_one_line(text, message):
    _refused(_large4(**text), message)


def test_a_q_lora_rank_set_on_mistral_large4_is_refused():
    """MistralLarge4TextAttention deletes q_a_proj: --set q_lora_rank has nothing to build."""
    with pytest.raises(ArchitectureError, match="q_lora_rank: must be unset with scaled_mla_layers"):
        paramledger.load(SMALL_LARGE4).replace(q_lora_rank=8)


def test_the_cli_refuses_a_bad_mistral_large4_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "mistral_large4", "text_config": {"kv_source_layers": [1]}}',
                       "kv_source_layers: must list one layer index for each of the 72 layers")


def test_mistral_large4s_decoder_alone_is_refused():
    with pytest.raises(OptionError, match="mistral_large4: its decoder alone is no class transformers"):
        text_only(paramledger.load(SMALL_LARGE4))


def test_mistral_large4s_projector_and_tower_and_non_embedding_count():
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    ours, (projector, tower) = _sums(SMALL_LARGE4, "model.multi_modal_projector.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (projector, tower)
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**SMALL_LARGE4))
    inventory = paramledger.inventory(paramledger.load(SMALL_LARGE4))
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_mistral_large4s_defaults_are_its_one_trillion():
    """MistralLarge4Config() whole (Mistral-Large-4-1T-A52B's sizes, the class docstring's checkpoint)."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "mistral_large4"}))
    assert inventory.total == 1_051_822_421_536
    assert (inventory.components["vision"], inventory.components["projector"]) == (1_637_107_712, 67_110_912)


@pytest.mark.parametrize(("sources", "indexers", "rope"), [
    ([0, 0, 2, 3], None, None),  # layer 1 reads layer 0's latent and runs its own indexer: it caches that key
    ([0, 0, 2, 2], ["full", "full", "shared", "shared"], [1, 1, 0, 0]),  # a reusing layer without an indexer: none
    ([0, 1, 1, 3], ["full", "shared", "full", "shared"], [0, 0, 0, 0]),  # NoPE: no rotary key
])
def test_mistral_large4s_cache_is_what_transformers_caches(sources, indexers, rope):
    config = _large4(kv_source_layers=sources, **({"indexer_types": indexers} if indexers else {}),
                     **({"no_rope_layers": rope} if rope else {}))
    from paramledger.reference import auto_class, hf_config

    hf = hf_config(config)
    model = auto_class(hf, decoder_alone=True).from_config(hf, experts_implementation="eager").eval()
    assert kv_cache(paramledger.load(config), 3, 2, "fp32").bytes == _cache_bytes(_run(model, 2, 3))
