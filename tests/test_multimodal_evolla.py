"""Evolla counted whole (families/evolla.py, towers/evolla.py, parts/aligned_attention.py): its refusals, each one
line naming the key, and the views it answers or refuses, against transformers 5.24.0 where a figure is compared."""

from __future__ import annotations

import json
import re

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.cli import main
from paramledger.towers import text_only

SMALL = {"model_type": "evolla", "vocab_size": 50, "hidden_size": 16, "intermediate_size": 8,
         "num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 1, "aligner_num_add_layers": 2,
         "resampler_depth": 1, "resampler_num_latents": 3, "resampler_heads": 2, "resampler_dim_head": 4,
         "protein_encoder_config": {"vocab_size": 30, "hidden_size": 8, "num_hidden_layers": 1,
                                    "num_attention_heads": 2, "intermediate_size": 4}}


@pytest.mark.parametrize(("given", "message"), [
    ({"protein_encoder_config": {"hidden_size": 0}}, "protein_encoder_config.hidden_size: must be a positive whole "
                                                     "number, got 0"),
    ({"protein_encoder_config": {"hidden_size": 7, "num_attention_heads": 2}},
     "protein_encoder_config.num_attention_heads: 2 heads do not divide hidden_size=7"),
    ({"protein_encoder_config": {"num_hidden_layers": 100_000}},
     "protein_encoder_config.num_hidden_layers: 100,000 is beyond the bound of 10,000"),
    ({"protein_encoder_config": {"position_embedding_type": "relative_key"}},
     "protein_encoder_config.position_embedding_type: must be \"rotary\" or \"absolute\", got 'relative_key'"),
    ({"protein_encoder_config": {"add_cross_attention": True}},
     "protein_encoder_config.add_cross_attention: needs is_decoder true"),
    ({"protein_encoder_config": {"emb_layer_norm_before": "no"}},
     "protein_encoder_config.emb_layer_norm_before: must be true or false, got 'no'"),
    ({"protein_encoder_config": [2]}, "protein_encoder_config: must be a JSON object"),
    ({"protein_encoder_config": {"head_dim": -2}}, "protein_encoder_config.head_dim: must be a positive whole number "
                                                  "or null, got -2"),
    ({"resampler_depth": -1}, "resampler_depth: must be a positive whole number, got -1"),
    ({"resampler_depth": 100_000}, "resampler_depth: 100,000 is beyond the bound of 10,000"),
    ({"resampler_num_latents": None}, "resampler_num_latents: must be a positive whole number, got None"),
    ({"aligner_num_add_layers": 0}, "aligner_num_add_layers: must be a positive whole number, got 0"),
    ({"aligner_ffn_mult": 0}, "aligner_ffn_mult: must be a positive whole number, got 0"),
    ({"aligner_enable_bias": "yes"}, "aligner_enable_bias: must be true or false, got 'yes'"),
])
def test_a_config_evolla_cannot_count_is_one_line(given, message):
    with pytest.raises(ArchitectureError, match=re.escape(message)) as error:
        paramledger.load({"model_type": "evolla", **given})
    assert "\n" not in str(error.value)


def test_the_defaults_are_the_released_whole_model():
    inventory = paramledger.inventory({"model_type": "evolla"})
    assert inventory.total == 10_390_787_344  # EvollaForProteinText2Text(EvollaConfig()) on the meta device
    assert not inventory.aliases  # no _tied_weights_keys: the head is its own whatever tie_word_embeddings says
    assert paramledger.inventory({"model_type": "evolla", "tie_word_embeddings": True}).total == inventory.total


def test_the_adapters_sit_in_every_interval_th_layer():
    """EvollaDecoderLayer: (layer_idx + 1) % max(num_hidden_layers // aligner_num_add_layers, 1) == 0."""
    names = [t.name for t in paramledger.inventory(SMALL).tensors]
    held = sorted({int(name.split(".")[2]) for name in names if ".adapter." in name})
    assert held == [1, 3]
    assert names.index("model.layers.1.adapter.gate_attention") == names.index(
        "model.layers.1.post_attention_layernorm.weight") + 1


def test_the_decoder_alone_is_refused_in_one_line():
    with pytest.raises(OptionError, match="--text-only: evolla: its decoder alone is no class transformers"):
        text_only(paramledger.load({"model_type": "evolla"}))


def test_memory_answers_the_weights_and_cache_and_refuses_the_flops(capsys, tmp_path):
    path = tmp_path / "evolla.json"
    path.write_text(json.dumps(SMALL))
    assert main(["memory", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["flops_per_token"] is None
    assert report["kv_values_per_token"] == 2 * 8 * 4  # the self-attention's keys and values (1 KV head of 8)
    assert main(["memory", str(path), "--flops"]) == 2
    err = capsys.readouterr().err
    assert "flops: evolla: Evolla's adapters project the resampled protein latents" in err and err.count("\n") == 1


def test_the_cache_is_what_transformers_caches_with_a_protein_given():
    """DynamicCache holds the decoder layers' keys and values; the adapters cache nothing (they attend over the
    resampled protein latents the forward pass computes again)."""
    torch = pytest.importorskip("torch")
    from transformers import EvollaConfig, EvollaForProteinText2Text

    from paramledger.kvcache import kv_cache

    model = EvollaForProteinText2Text(EvollaConfig(**{k: v for k, v in SMALL.items() if k != "model_type"})).eval()
    tokens = 5
    with torch.no_grad():
        cache = model(torch.randint(0, 50, (1, tokens)), use_cache=True,
                      protein_input_ids=torch.randint(0, 30, (1, 6)),
                      protein_attention_mask=torch.ones(1, 6, dtype=torch.long)).cache
    held = sum(layer.keys.nbytes + layer.values.nbytes for layer in cache.layers)
    assert kv_cache(paramledger.load(SMALL), tokens, 1, "fp32").bytes == held


def test_verify_matches_transformers(capsys, tmp_path):
    path = tmp_path / "evolla.json"
    path.write_text(json.dumps(SMALL))
    assert main(["verify", str(path)]) == 0
    assert "reference: EvollaForProteinText2Text" in capsys.readouterr().out


def test_the_protein_rotary_follows_a_head_dim_given():
    """EvollaSaProtRotaryEmbedding reads the config's head_dim attribute (SaProtConfig declares none)."""
    from paramledger.buffers import every_buffer

    inv = paramledger.inventory({**SMALL, "protein_encoder_config": {**SMALL["protein_encoder_config"], "head_dim": 10}})
    rotary = [b for b in every_buffer(inv) if b.name == "model.protein_encoder.model.rotary_embeddings.inv_freq"]
    assert [(b.shape, b.persistent) for b in rotary] == [((5,), True)]
