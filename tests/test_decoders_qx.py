"""Qwen4-Exp's text decoder (families/qwen4_exp.py): its cache, fixed state and decoding FLOPs against a real
forward pass of transformers 5.24.0, what the parts place where, and one-line refusals for the keys it brings."""

from __future__ import annotations

import json

import pytest
from _family_configs_qx import PLE_TEXT
from hypothesis import HealthCheck, given, settings

import paramledger
from paramledger._exceptions import ArchitectureError, ParamledgerError
from paramledger.compute import forward_flops_per_token
from paramledger.kvcache import kv_cache

from test_families import assert_matches_reference
from test_kvcache import _cache_bytes, _run, _state_bytes

# Both attention spellings, PLE on two linear layers (the second takes the primes after the first's), two streams.
SMALL = {"model_type": "qwen4_exp_text", "pad_token_id": 0, "eos_token_id": 1, "vocab_size": 64, "hidden_size": 16,
         "num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
         "linear_num_key_heads": 1, "linear_num_value_heads": 2, "linear_key_head_dim": 4, "linear_value_head_dim": 4,
         "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 8, "shared_expert_intermediate_size": 8,
         "hc_count": 2, "hc_lowrank": 4,
         "layer_types": ["linear_attention", "indexed_attention", "linear_attention", "full_attention"],
         "ple_layer_ids": [3, 1], "ngram_size": 3, "heads_per_ngram": 2, "ngram_vocab_size_base": 50,
         "make_ngram_vocab_size_divisible_by": 8, "ple_embed_dim": 8, "indexer_n_heads": 2, "indexer_kv_heads": 1,
         "indexer_head_dim": 8, "indexer_budget": 4, "indexer_compress_ratio": 2}
QSA = {"indexer_n_heads": 16, "indexer_kv_heads": 1, "indexer_head_dim": 256, "indexer_budget": 2048,
       "indexer_compress_ratio": 4}


def _model(config: dict, **kwargs):
    import torch
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    cfg = hf_config(config)
    cfg._experts_implementation = "eager"  # tiny experts: grouped_mm wants 16-byte strides
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32, **kwargs).eval()
    return model.requires_grad_(False)


@pytest.mark.parametrize("decode_steps", [0, 3])
def test_the_cache_and_fixed_state_are_what_transformers_holds(decode_steps):
    """Keys, values and the indexer's raw keys of the attention layers; the Gated DeltaNet's conv and recurrent
    states, the PLE conv's and the n-gram context's (token ids, counted at the cache's dtype) of the linear ones."""
    pytest.importorskip("transformers")
    arch = paramledger.load(SMALL)
    cache = _run(_model(SMALL), batch=2, tokens=5, decode_steps=decode_steps)
    ours = kv_cache(arch, context=5 + decode_steps, batch=2, dtype="fp32")
    assert ours.bytes == _cache_bytes(cache)
    assert ours.state_bytes == _state_bytes(cache) > 0
    indexer_keys = sum(layer.indexer_keys.nbytes for layer in cache.layers if hasattr(layer, "indexer_keys"))
    assert indexer_keys == 2 * 2 * (5 + decode_steps) * 8 * 4  # two indexed layers, one key of 8 per token


