"""IDEFICS (1) counted whole (families/idefics1.py, towers/idefics1.py): its refusals, each one line naming the
key, and the views it answers or refuses, against transformers 5.24.0 where a figure is compared."""

from __future__ import annotations

import json
import re

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.cli import main
from paramledger.towers import text_only

SMALL = {"model_type": "idefics", "vocab_size": 50, "hidden_size": 16, "intermediate_size": 8,
         "num_hidden_layers": 3, "num_attention_heads": 2, "use_resampler": True,
         "vision_config": {"embed_dim": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 4,
                           "image_size": 8, "patch_size": 4},
         "perceiver_config": {"resampler_depth": 1, "resampler_n_latents": 3}}


@pytest.mark.parametrize(("given", "message"), [
    ({"vision_config": {"embed_dim": 0}}, "vision_config.embed_dim: must be a positive whole number, got 0"),
    ({"vision_config": {"patch_size": 300}}, "vision_config.patch_size: 300 is larger than image_size=224"),
    ({"vision_config": {"image_size": [224, 224]}}, "vision_config.image_size: must be a positive whole number"),
    ({"cross_layer_interval": 0}, "cross_layer_interval: must be a positive whole number, got 0"),
    ({"alpha_type": "matrix"}, "alpha_type: must be \"float\" or \"vector\", got 'matrix'"),
    ({"alpha_initializer": "xavier"}, "alpha_initializer: must be one of zeros, ones, normal, gaussian, random"),
    ({"alpha_initializer": "normal"}, "alpha_initializer: transformers 5.24.0 cannot build 'normal' with "
                                      "alpha_type \"float\""),
    ({"additional_vocab_size": -1}, "additional_vocab_size: must be a whole number from 0, got -1"),
    ({"use_resampler": True, "perceiver_config": {"resampler_depth": 0}},
     "perceiver_config.resampler_depth: must be a positive whole number, got 0"),
    ({"use_resampler": True, "perceiver_config": {"resampler_depth": 100_000}},
     "perceiver_config.resampler_depth: 100,000 is beyond the bound of 10,000"),
    ({"use_resampler": True, "perceiver_config": [2]}, "perceiver_config: must be a JSON object"),
    ({"use_resampler": True, "perceiver_config": {"qk_layer_norms_perceiver": "no"}},
     "perceiver_config.qk_layer_norms_perceiver: must be true or false, got 'no'"),
    ({"use_resampler": "yes"}, "use_resampler: must be true or false, got 'yes'"),
    ({"qk_layer_norms": 1}, "qk_layer_norms: must be true or false, got 1"),
    ({"num_attention_heads": 3}, "num_attention_heads: 3 heads do not divide hidden_size=4096"),
    ({"head_dim": 0}, "head_dim: must be a positive whole number or null, got 0"),
    ({"head_dim": 5}, "head_dim: 5 is odd and rotated whole"),
    ({"num_hidden_layers": 10_000_000}, "num_hidden_layers: 10,000,000 gated cross-attention layers are beyond"),
])
def test_a_config_idefics_cannot_count_is_one_line(given, message):
    with pytest.raises(ArchitectureError, match=re.escape(message)) as error:
        paramledger.load({"model_type": "idefics", **given})
    assert "\n" not in str(error.value)


def test_the_decoder_alone_is_refused_in_one_line():
    with pytest.raises(OptionError, match="--text-only: idefics: its decoder alone is no class transformers"):
        text_only(paramledger.load({"model_type": "idefics"}))


def test_memory_answers_the_weights_and_cache_and_refuses_the_flops(capsys, tmp_path):
    path = tmp_path / "idefics.json"
    path.write_text(json.dumps(SMALL))
    assert main(["memory", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["flops_per_token"] is None
    assert report["kv_values_per_token"] == 2 * 16 * 3  # the self-attention layers' keys and values only
    assert main(["memory", str(path), "--flops"]) == 2
    err = capsys.readouterr().err
    assert "flops: idefics: IDEFICS's gated cross-attention layers" in err and err.count("\n") == 1


def test_the_cache_is_what_transformers_caches():
    """DynamicCache holds the decoder layers' keys and values; the gated cross-attention layers cache nothing
    (IdeficsModel.forward passes them cache=None and projects the image states again at every step)."""
    torch = pytest.importorskip("torch")
    from transformers import IdeficsConfig, IdeficsForVisionText2Text

    from paramledger.kvcache import kv_cache

    model = IdeficsForVisionText2Text(IdeficsConfig(**{k: v for k, v in SMALL.items() if k != "model_type"})).eval()
    tokens = 5
    with torch.no_grad():
        out = model(input_ids=torch.randint(3, 50, (1, tokens)), pixel_values=torch.randn(1, 2, 3, 8, 8),
                    image_attention_mask=torch.ones(1, tokens, 2, dtype=torch.long), use_cache=True)
    held = sum(layer.keys.numel() + layer.values.numel() for layer in out.cache.layers)
    assert kv_cache(paramledger.load(SMALL), tokens, 1, "fp32").values == held


def test_the_tied_head_shares_its_extra_rows_too():
    arch = paramledger.load({**SMALL, "additional_vocab_size": 2, "tie_word_embeddings": True})
    inventory = paramledger.inventory(arch)
    assert inventory.aliases == {"lm_head.weight": "model.embed_tokens.weight",
                                 "lm_head.additional_fc.weight": "model.embed_tokens.additional_embedding.weight"}