@pytest.mark.parametrize("context", [2, 5, 9])
def test_a_decoding_steps_flops_are_what_torch_counts(context):
    """Every matmul of one decoded token (eager attention), the indexer's block scores and the PLE's dilated conv
    included: FlopCounterMode against forward_flops_per_token."""
    torch = pytest.importorskip("torch")
    from torch.utils.flop_counter import FlopCounterMode

    from test_compute import conv_fallback_flops

    arch = paramledger.load(SMALL)
    model = _model(SMALL, attn_implementation="eager")
    ids = torch.randint(0, 64, (1, context), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        out = model(ids[:, :-1], use_cache=True)
        with FlopCounterMode(display=False) as counter:
            model(ids[:, -1:], cache=out.cache, use_cache=True)
    ours = forward_flops_per_token(paramledger.inventory(arch), context)
    assert counter.get_total_flops() == ours.total + conv_fallback_flops(arch)


def test_the_parts_sit_where_transformers_registers_them():
    inventory = paramledger.inventory(paramledger.load(SMALL))
    names = [t.name for t in inventory.tensors]
    layer0 = [name.removeprefix("model.layers.0.") for name in names if name.startswith("model.layers.0.")]
    assert layer0[0] == "linear_attn.dt_bias" and layer0[-1] == "mlp_hyper_connection.block_inject_weight.weight"
    assert "ple.ple_embedding.ngram_embedding.weight" in layer0
    assert not any(name.startswith("model.layers.1.ple") for name in names)  # an attention layer: no PLE
    assert "model.layers.3.self_attn.indexer.index_qk_proj.weight" in names  # "full_attention" read as indexed
    assert "model.norm.weight" not in names and not any("layernorm" in n and "indexer" not in n for n in names)
    assert names[-4:] == ["model.hyper_connection_mixer.hc_norm.weight",
                          "model.hyper_connection_mixer.input_mix_weight_down.weight",
                          "model.hyper_connection_mixer.input_mix_weight_up.weight", "lm_head.weight"]
    from paramledger.inventory import COMPONENTS

    assert {t.component for t in inventory.tensors} <= set(COMPONENTS)  # (report's tables place each)
    # the second PLE layer's table takes the 5th to 8th primes above 49 (53 59 61 67 | 71 73 79 83), padded to 8
    shapes = {t.name: t.shape for t in inventory.tensors}
    assert shapes["model.layers.0.ple.ple_embedding.ngram_embedding.weight"] == (240, 2)
    assert shapes["model.layers.2.ple.ple_embedding.ngram_embedding.weight"] == (312, 2)


def test_the_defaults_with_an_indexer_count_what_the_class_builds():
    """Qwen4ExpTextConfig's defaults (no PLE layers) with the smallest indexer validate_architecture takes."""
    arch = paramledger.load({"model_type": "qwen4_exp_text", **QSA})
    assert paramledger.inventory(arch).total == 67_410_763_392


def test_a_default_ple_layer_holds_a_table_of_320_million_rows(cli):
    """One PLE layer at the class's n-gram sizes: 16 heads of the primes above 20,000,000, 128 wide each."""
    config = {"model_type": "qwen4_exp_text", **QSA, "ple_layer_ids": [1], "eos_token_id": 248044}
    inventory = paramledger.inventory(paramledger.load(config))
    table = next(t for t in inventory.tensors if t.name.endswith("ngram_embedding.weight"))
    assert table.shape == (320_001_536, 128) and table.component == "embedding"


# (the indexer's, the streams' and the layer types' refusals: tests/test_decoders_hr_qwen4.py)
BAD = [
    ({**QSA, "ple_layer_ids": [4], "eos_token_id": 1}, "ple_layer_ids: layer 4 is not a linear_attention layer"),
    ({**QSA, "ple_layer_ids": [0], "eos_token_id": 1}, "ple_layer_ids: 0 is out of range"),
    ({**QSA, "ple_layer_ids": "1", "eos_token_id": 1}, "ple_layer_ids: must be a list of layer numbers"),
    ({**QSA, "ple_layer_ids": [1]}, "eos_token_id: must be set with ple_layer_ids"),
    ({**QSA, "ple_layer_ids": [1], "eos_token_id": 1, "ple_embed_dim": 100},
     "ple_embed_dim: 100 is not a multiple of the 16 n-gram heads"),
    ({**QSA, "ple_layer_ids": [1], "eos_token_id": 1, "ngram_size": 1}, "ngram_size: must be at least 2"),
    ({**QSA, "ple_layer_ids": [1], "eos_token_id": 1, "ple_conv_kernel_size": 0},
     "ple_conv_kernel_size: must be positive"),
    ({**QSA, "ple_layer_ids": [1], "eos_token_id": 1, "heads_per_ngram": 0}, "heads_per_ngram: must be positive"),
]


@pytest.mark.parametrize(("config", "message"), BAD)
def test_bad_qwen4_exp_keys_are_refused_in_one_line_naming_the_key(config, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({"model_type": "qwen4_exp_text", **config})
    assert "\n" not in str(caught.value)


# transformers builds a rank or a conv of 0 (empty weights), which no checkpoint could run: refused as every other
# size of 0 is ("must be positive")


@pytest.mark.parametrize(("config", "message"), [entry for entry in BAD if "must be positive" not in entry[1]])
def test_transformers_refuses_them_too(config, message):
    """Each other refusal is one transformers makes (the config class's validation or the model's construction)."""
    pytest.importorskip("transformers")
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    with pytest.raises((ParamledgerError, ValueError, TypeError, KeyError, IndexError)):
        cfg = hf_config({"model_type": "qwen4_exp_text", **config})
        import torch

        with torch.device("meta"):
            AutoModelForCausalLM.from_config(cfg)


def test_a_bad_key_exits_2_with_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "qwen4_exp_text", **QSA, "ple_layer_ids": [4], "eos_token_id": 1}))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "ple_layer_ids: layer 4 is not a linear_attention layer" in err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(config=PLE_TEXT)
def test_random_small_configs_with_ple_match_transformers(config):
    """The decoder alone with PLE layers (test_families' qwen4_exp_text strategy draws none), tensor by tensor."""
    assert_matches_reference(config)


# ----------------------------------------------------------------- the whole model (Qwen4ExpForConditionalGeneration)
def test_the_whole_model_is_the_decoder_beside_qwen3_5_moes_tower():
    """Qwen4ExpConfig's defaults (with the indexer): Qwen3.5-MoE's default tower (453,650,672, as in
    tests/test_structure.py) beside the decoder, which moves under model.language_model, its final mixer with it."""
    whole = paramledger.inventory(paramledger.load({"model_type": "qwen4_exp", "text_config": QSA}))
    assert whole.total == 67_410_763_392 + 453_650_672
    names = [t.name for t in whole.tensors]
    assert "model.language_model.hyper_connection_mixer.input_mix_weight_up.weight" in names
    assert names[0].startswith("model.visual.") and names[-1] == "lm_head.weight"


@pytest.mark.parametrize("spelling", ["qwen4_exp", "qwen4_exp_vision"])
def test_an_old_vision_type_or_the_aliases_read_the_same_tower(spelling):
    """Qwen4ExpConfig.__post_init__ reads an old checkpoint's vision_config model_type (the whole model's) as its
    tower; num_hidden_layers and num_attention_heads are depth and num_heads."""
    pytest.importorskip("transformers")
    from paramledger.reference import build_reference, diff

    config = {"model_type": "qwen4_exp", "vision_config": {"model_type": spelling, "num_hidden_layers": 2,
                                                             "num_attention_heads": 4},
              "text_config": {**SMALL, "model_type": "qwen4_exp_text"}}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert not any(".blocks.2." in t.name for t in inventory.tensors)


def test_text_only_is_the_causal_lm_automodel_builds_from_text_config():
    """AutoModelForCausalLM maps qwen4_exp to Qwen4ExpForCausalLM, built from the text_config: --text-only."""
    pytest.importorskip("transformers")
    from paramledger.reference import build_reference, diff
    from paramledger.towers import text_only

    config = {"model_type": "qwen4_exp", "text_config": {**SMALL, "model_type": "qwen4_exp_text"}}
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    assert diff(decoder, build_reference(config["text_config"])).matches
    assert decoder.total == paramledger.inventory(paramledger.load(SMALL)).total


def test_a_whole_configs_bad_text_key_is_one_line():
    with pytest.raises(ArchitectureError, match="text_config.indexer_n_heads: missing") as caught:  # (the whole's)
        paramledger.load({"model_type": "qwen4_exp"})
    assert "\n" not in str(caught.value)
    with pytest.raises(ArchitectureError, match="vision_config.num_heads: 3 heads do not divide hidden_size=10"):
        paramledger.load({"model_type": "qwen4_exp", "text_config": QSA,
                          "vision_config": {"hidden_size": 10, "num_heads": 3}})
